"""A 12-player Runewars event through the EventService, its state stored: 3 Swiss rounds,
a top 4 cut, two elimination rounds, one drop after the cut, and the service restarted
on the same database in the middle (RP6, ST5, DC11)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import DEPLOYMENTS, OBJECTIVES
from app.domain.runewars.state import Phase, RwGame
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.tournaments import Policy as RunewarsTournament
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from tests.service.test_runewars_event import play, score


class Running:
    """One service process over a database (started again to simulate a restart)."""

    def __init__(self, db: Path, time: FakeTime, seed: int) -> None:
        self.store = Store(f"sqlite:///{db}")
        self.hub = TableHub(self.store, time, random.Random(seed))
        self.hub.load()
        self.service = EventService(self.store, self.hub, time, random.Random(seed))

    def policy(self, event_id: str) -> RunewarsTournament:
        policy = self.service.tournaments.of_event(event_id)
        assert policy is not None
        return policy

    async def stop(self) -> None:
        await self.service.close()
        await self.hub.close()
        self.store.close()


async def play_round(run: Running, eid: str, time: FakeTime, rng: random.Random) -> None:
    policy = run.policy(eid)
    await policy.start_round(eid)
    rooms = policy.live(eid).rooms()
    for n, room in enumerate(rooms):
        await play(room, time, rng, to_time=n == 0)
    await policy.call_time(eid)
    late = rooms[0]
    assert isinstance(late.game, RwGame) and late.game.phase is Phase.PLAYING
    await late.apply(late.game.first, "phone", 99, rc.EndGameRound(late.game.game_round))
    await score(late, rng)
    assert policy.collect(eid) == len(rooms)


async def test_runewars_event_stored_through_a_restart__RP6_ST5_DC11(tmp_path: Path) -> None:
    db, time, rng = tmp_path / "rw.db", FakeTime(), random.Random(2017)
    run = Running(db, time, 5)
    event = run.service.registration.create_event(
        EventSpec("Regional", format_id="runewars2017", fixed_rounds=3, cut_to_top=4)
    )
    eid = event.id
    policy = run.policy(eid)
    with pytest.raises(BadInput, match="200"):
        policy.register(eid, "Too Big", 201)
    ids = [policy.register(eid, f"Player {n:02}", 176 + 2 * n) for n in range(12)]
    assert len(set(ids)) == 12 and {p.army_value for p in policy.live(eid).state.players} == {
        176 + 2 * n for n in range(12)
    }
    with pytest.raises(BadInput, match="already registered"):
        policy.register(eid, "player 03", 180)
    draws = {p.id: p.draw for p in policy.live(eid).state.players}

    for number in (1, 2):
        assert policy.pair_next(eid) == number
        await play_round(run, eid, time, rng)
    # Round 3 is paired and its timers run when the service stops.
    assert policy.pair_next(eid) == 3
    await policy.start_round(eid)
    before = policy.view(eid)
    await run.stop()

    run = Running(db, time, 99)  # a new process on the same database
    policy = run.policy(eid)
    again = policy.live(eid)
    assert policy.view(eid) == before  # players, rounds, pairings, standings: all kept
    assert {p.id: p.draw for p in again.state.players} == draws  # ST5: the draw fixed once
    assert len(again.rooms()) == 6 and all(
        isinstance(r.game, RwGame) and r.game.started_ms is not None for r in again.rooms()
    )
    rooms = again.rooms()
    for room in rooms:
        await play(room, time, rng, to_time=False)
    assert policy.collect(eid) == 6
    swiss = policy.live(eid).state.rounds
    assert sorted(r.deployment for r in swiss) == sorted(DEPLOYMENTS)
    assert sorted(r.objective for r in swiss) == sorted(OBJECTIVES)
    for player in policy.live(eid).state.players:
        assert len(set(player.opponents())) == 3  # RP6: no rematch in the Swiss stage

    standings = policy.standings(eid)
    tps = [(s.tp, s.mov) for s in standings]
    assert tps == sorted(tps, reverse=True)  # ST5: TP, then cumulative MoV
    assert policy.standings_csv(eid).splitlines()[0] == "rank,name,tp,mov,sos,dropped,status"
    ranked = [s.player_id for s in standings]

    assert policy.make_cut(eid) == ranked[:4]
    # RP6: the third seed drops after the cut, before the top 4 plays: the fifth comes in.
    await policy.drop(eid, ranked[2])
    state = policy.live(eid).state
    assert state.player(ranked[2]).dropped
    assert list(state.cut_to) == [ranked[0], ranked[1], ranked[3], ranked[4]]

    assert policy.pair_next(eid) == 4
    semis = policy.live(eid).state.rounds[-1]
    assert semis.minutes == 90  # RP6: seeded 1 v lowest
    assert [(m.a, m.b) for m in semis.matches] == [(ranked[0], ranked[4]), (ranked[1], ranked[3])]
    await policy.start_round(eid)
    for room in policy.live(eid).rooms():
        if isinstance(room.game, RwGame) and room.game.phase is not Phase.OVER:
            await play(room, time, rng, to_time=False)
    policy.collect(eid)
    assert policy.live(eid).state.current.complete  # type: ignore[union-attr]

    assert policy.pair_next(eid) == 5
    final = policy.live(eid)
    assert final.state.current is not None and final.state.current.minutes == 140
    await policy.start_round(eid)
    (room,) = final.rooms()
    await play(room, time, rng, to_time=False)
    view = policy.view(eid)
    assert view["over"] and view["winner"] is not None
    with pytest.raises(RuleError, match="over"):
        policy.pair_next(eid)
    actions = [a.action for a in run.service.book.actions(eid)]
    assert actions.count("pair_round") == 5 and "drop" in actions
    assert json.loads(run.service.book.actions(eid)[0].detail_json)["name"] == "Player 00"
    await run.stop()
