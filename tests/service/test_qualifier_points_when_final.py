"""ST4: an Iron Gauntlet qualifier's points are given by its final standings: while the
event goes on the standings (page, CSV, the event's view) show none, and once it is over
each place has its QPs."""

from __future__ import annotations

from app.events.base import EventSpec, pairings_of
from app.events.service import EventService
from app.events.table_result import TableResult
from app.tables.timesource import FakeTime

MIN = 60_000
NAMES = ("Alice", "Bob", "Cara", "Dan")


async def test_qualifier_points_wait_for_the_final_standings__ST4(
    service: EventService,
) -> None:
    time = service.time
    assert isinstance(time, FakeTime)
    event = service.registration.create_event(EventSpec(name="IGQ", format_id="ig2014", points=50))
    for name in NAMES:
        service.registration.add_player(event.id, name, "Cygnar", "Caine\nStryker", painted=True)
    strength = {p.id: NAMES.index(p.name) for p in service.book.players(event.id)}
    rounds = 0
    while not service.results.event_over(event.id):
        entry = service.rounds.pair_next(event.id)
        await service.rounds.start(event.id)
        time.advance(90 * MIN)
        for row in pairings_of(service.book.rounds(event.id)[entry.number - 1]):
            assert row.p2 is not None and row.table_id is not None
            first_wins = strength[row.p1] < strength[row.p2]
            result = {
                "winner": "p1" if first_wins else "p2",
                "control_points": [5, 0] if first_wins else [0, 5],
                "army_points_destroyed": [40, 10] if first_wins else [10, 40],
            }
            await service.results.enter(event.id, row.table_id, TableResult.from_wire(result))
        rounds += 1
        if not service.results.event_over(event.id):
            assert [s.qualifier_points for s in service.results.standings(event.id)] == [None] * 4
            view = service.read_models.event_view(event.id)
            assert [s["qualifier_points"] for s in view["standings"]] == [None] * 4
    assert rounds >= 2
    final = service.results.standings(event.id)
    assert [(s.name, s.qualifier_points) for s in final][:2] == [("Alice", 10), ("Bob", 8)]
    view = service.read_models.event_view(event.id)
    assert [s["qualifier_points"] for s in view["standings"]][:2] == [10, 8]
