"""Cut to Top [X] on a real event: once the cut is made, "only the standings of the top X
players can change". The players left out keep the place, TP and SoS they had at the cut
on the standings (the page, the CSV, the player pages read the same), while the kept
players play on and move among themselves (RP1)."""

from __future__ import annotations

from app.events.service import EventService
from tests.service.first_seats import cut_day_after_round_one, first_seats_win


async def test_the_players_left_out_by_the_cut_keep_their_standings__RP1(
    service: EventService,
) -> None:
    event = service.book.event(await cut_day_after_round_one(service))
    service.rounds.pair_next(event.id)  # 4 undefeated: the cut is made (X = 4)
    kept = {p.id for p in service.book.players(event.id) if not p.cut}
    assert len(kept) == 4
    at_cut = {s.player_id: s for s in service.results.standings(event.id)}
    await service.rounds.start(event.id)
    await first_seats_win(service, event.id, 2)

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
