"""Property tests: whatever the table does, the Deathclock's books balance.

Random sequences of taps (right and stale), interrupt switches, EO pauses and
resumes, undo proposals and answers, flag checks and plain waiting are applied
with `apply`; refused commands must raise a RuleError and change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.game import Game, Method, Phase, apply, new_game

from .helpers import EO, P1, P2, SYSTEM, default_turn_end, setup

START_MS = 1_000_000  # the table is created here; "elapsed" is measured from it

actors = st.sampled_from([P1, P2, EO])
seats = st.sampled_from([P1, P2])


@dataclass(frozen=True)
class Tap:
    right: bool  # expect the side that is running (False: a stale double tap)
    by: Side | None  # None: the active player (a seat is refused in the opponent's turn)
    kill_box: bool  # the answer when the kill box is asked


@dataclass(frozen=True)
class Switch:
    to: Side
    by: Side


@dataclass(frozen=True)
class Interrupt:
    """The active player switches the clock to the opponent (resolved at run time)."""


@dataclass(frozen=True)
class SwitchBack:
    by: Side


@dataclass(frozen=True)
class Pause:
    by: c.Actor


@dataclass(frozen=True)
class Resume:
    by: c.Actor


@dataclass(frozen=True)
class Propose:
    by: Side


@dataclass(frozen=True)
class Answer:
    by: Side
    accept: bool


@dataclass(frozen=True)
class Flag:
    pass


@dataclass(frozen=True)
class Wait:
    pass


Op = Tap | Switch | Interrupt | SwitchBack | Pause | Resume | Propose | Answer | Flag | Wait

taps = st.builds(
    Tap,
    right=st.sampled_from([True, True, True, False]),
    by=st.sampled_from([None, None, None, P1, P2]),
    kill_box=st.sampled_from([False, False, True]),
)
#: how often each kind of op is drawn (taps most, so that games get into their turns)
OP_WEIGHTS = {
    "tap": 8,
    "switch": 3,
    "pause": 1,
    "resume": 1,
    "propose": 2,
    "answer": 2,
    "flag": 1,
    "wait": 1,
}
op_by_kind = {
    "tap": taps,
    "switch": st.builds(Switch, to=seats, by=seats),
    "pause": st.builds(Pause, by=actors),
    "resume": st.builds(Resume, by=actors),
    "propose": st.builds(Propose, by=seats),
    "answer": st.builds(Answer, by=seats, accept=st.sampled_from([True, True, False])),
    "flag": st.just(Flag()),
    "wait": st.just(Wait()),
}
ops = st.sampled_from([k for k, n in OP_WEIGHTS.items() for _ in range(n)]).flatmap(
    op_by_kind.__getitem__
)
gaps = st.one_of(
    st.just(0), st.integers(1, 3_000), st.integers(3_000, 15_000), st.integers(15_000, 60_000)
)
short_gaps = st.integers(0, 6_000)
single = st.tuples(gaps, ops).map(lambda step: [step])
#: a tap, then an undo proposed and answered soon after (not always by the right seat)
often = st.sampled_from([True, True, True, False])
undo_round = st.tuples(gaps, taps, short_gaps, seats, short_gaps, often, often).map(
    lambda t: [
        (t[0], t[1]),
        (t[2], Propose(t[3])),
        (t[4], Answer(t[3].other if t[5] else t[3], t[6])),
    ]
)
#: the EO pauses a table for a rules call and resumes it later
rules_call = st.tuples(gaps, gaps).map(lambda t: [(t[0], Pause(EO)), (t[1], Resume(EO))])
#: an interrupt (DC6), sometimes long enough for the opponent's clock to run out
interrupt = st.tuples(gaps, gaps | st.integers(60_000, 600_000), seats).map(
    lambda t: [(t[0], Interrupt()), (t[1], SwitchBack(t[2]))]
)
chunks = st.one_of(single, single, single, undo_round, rules_call, interrupt)
steps = st.lists(chunks, min_size=3, max_size=40).map(
    lambda parts: [step for part in parts for step in part]
)
#: quiet taps played before the random script, so that every phase gets visited
warm_up = st.sampled_from(range(18)).flatmap(
    lambda n: st.lists(st.integers(0, 20_000), min_size=n, max_size=n)
)
#: mostly 30 s to 15 min (short enough to run out), sometimes a few seconds
player_clocks = st.tuples(st.sampled_from(range(10)), st.integers(0, 89_999)).map(
    lambda t: 1 + t[1] // 3 if t[0] == 0 else t[0] * 90_000 + t[1] - 60_000
)


def command_for(op: Op, game: Game) -> tuple[c.Actor, c.Command] | None:
    match op:
        case Tap(right=right, by=by, kill_box=kill_box):
            expect = game.active if right else game.active.other
            turn_end = default_turn_end(game)
            if turn_end is not None and game.kill_box_due:
                turn_end = c.TurnEnd(kill_box=kill_box, scoring=turn_end.scoring)
            return by or game.active, c.PassTurn(expect=expect, turn_end=turn_end)
        case Switch(to=to, by=by):
            return by, c.SwitchClock(to=to)
        case Interrupt():
            return game.active, c.SwitchClock(to=game.active.other)
        case SwitchBack(by=by):
            return by, c.SwitchClock(to=game.active)
        case Pause(by=by):
            return by, c.PauseClock()
        case Resume(by=by):
            return by, c.ResumeClock()
        case Propose(by=by):
            return by, c.ProposeUndo()
        case Answer(by=by, accept=accept):
            return by, c.AnswerUndo(accept=accept)
        case Flag():
            return SYSTEM, c.FlagCheck()
    return None


def check_books(game: Game, each: int, now: int) -> None:
    """Time used by both players plus stopped time is the time elapsed."""
    clock = game.clock
    assert clock.since_ms <= now
    settled = clock.settle(now)
    assert settled.used_ms[0] + settled.used_ms[1] + settled.idle_ms == now - START_MS
    for side in Side:
        assert clock.remaining_ms[side] >= 0
        assert clock.used_ms[side] >= 0
        assert game.remaining(side, now) >= 0
        assert clock.remaining_ms[side] + clock.used_ms[side] == each
        assert game.remaining(side, now) + settled.used_ms[side] == each
    assert clock.idle_ms >= 0


def check_state(game: Game) -> None:
    """Which clock runs follows from the phase, the pause and the interrupt."""
    running = game.clock.running
    if game.paused:
        assert running is None
        assert game.paused_by_eo
    elif game.phase in (Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT, Phase.TURN):
        assert running is (game.active.other if game.interrupted else game.active)
    else:
        assert running is None
    if game.interrupted:
        assert game.phase is Phase.TURN


def check_flag(prev: Game, game: Game, source: Game, now: int, applied: bool) -> None:
    """A flag happens at most once, exactly when the running side reaches zero.

    `source` is the game whose clock was in force (the pre-tap game for an
    accepted undo).
    """
    if prev.flagged is not None and game.flagged is not prev.flagged:
        # only a concession clears a flag, and there is none here
        raise AssertionError(f"the flag changed from {prev.flagged} to {game.flagged}")
    if prev.flagged is None and game.flagged is not None:
        side = game.flagged
        flag_at = source.clock.flag_at()
        assert flag_at is not None and flag_at <= now
        assert source.clock.running is side
        assert game.clock.running is None
        assert game.clock.remaining_ms[side] == 0
        assert game.remaining(side, now) == 0
        if game.phase is Phase.CLOCK_OUT:
            assert game.clock.since_ms == flag_at
            assert game.ending is None
        else:
            assert game.phase is Phase.OVER
            assert game.ending is not None
            assert (game.ending.method, game.ending.winner) == (Method.CLOCK, side.other)
            assert game.ending.at_ms == flag_at
            assert not game.casters[side]
    if game.flagged is None and applied:
        # every applied command decides a due flag first: nobody unflagged sits at zero
        for side in Side:
            assert game.remaining(side, now) > 0


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(each=player_clocks, before_start=gaps, quiet_taps=warm_up, script=steps)
def test_clock_books_balance_and_flags_are_exact(
    each: int, before_start: int, quiet_taps: list[int], script: list[tuple[int, Op]]
) -> None:
    game = new_game(setup(player_clock_ms=each), START_MS)
    now = START_MS + before_start
    check_books(game, each, now)
    game = apply(game, P1, c.StartClock(), now)
    check_books(game, each, now)
    flags_seen = 0

    right_tap = Tap(right=True, by=None, kill_box=False)
    for gap, op in [(gap, right_tap) for gap in quiet_taps] + script:
        now += gap
        prev = game
        request = command_for(op, prev)
        applied = False
        source = prev
        if request is not None:
            actor, command = request
            if isinstance(command, c.AnswerUndo) and command.accept and prev.undo is not None:
                source = prev.undo.before
            try:
                game = apply(prev, actor, command, now)
            except RuleError:
                assert game is prev  # a refused command changes nothing
                source = prev
                # the server's timer still decides a flag that is due (the room does this)
                game = apply(prev, SYSTEM, c.FlagCheck(), now)
            applied = True
        check_books(game, each, now)
        check_state(game)
        check_flag(prev, game, source, now, applied)
        if prev.flagged is None and game.flagged is not None:
            flags_seen += 1
            event(f"flag in {game.phase.value}{', interrupted' if prev.interrupted else ''}")
        if applied and source is not prev:
            event("undo accepted")
        if applied and game.paused and not prev.paused:
            event("paused")
    event(f"ended in {game.phase.value}, turn {min(game.turn, 3)}+")
    assert flags_seen <= 1
