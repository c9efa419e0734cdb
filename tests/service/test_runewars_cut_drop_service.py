"""RP6 through the event service: "If a player qualified for a standings-based cut drops
from the tournament before any games are played during the next stage of the
tournament, the next highest ranking player should be added to the cut as the lowest
ranked player in the cut ... Then the organizer pairs all four players based on these
new rankings" (runewars-tournament-regulations-2017.txt). Once the cut's round has
started, a drop gives the opponent a bye instead."""

from __future__ import annotations

from app.domain.runewars.rules import Stage
from app.domain.runewars.state import RwGame
from app.events.base import EventSpec
from app.events.service import EventService
from tests.service.test_runewars_cut_winner_service import _policy, _round, _swiss


async def test_a_cut_player_dropping_before_the_cut_plays_is_replaced__RP6(
    service: EventService,
) -> None:
    eid = service.registration.create_event(
        EventSpec("RW Drop", format_id="runewars2017", fixed_rounds=1, cut_to_top=2)
    ).id
    policy = _policy(service, eid)
    ids = {name: policy.register(eid, name, 190) for name in ("Ann", "Bob", "Cal", "Dee")}
    await _round(service, policy, eid, _swiss)
    first, second, third = [s.player_id for s in policy.standings(eid)][:3]

    policy.pair_next(eid)  # the final: first against second, on a table not started
    before = policy.live(eid)
    old_tables = {room.table_id for room in before.rooms()}
    assert before.state.cut_to == (first, second)

    await policy.drop(eid, second)
    live = policy.live(eid)
    play = live.state.current
    assert play is not None and play.stage is Stage.ELIMINATION and not play.results
    assert live.state.cut_to == (first, third)  # the next-ranked comes in as the lowest
    assert [(m.a, m.b) for m in play.matches] == [(first, third)]
    rooms = live.rooms()
    assert len(rooms) == 1 and rooms[0].table_id not in old_tables
    assert all(service.hub.get(t) is None for t in old_tables)  # the old table is gone
    game = rooms[0].game
    assert isinstance(game, RwGame)
    names = {pid: name for name, pid in ids.items()}
    assert set(game.setup.names) == {names[first], names[third]}

    # Started: a drop now gives the opponent a bye (the stage has begun).
    await policy.start_round(eid)
    await policy.drop(eid, third)
    play = policy.live(eid).state.current
    assert play is not None and play.results[1].winner == first
    assert policy.live(eid).state.cut_to == (first, third)
