"""Advanced-structure Runewars events through the event service, their state stored,
time the injected fake clock (RP6, ST5, DC11, RP7; the regulations' "Tournament
Structures", "Pairings", "Progression Cut" and "Lost and Damaged Components").

The Advanced table gives 9-28 registered players 3 Swiss rounds and no cut, so the
12-player event has no cut: it runs a drop, a bye, one table's time extension and a
rejoin with its unpaired loss. The cut is run by a 29-player event (4 Swiss rounds and a
top 2 cut): the first-ranked player drops after the cut, before its game, and the next
ranked player comes into the cut as its lowest."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import FINAL_MINUTES, ROUND_MINUTES, Stage
from app.domain.runewars.standings import Played
from app.domain.runewars.state import EndedBy, Phase, RwGame
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.tournaments import Policy
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

MINUTE = 60_000


def _policy(service: EventService, eid: str) -> Policy:
    policy = service.tournaments.of_event(eid)
    assert policy is not None
    return policy


def _game(room: TableRoom) -> RwGame:
    assert isinstance(room.game, RwGame)
    return room.game


async def _set_up(room: TableRoom) -> None:
    """Setup steps 2 and 3: the chooser goes first, the second player takes blue."""
    game = _game(room)
    await room.apply(game.chooser, "phone", 1, rc.ChooseFirstPlayer(game.chooser))
    await room.apply(game.chooser.other, "phone", 2, rc.ChooseArea("blue"))


async def _scores(room: TableRoom, rng: random.Random) -> None:
    """Each player enters their own score, then both confirm (TS11)."""
    for n, side in enumerate((Side.P1, Side.P2)):
        army = _game(room).setup.army_values[side.other]
        entry = rc.EnterScore(rng.randrange(army + 1), rng.choice((0, 10, 20)))
        await room.apply(side, "phone", 10 + n, entry)
    if _game(room).phase is Phase.FINAL_FLURRY:
        await room.apply(Side.P1, "phone", 20, rc.FlurryHits(4))
        await room.apply(Side.P2, "phone", 21, rc.FlurryHits(1))
    for n, side in enumerate((Side.P1, Side.P2)):
        await room.apply(side, "phone", 30 + n, rc.ConfirmResult())
    assert _game(room).settled


async def _defeat(room: TableRoom, rng: random.Random) -> None:
    """A game that ends when one side's last unit falls (TS11): a random loser."""
    await _set_up(room)
    loser = rng.choice((Side.P1, Side.P2))
    await room.apply(loser, "phone", 3, rc.ArmyDestroyed(loser))
    await _scores(room, rng)


async def _round(policy: Policy, eid: str, rng: random.Random) -> list[TableRoom]:
    """The next round paired, started and every table played to a defeat."""
    policy.pair_next(eid)
    await policy.start_round(eid)
    rooms = sorted(policy.live(eid).rooms(), key=lambda r: r.meta.table_no if r.meta else 0)
    for room in rooms:
        await _defeat(room, rng)
    assert policy.collect(eid) == len(rooms)
    return rooms


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def _tp_by_hand(policy: Policy, eid: str) -> dict[str, tuple[int, int]]:
    """ST5 counted from the rounds' results: each player's TP and MoV (a bye 8 and 70,
    an unpaired loss 0 and 0: nothing)."""
    state = policy.live(eid).state
    out = {p.id: (0, 0) for p in state.players}
    for play in state.rounds:
        for m in play.matches:
            result = play.results[m.game]
            for n, who in enumerate((m.a, m.b)):
                if who is not None:
                    tp, mov = out[who]
                    out[who] = (tp + result.tp[n], mov + result.mov[n])
    return out


