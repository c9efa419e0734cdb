"""An event played to its end by strength, the EO entering each result: of two players
the one named earlier wins, with more control points the stronger the winner, so the
final standings follow the order of the names given."""

from __future__ import annotations

from collections.abc import Sequence

from app.events.base import pairings_of
from app.events.service import EventService
from app.events.table_result import TableResult
from app.tables.timesource import FakeTime

MIN = 60_000


async def play_by_strength(service: EventService, event_id: str, names: Sequence[str]) -> None:
    """Pair, start and settle every round of `event_id` until the event is over."""
    time: FakeTime = service.time  # type: ignore[assignment]
    strength = {p.id: names.index(p.name) for p in service.book.players(event_id)}
    while not service.results.event_over(event_id):
        entry = service.rounds.pair_next(event_id)
        await service.rounds.start(event_id)
        time.advance(90 * MIN)
        for row in pairings_of(service.book.rounds(event_id)[entry.number - 1]):
            if row.p2 is None or row.table_id is None:
                continue
            first_wins = strength[row.p1] < strength[row.p2]
            winner_cp = 20 - min(strength[row.p1], strength[row.p2])
            result = {
                "winner": "p1" if first_wins else "p2",
                "control_points": [winner_cp, 0] if first_wins else [0, winner_cp],
                "army_points_destroyed": [40, 10] if first_wins else [10, 40],
            }
            await service.results.enter(event_id, row.table_id, TableResult.from_wire(result))
            time.advance(MIN)
