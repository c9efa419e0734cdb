"""Cut to Top [X] on a real event: once the cut is made, "only the standings of the top X
players can change". The players left out keep the place, TP and SoS they had at the cut
on the standings (the page, the CSV, the player pages read the same), while the kept
players play on and move among themselves (RP1)."""

from __future__ import annotations

from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult
from app.tables.room import TableRoom


def _tables(service: EventService, event_id: str, number: int) -> list[TableRoom]:
    return [r for r in service.tables.rooms(event_id) if r.meta and r.meta.round_number == number]


async def _first_seats_win(service: EventService, event_id: str, number: int) -> None:
    won = TableResult.from_wire(
        {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [30, 10]}
    )
    for room in _tables(service, event_id, number):
        assert await service.results.enter(event_id, room.table_id, won)


async def test_the_players_left_out_by_the_cut_keep_their_standings__RP1(
    service: EventService,
) -> None:
    event = service.registration.create_event(EventSpec(name="Cut", points=75, cut_to_top=4))
    for n in range(8):
        service.registration.add_player(event.id, f"Player {n + 1}", "Cygnar")
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    await _first_seats_win(service, event.id, 1)
    service.rounds.pair_next(event.id)  # 4 undefeated: the cut is made (X = 4)
    kept = {p.id for p in service.book.players(event.id) if not p.cut}
    assert len(kept) == 4
    at_cut = {s.player_id: s for s in service.results.standings(event.id)}
    await service.rounds.start(event.id)
    await _first_seats_win(service, event.id, 2)

    after = service.results.standings(event.id)

    assert {s.player_id for s in after[:4]} == kept
    assert all(s.rank <= 4 for s in after[:4]) and all(s.rank > 4 for s in after[4:])
    left_out = after[4:]
    assert [(s.player_id, s.rank, s.tp, s.sos) for s in left_out] == [
        (s.player_id, s.rank, s.tp, s.sos)
        for s in sorted(at_cut.values(), key=lambda s: (s.rank, s.name.casefold()))
        if s.player_id not in kept
    ]
    # Their opponents of round 1 went on to win again: without the rule their SoS moves.
    assert any(at_cut[s.player_id].sos > 0 for s in left_out)
