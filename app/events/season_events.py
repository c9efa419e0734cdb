"""A season's events as the season reads them: each one's final standings, the places
its eligible players hold (a disqualified player's passes down, ST3), the QPs those
places earn (ST4 2019), where its report stands and, once sent, the report itself: what
the season counts from then on, and how the event's standings have moved since. Also
how the season page shows an event and a line of its table."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.domain import qualifiers as q
from app.domain.formats import get_format
from app.domain.standings import Standing
from app.store.models import EventRecord
from app.store.models_season import SeasonEvent, SeasonReportLine


@dataclass(frozen=True, slots=True)
class SentLine:
    """A player's line of an IGQ's report: their final standing and its QPs."""

    entry: q.Entry
    rank: int
    qp: int


@dataclass(frozen=True, slots=True)
class SentReport:
    """The report the keeper sent: its lines, and the event's end it was judged from."""

    ended_ms: int
    lines: tuple[SentLine, ...]
    #: When the keeper last sent a corrected report, and why (None: never).
    corrected_ms: int | None = None
    corrected_reason: str | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """A player whose standing differs between the report sent and the event now
    (rank None: not in that top three)."""

    entry: q.Entry
    sent_rank: int | None
    sent_qp: int
    rank: int | None
    qp: int

    def words(self) -> str:
        return f"{self.entry.name} {self.sent_qp} → {self.qp} QPs"


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
    #: The report as sent (None: not sent, or sent before reports were kept).
    sent: SentReport | None = None

    @property
    def top_three(self) -> tuple[tuple[int, q.Entry], ...]:
        return tuple((place, e) for place, e in self.placed if place <= 3)

    @property
    def ended_ms(self) -> int | None:
        """The end its report is judged from: as sent, once sent; else the event's."""
        return self.sent.ended_ms if self.sent is not None else self.finished_ms

    def live_lines(self) -> tuple[SentLine, ...]:
        """Its top three now, as a report would read them (ST4 2019)."""
        return tuple(SentLine(e, place, q.qp_2019(place)) for place, e in self.top_three)

    def counted(self) -> tuple[SentLine, ...]:
        """The top three the season counts: the report as sent, once sent; before, the
        event's own standings."""
        return self.sent.lines if self.sent is not None else self.live_lines()

    def awards(self) -> list[q.Award]:
        return [
            q.Award(line.entry, self.event.name, line.rank, line.qp)
            for line in self.counted()
            if line.qp > 0
        ]

    def report(self, now_ms: int) -> str | None:
        """Where its report stands (`q.report_standing`); None while it is not over."""
        if self.ended_ms is None:
            return None
        return q.report_standing(self.ended_ms, self.reported_ms, now_ms)

    def earns_qp(self, now_ms: int) -> bool:
        """Over, and reported on time or still within its 14 days (ST4)."""
        standing = self.report(now_ms)
        return standing is not None and q.report_counts(standing)

    def changes(self) -> list[Change]:
        """The players whose standing moved since the report was sent (none while it is
        not sent, or the event is not over)."""
        if self.sent is None or not self.over:
            return []
        sent = {line.entry.player_id: line for line in self.sent.lines}
        now = {line.entry.player_id: line for line in self.live_lines()}
        found = []
        for player in dict.fromkeys([*sent, *now]):
            was, is_ = sent.get(player), now.get(player)
            before = (None, 0) if was is None else (was.rank, was.qp)
            after = (None, 0) if is_ is None else (is_.rank, is_.qp)
            if before != after:
                entry = is_.entry if is_ is not None else sent[player].entry
                found.append(Change(entry, *before, *after))
        return found

    def changed_words(self) -> str | None:
        """What the keeper is told when the event moved after its report was sent."""
        if self.sent is None:
            return None
        if not self.over:
            return (
                "The event's results changed after the report was sent: it is not over "
                "any more. The season counts the report as sent."
            )
        changes = self.changes()
        if not changes:
            return None
        return (
            "The event's standings changed after the report was sent: "
            + ", ".join(c.words() for c in changes)
            + ". The season counts the report as sent until a corrected one is sent."
        )


