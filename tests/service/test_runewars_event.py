"""A 12-player Runewars event over live tables in the table service: 3 Swiss rounds, a
top 4 cut, two elimination rounds, one drop after the cut (RP6, ST5, DC11, TS11)."""

from __future__ import annotations

import random
from pathlib import Path

from app.domain.clock import Side
from app.domain.runewars import commands as rc
from app.domain.runewars.event import make_cut
from app.domain.runewars.rules import DEPLOYMENTS, OBJECTIVES, Stage, Structure, plan_for
from app.domain.runewars.state import Phase, RwGame
from app.events.runewars import RunewarsEvent
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

MINUTE = 60_000


async def play(room: TableRoom, time: FakeTime, rng: random.Random, *, to_time: bool) -> None:
    """Both phones play the table: setup, game rounds until the end (or time), scores."""
    game = room.game
    assert isinstance(game, RwGame)
    await room.apply(game.chooser, "phone", 1, rc.ChooseFirstPlayer(game.chooser))
    game = room.game
    assert isinstance(game, RwGame) and game.second is not None and game.first is not None
    await room.apply(game.second, "phone", 2, rc.ChooseArea("blue"))
    first, seq = game.first, 3
    while isinstance(room.game, RwGame) and room.game.phase is Phase.PLAYING:
        time.advance(MINUTE)  # six tables of eight game rounds: within the 90 minutes
        if to_time and room.game.game_round == 3:
            return  # this table goes to time
        await room.apply(first, "phone", seq, rc.EndGameRound(room.game.game_round))
        seq += 1
    await score(room, rng)


async def score(room: TableRoom, rng: random.Random) -> None:
    game = room.game
    assert isinstance(game, RwGame)
    for n, side in enumerate((Side.P1, Side.P2)):
        army = game.setup.army_values[side.other]
        entry = rc.EnterScore(rng.randrange(army + 1), rng.choice((0, 10, 20)))
        await room.apply(side, "phone", 100 + n, entry)
    if isinstance(room.game, RwGame) and room.game.phase is Phase.FINAL_FLURRY:
        await room.apply(Side.P1, "phone", 200, rc.FlurryHits(5))
        await room.apply(Side.P2, "phone", 201, rc.FlurryHits(2))
    for n, side in enumerate((Side.P1, Side.P2)):  # both players confirm the result
        await room.apply(side, "phone", 300 + n, rc.ConfirmResult())


async def play_round(event: RunewarsEvent, time: FakeTime, rng: random.Random) -> None:
    await event.start_round()
    rooms = event.rooms()
    for n, room in enumerate(rooms):
        await play(room, time, rng, to_time=n == 0)
    # The organiser calls time: the last table finishes its game round, then scores.
    await event.call_time()
    late = rooms[0]
    assert isinstance(late.game, RwGame) and late.game.phase is Phase.PLAYING
    for other in rooms[1:]:  # every other table ended on its own, before time
        assert isinstance(other.game, RwGame) and other.game.ended_by is not None
        assert other.game.ended_by.value == "eight_rounds"
    await late.apply(late.game.first or Side.P1, "phone", 99, rc.EndGameRound(3))
    assert isinstance(late.game, RwGame) and late.game.ended_by is not None
    assert late.game.ended_by.value == "time"
    await score(late, rng)
    assert event.collect() == len(rooms)
    assert event.round_complete()


async def test_twelve_player_event_with_cut_and_drop__RP6_ST5_DC11(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rw.db'}")
    time = FakeTime()
    hub = TableHub(store, time, random.Random(11))
    rng = random.Random(2017)
    event = RunewarsEvent(
        hub,
        hub.placement,
        "Regional",
        plan_for(Structure.CUSTOM, 12, rounds=3, cut=4),
        random.Random(5),
    )
    for n in range(12):
        event.register(f"p{n:02}", f"Player {n:02}", 176 + 2 * n)

    for number in (1, 2, 3):
        play_ = event.pair_next()
        assert play_.stage is Stage.SWISS and play_.minutes == 90 and play_.number == number
        assert len(event.rooms()) == 6
        for room in event.rooms():
            assert isinstance(room.game, RwGame)
            assert room.game.setup.round_minutes == 90
            assert room.game.setup.deployment == play_.deployment
        await play_round(event, time, rng)
    swiss = event.state.rounds
    assert sorted(r.deployment for r in swiss) == sorted(DEPLOYMENTS)
    assert sorted(r.objective for r in swiss) == sorted(OBJECTIVES)
    for player in event.state.players:
        assert len(set(player.opponents())) == 3  # no rematch in the Swiss stage

    ranked = [s.player_id for s in event.standings()]
    assert event.standings_csv().splitlines()[0] == "rank,name,tp,mov,sos,dropped,status"
    # The third seed drops after the cut, before the top 4 plays: the fifth comes in.
    event.state = make_cut(event.state)
    await event.drop(ranked[2])
    assert list(event.state.cut_to) == [ranked[0], ranked[1], ranked[3], ranked[4]]

    semis = event.pair_next()
    assert semis.stage is Stage.ELIMINATION and semis.minutes == 90
    assert [(m.a, m.b) for m in semis.matches] == [(ranked[0], ranked[4]), (ranked[1], ranked[3])]
    await play_round(event, time, rng)
    finalists = event.state.rounds[-1].winners()

    final = event.pair_next()
    assert final.minutes == 140 and [(m.a, m.b) for m in final.matches] == [tuple(finalists)]
    (room,) = event.rooms()
    assert isinstance(room.game, RwGame) and room.game.setup.round_minutes == 140
    await event.start_round()
    await play(room, time, rng, to_time=False)
    assert event.collect() == 1
    assert event.state.winner in finalists and event.state.over
    assert event.state.player(ranked[2]).dropped
    await hub.close()
    store.close()
