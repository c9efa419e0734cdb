"""What the event's use cases share as plain values: the event as the EO specifies it,
what its record says of its clock, variants and lists, and a round's pairings as stored."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.domain import variants
from app.domain.army_lists import ListChecks
from app.domain.formats import MINUTE_MS, ListRule, get_format
from app.store.models import EoAction, EventRecord, RoundEntry


@dataclass(frozen=True, slots=True)
class EventSpec:
    name: str
    format_id: str = "sr2019"
    points: int = 75
    lists: int | None = None  # None: the format's own choice (Masters must name one)
    fixed_rounds: int | None = None
    cut_to_top: int | None = None
    standings: str = "baseline"  # ST2: the standings variant
    painting_category: str = ""  # ST3: Best-Painted's category ("": no Best-Painted)
    #: The player clock the EO sets, in minutes (None: the format's for the points).
    clock_minutes: int | None = None
    pregame: bool = False  # lists, the starting roll and sides on the phones
    #: Nobody at the same table number twice where the pairings allow it.
    fresh_tables: bool = False
    #: SR2019 event variants (app.domain.variants): timing, victory, tiebreakers, lists.
    variants: tuple[str, ...] = ()
    #: Champions' Active Duty Roster, as the EO wrote it ("": none, not checked).
    roster: str = ""
    #: A Runewars event's RP6 structure ("basic", "advanced"): its rounds by attendance.
    structure: str = ""
    #: A Runewars event's season of deployments and objectives ("july2017", "october2017").
    season: str = ""
    #: A Runewars event asks each player for an army list at registration (Army Building).
    army_lists: bool = False


def event_clock_ms(event: EventRecord) -> int:
    """Each player's clock at the event's tables: the EO's minutes, or the format's
    clock for the event's point size."""
    if event.clock_minutes is not None:
        return event.clock_minutes * MINUTE_MS
    return get_format(event.format_id).player_clock_ms(event.points)


def event_variants(event: EventRecord) -> tuple[str, ...]:
    """The variants the EO chose for the event, as stored."""
    return tuple(v for v in event.variants.split(",") if v)


def list_policy(event: EventRecord) -> tuple[ListRule, ListChecks]:
    """The army lists each player brings to the event, and what is checked in them: the
    event's variants, the format's own list rules, its Active Duty Roster, and the
    painting standard its document requires, declared with the lists (IG2014)."""
    rule = get_format(event.format_id).list_rule(event.lists)
    checks = variants.list_checks(event_variants(event), event.points)
    return rule, rule.with_painting(rule.with_roster(checks, event.roster))


@dataclass(frozen=True, slots=True)
class PairingRow:
    """A pairing of a round as stored: the domain pairing plus its live table."""

    table: int
    p1: str
    p2: str | None
    paired_down: str | None
    table_id: str | None


def pairings_of(entry: RoundEntry) -> list[PairingRow]:
    return [PairingRow(**row) for row in json.loads(entry.pairings_json)]


def dump_pairings(rows: Sequence[PairingRow]) -> str:
    return json.dumps(
        [
            {
                "table": r.table,
                "p1": r.p1,
                "p2": r.p2,
                "paired_down": r.paired_down,
                "table_id": r.table_id,
            }
            for r in rows
        ]
    )


def cut_final(
    event: EventRecord, rounds: Sequence[RoundEntry], actions: Iterable[EoAction]
) -> bool:
    """RP1: the cut is made and its round is under way: "the remaining tournament rounds
    are only played by the top X players", and nobody joins them. A cut made by a draft
    not started yet is made again each time the draft is paired again."""
    if not event.cut_done:
        return False
    made = [a for a in actions if a.action == "cut_to_top"]
    number = json.loads(made[-1].detail_json).get("round") if made else None
    return any(r.number == number and r.started_ms is not None for r in rounds)