async def test_twelve_players_advanced_three_rounds_no_cut__RP6_ST5_DC11_RP7(
    service: EventService,
) -> None:
    time, rng = service.time, random.Random(12)
    assert isinstance(time, FakeTime)
    spec = EventSpec("Regional", format_id="runewars2017", structure="advanced")
    eid = service.registration.create_event(spec).id
    policy = _policy(service, eid)
    ids = [policy.register(eid, f"Player {n:02}", 176 + 2 * n) for n in range(12)]
    assert policy.view(eid)["plan"]["by_attendance"] == "advanced"

    # RP6: 12 registered players, the Advanced table: 3 Swiss rounds and no cut.
    await _round(policy, eid, rng)
    assert policy.view(eid)["plan"] == {"swiss_rounds": 3, "cut": 0, "by_attendance": None}
    with pytest.raises(RuleError, match="no cut"):
        policy.make_cut(eid)

    # Pairings: a player drops after round 1; 11 play round 2, one has the bye.
    gone = ids[5]
    await policy.drop(eid, gone)
    policy.pair_next(eid)
    play_2 = policy.live(eid).state.rounds[1]
    assert play_2.match_of(gone) is None
    (bye,) = [m for m in play_2.matches if m.b is None]
    await policy.start_round(eid)
    rooms = sorted(policy.live(eid).rooms(), key=lambda r: r.meta.table_no if r.meta else 0)

    # Lost and Damaged Components: table 1 gets ten minutes more to find a component.
    await policy.extend(eid, rooms[0].table_id, 10, "a lost range ruler")
    await _set_up(rooms[0])
    for room in rooms[1:]:
        await _defeat(room, rng)
    time.advance(ROUND_MINUTES * MINUTE)
    await _settle()
    assert not _game(rooms[0]).time_called  # DC11: 90 minutes are not its end
    await policy.call_time(eid)
    assert not _game(rooms[0]).time_called
    time.advance(10 * MINUTE)
    await _settle()
    assert _game(rooms[0]).time_called  # its own end: the round timer calls its time
    first = _game(rooms[0]).first
    assert first is not None
    await rooms[0].apply(first, "phone", 5, rc.EndGameRound(1))
    assert _game(rooms[0]).ended_by is EndedBy.TIME
    await _scores(rooms[0], rng)
    policy.collect(eid)
    state = policy.live(eid).state
    assert state.player(bye.a).games[-1] == Played.bye(2, Stage.SWISS)

    # RP7: the dropped player rejoins before round 3: round 2 is an unpaired loss.
    before = state.player(gone)
    assert policy.rejoin(eid, gone) == 1
    back = policy.live(eid).state.player(gone)
    assert back.games == (*before.games, Played.missed(2, Stage.SWISS)) and not back.dropped
    await _round(policy, eid, rng)
    state = policy.live(eid).state
    assert state.rounds[2].match_of(gone) is not None and len(state.player(gone).games) == 3

    # ST5: the event is over after 3 rounds; the standings are the results' own count.
    assert state.over and state.winner == policy.standings(eid)[0].player_id
    by_hand = _tp_by_hand(policy, eid)
    assert {s.player_id: (s.tp, s.mov) for s in policy.standings(eid)} == by_hand
    with pytest.raises(RuleError):
        policy.pair_next(eid)


async def test_twenty_nine_players_advanced_cut_and_a_drop_after_it__RP6_ST5_DC11_RP7(
    service: EventService,
) -> None:
    rng = random.Random(29)
    spec = EventSpec("Big Regional", format_id="runewars2017", structure="advanced")
    eid = service.registration.create_event(spec).id
    policy = _policy(service, eid)
    for n in range(29):
        policy.register(eid, f"Player {n:02}", 170 + n)

    # RP6: 29 players, Advanced: 4 Swiss rounds, then a cut to the top 2.
    for number in range(1, 5):
        await _round(policy, eid, rng)
        plan = policy.view(eid)["plan"]
        assert (plan["swiss_rounds"], plan["cut"], len(policy.view(eid)["rounds"])) == (
            4,
            2,
            number,
        )
        assert sum(m.b is None for m in policy.live(eid).state.rounds[-1].matches) == 1
    ranked = [s.player_id for s in policy.standings(eid)]
    assert policy.make_cut(eid) == ranked[:2]

    # Progression Cut: the first-ranked drops before any game of the elimination; the
    # next-ranked player comes in as the lowest of the cut, the second moves up.
    await policy.drop(eid, ranked[0])
    assert policy.live(eid).state.cut_to == (ranked[1], ranked[2])
    with pytest.raises(RuleError, match="the cut is made"):
        policy.rejoin(eid, ranked[0])  # RP7: after the cut only its players play on

    # The final: 1 v the lowest, on the final round's 140 minutes (DC11).
    policy.pair_next(eid)
    final = policy.live(eid).state.rounds[-1]
    assert final.stage is Stage.ELIMINATION and final.minutes == FINAL_MINUTES
    assert [(m.a, m.b) for m in final.matches] == [(ranked[1], ranked[2])]
    await policy.start_round(eid)
    (room,) = policy.live(eid).rooms()
    started = _game(room).started_ms
    assert started is not None and _game(room).ends_ms() == started + FINAL_MINUTES * MINUTE
    await _defeat(room, rng)
    policy.collect(eid)
    state = policy.live(eid).state
    assert state.over and state.winner == state.rounds[-1].winners()[0]
    assert state.winner in (ranked[1], ranked[2])
