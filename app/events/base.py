"""What every part of the event service shares: its collaborators, the event's records
as stored, and the "changed" signal it sends after each use case."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.domain import variants
from app.domain.army_lists import ListChecks
from app.domain.errors import NotFound, Unsupported
from app.domain.formats import MINUTE_MS, ListRule, get_format
from app.domain.games import refusal
from app.store.events import EventStore
from app.store.models import EoAction, EventRecord, PlayerEntry, RoundEntry
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.room import TableRoom
from app.tables.timesource import TimeSource


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
    """The army lists each player brings to the event, and what is checked in them."""
    rule = get_format(event.format_id).list_rule(event.lists)
    checks = variants.list_checks(event_variants(event), event.points)
    return rule, rule.with_roster(checks, event.roster)


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


#: Told the event's id after every use case that changed it.
ChangeListener = Callable[[str], None]


class EventBase:
    def __init__(
        self,
        store: Store,
        hub: TableHub,
        time: TimeSource,
        rng: random.Random | None = None,
        players_per_event: int = 1024,
    ) -> None:
        self.store = store
        self.db = EventStore(store)
        self.hub = hub
        self.time = time
        self.rng = rng or random.Random()
        self._round_ends: dict[str, asyncio.Task[None]] = {}
        self.players_per_event = players_per_event
        self.listeners: list[ChangeListener] = []

    def changed(self, event_id: str) -> None:
        """Tell whoever listens (the dashboards, the read models) the event changed."""
        for listener in tuple(self.listeners):
            listener(event_id)

    # -- reads --------------------------------------------------------------------

    def event(self, event_id: str) -> EventRecord:
        with self.db.read() as repo:
            event = repo.event(event_id)
        if event is None:
            raise NotFound(f"no event {event_id!r}")
        return event

    def require(self, event_id: str, feature: str) -> EventRecord:
        """The event, if its format takes this common path (`players`, `rounds`, `swap`,
        `results`, `prizes`, `lists`, `player_pages`); else Unsupported with the format's reason."""
        event = self.event(event_id)
        reason = refusal(event.format_id, feature)
        if reason is not None:
            raise Unsupported(reason)
        return event

    def players(self, event_id: str) -> list[PlayerEntry]:
        with self.db.read() as repo:
            return repo.players(event_id)

    def player(self, event_id: str, player_id: str) -> PlayerEntry:
        with self.db.read() as repo:
            player = repo.player(player_id)
        if player is None or player.event_id != event_id:
            raise NotFound(f"no player {player_id!r} in this event")
        return player

    def rounds(self, event_id: str) -> list[RoundEntry]:
        with self.db.read() as repo:
            return repo.rounds(event_id)

    def current_round(self, event_id: str) -> RoundEntry | None:
        rounds = self.rounds(event_id)
        return rounds[-1] if rounds else None

    def event_table(self, event_id: str, table_id: str) -> TableRoom:
        """A live table of this event (NotFound for any other)."""
        room = self.hub.get(table_id)
        if room is None or room.meta is None or room.meta.event_id != event_id:
            raise NotFound(f"no table {table_id!r} in this event")
        return room

    def actions(self, event_id: str) -> list[EoAction]:
        with self.db.read() as repo:
            return repo.actions(event_id)

    # -- the EO's log -------------------------------------------------------------

    def _action(self, event_id: str, action: str, **detail: Any) -> EoAction:
        return EoAction(
            event_id=event_id,
            at_ms=self.time.now_ms(),
            action=action,
            detail_json=json.dumps(detail),
        )

    def log_action(self, event_id: str, action: str, **detail: Any) -> None:
        with self.db.unit() as repo:
            repo.add(self._action(event_id, action, **detail))