def sent_report(
    row: SeasonEvent, lines: Sequence[SeasonReportLine], names: Mapping[str, str]
) -> SentReport | None:
    """The event's report as sent (None: not sent, or sent before reports were kept:
    the season reads the event then). Each player by their name now, should the EO
    have corrected it since: the same entry, the same person."""
    if row.ended_ms is None:
        return None
    found = tuple(
        SentLine(
            q.Entry(row.event_id, line.player_id, names.get(line.player_id, line.name)),
            line.rank,
            line.qp,
        )
        for line in lines
        if line.event_id == row.event_id
    )
    return SentReport(row.ended_ms, found, row.corrected_ms, row.corrected_reason)


def held_over(
    event: EventRecord,
    finished_ms: int,
    standings: Sequence[Standing],
    disqualified: Collection[str],
    reported_ms: int | None,
    sent: SentReport | None = None,
    tie_places: Mapping[str, int] | None = None,
) -> HeldEvent:
    """An event that is over: its whole field by final standing, and its eligible
    players by place (the disqualified passed over, `q.eligible_places`). Players equal
    on every total share a place, unless the EO placed them on the prizes page
    (`tie_places`: the place prizes' winners, app.domain.prize_ties): then the season
    counts the places the prizes give."""
    entries = {s.player_id: q.Entry(event.id, s.player_id, s.name) for s in standings}
    places = q.eligible_places(((s.rank, s.player_id) for s in standings), disqualified)
    places = _placed_by_prizes(places, tie_places or {})
    ranked = tuple((s.rank, entries[s.player_id]) for s in standings)
    placed = tuple(
        sorted(
            (
                (places[s.player_id], entries[s.player_id])
                for s in standings
                if s.player_id in places
            ),
            key=lambda pair: pair[0],
        )
    )
    return HeldEvent(event, True, finished_ms, ranked, reported_ms, placed, sent)


def _placed_by_prizes(places: Mapping[str, int], given: Mapping[str, int]) -> dict[str, int]:
    """Players sharing a place, where the prizes page placed some of them: those keep
    the places the prizes give, the others of their group follow them."""
    groups: dict[int, list[str]] = {}
    for player, place in places.items():
        groups.setdefault(place, []).append(player)
    out = dict(places)
    for shared, group in groups.items():
        placed = [p for p in group if p in given]
        for player in group if placed else ():
            out[player] = given.get(player, shared + len(placed))
    return out


def event_view(held: HeldEvent, now_ms: int, igq: bool = True) -> dict[str, Any]:
    """`igq`: an Iron Gauntlet qualifier, noted when its field is under the sanctioned
    minimum (a Masters tournament's qualifier is not: the qualifiers count together), and
    where its report stands (`report`: None while it is not over, or not an IGQ).
    Once its report is sent, its top three are the report's (`sent`), and `changed` tells
    the keeper how the event's standings moved since (`changes`, `now_top_three`)."""
    event, ended, sent = held.event, held.ended_ms, held.sent
    changes = held.changes() if igq else []
    return {
        "id": event.id,
        "name": event.name,
        "format": get_format(event.format_id).name,
        "over": held.over,
        "finished_ms": ended,
        "report_due_ms": None if ended is None else q.report_due_ms(ended),
        "reported_ms": held.reported_ms,
        "report": held.report(now_ms) if igq else None,
        "players": len(held.ranked),
        "field_note": q.field_note(len(held.ranked)) if held.over and igq else None,
        "top_three": [_line(line) for line in held.counted()],
        "sent": sent is not None,
        "changed": held.changed_words() if igq else None,
        "changes": [
            {
                "player_id": c.entry.player_id,
                "name": c.entry.name,
                "sent_rank": c.sent_rank,
                "sent_qp": c.sent_qp,
                "rank": c.rank,
                "qp": c.qp,
            }
            for c in changes
        ],
        "now_top_three": [_line(line) for line in held.live_lines()] if changes else None,
        "corrected_ms": None if sent is None else sent.corrected_ms,
        "corrected_reason": None if sent is None else sent.corrected_reason,
    }


def _line(line: SentLine) -> dict[str, Any]:
    return {"rank": line.rank, "name": line.entry.name, "qp": line.qp}


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
