"""RP1: "determined by the number of players" (≤8 → 3 rounds, 9–16 → 4). A player the EO
registered who never came (dropped before they were paired in any round) is not one of
the players: nine registered and one no-show is an eight-player event of three rounds,
on the EO's page as in the rules that end it. A player who played and then left still
counts, as before."""

from __future__ import annotations

from app.events.base import EventSpec
from app.events.service import EventService
from tests.service.first_seats import first_seats_win


async def _nine_registered(service: EventService) -> tuple[str, list[str]]:
    event = service.registration.create_event(EventSpec(name="Con day", points=75))
    ids = [service.registration.add_player(event.id, f"Player {n + 1}").id for n in range(9)]
    return event.id, ids


async def test_a_no_show_dropped_before_round_one_does_not_add_a_round__RP1(
    service: EventService,
) -> None:
    event_id, ids = await _nine_registered(service)
    assert service.results.planned_rounds(event_id) == 4
    service.registration.drop_player(event_id, ids[-1])  # never came
    assert service.results.planned_rounds(event_id) == 3
    for number in (1, 2, 3):
        service.rounds.pair_next(event_id)
        await service.rounds.start(event_id)
        await first_seats_win(service, event_id, number)
    assert service.results.event_over(event_id)
    view = service.read_models.event_view(event_id)
    assert view["event"]["planned_rounds"] == 3 and view["event"]["over"]


async def test_a_player_who_played_and_left_still_counts__RP1(service: EventService) -> None:
    event_id, ids = await _nine_registered(service)
    service.rounds.pair_next(event_id)
    await service.rounds.start(event_id)
    await first_seats_win(service, event_id, 1)
    service.registration.drop_player(event_id, ids[0])  # played round 1, then left
    assert service.results.planned_rounds(event_id) == 4
    assert not service.results.event_over(event_id)
