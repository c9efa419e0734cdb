"""A season's events as the season reads them: each one's final standings, the places
its eligible players hold (a disqualified player's passes down, ST3), the QPs those
places earn (ST4 2019) and where its report stands; and how the season page shows an
event and a line of its table."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from app.domain import qualifiers as q
from app.domain.formats import get_format
from app.domain.standings import Standing
from app.store.models import EventRecord


@dataclass(frozen=True, slots=True)
class HeldEvent:
    """One of the season's events as the season reads it."""

    event: EventRecord
    over: bool
    #: When its last round's last game ended (None: not over yet).
    finished_ms: int | None
    #: (final standing, player) of its whole field, once over.
    ranked: tuple[tuple[int, q.Entry], ...]
    #: When the keeper recorded its top three's report as sent (None: not yet).
    reported_ms: int | None = None
    #: (place, player) of its eligible players, once over: the places a season counts.
    #: "Disqualified players are not eligible for any awards or prizes": as on the prizes
    #: page, a disqualified player has no place and theirs passes to the next player.
    placed: tuple[tuple[int, q.Entry], ...] = ()

    @property
    def top_three(self) -> tuple[tuple[int, q.Entry], ...]:
        return tuple((place, e) for place, e in self.placed if place <= 3)

    def report(self, now_ms: int) -> str | None:
        """Where its report stands (`q.report_standing`); None while it is not over."""
        if self.finished_ms is None:
            return None
        return q.report_standing(self.finished_ms, self.reported_ms, now_ms)

    def earns_qp(self, now_ms: int) -> bool:
        """Over, and reported on time or still within its 14 days (ST4)."""
        standing = self.report(now_ms)
        return standing is not None and q.report_counts(standing)


def held_over(
    event: EventRecord,
    finished_ms: int,
    standings: Sequence[Standing],
    disqualified: Collection[str],
    reported_ms: int | None,
) -> HeldEvent:
    """An event that is over: its whole field by final standing, and its eligible
    players by place (the disqualified passed over, `q.eligible_places`)."""
    entries = {s.player_id: q.Entry(event.id, s.player_id, s.name) for s in standings}
    places = q.eligible_places(((s.rank, s.player_id) for s in standings), disqualified)
    ranked = tuple((s.rank, entries[s.player_id]) for s in standings)
    placed = tuple(
        (places[s.player_id], entries[s.player_id]) for s in standings if s.player_id in places
    )
    return HeldEvent(event, True, finished_ms, ranked, reported_ms, placed)


def event_view(held: HeldEvent, now_ms: int, igq: bool = True) -> dict[str, Any]:
    """`igq`: an Iron Gauntlet qualifier, noted when its field is under the sanctioned
    minimum (a Masters tournament's qualifier is not: the qualifiers count together), and
    where its report stands (`report`: None while it is not over, or not an IGQ)."""
    event = held.event
    return {
        "id": event.id,
        "name": event.name,
        "format": get_format(event.format_id).name,
        "over": held.over,
        "finished_ms": held.finished_ms,
        "report_due_ms": None if held.finished_ms is None else q.report_due_ms(held.finished_ms),
        "reported_ms": held.reported_ms,
        "report": held.report(now_ms) if igq else None,
        "players": len(held.ranked),
        "field_note": q.field_note(len(held.ranked)) if held.over and igq else None,
        "top_three": [
            {"rank": place, "name": e.name, "qp": q.qp_2019(place)} for place, e in held.top_three
        ],
    }


def row_view(row: q.SeasonRow) -> dict[str, Any]:
    return {
        "name": row.name,
        "qp": row.qp,
        "qualified": row.qualified,
        "confirmed": row.confirmed,
        "events": [
            {"event_id": a.entry.event_id, "event": a.event_name, "rank": a.rank, "qp": a.qp}
            for a in row.awards
        ],
    }
