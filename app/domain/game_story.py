"""A finished game told again from its log: each player's clock time in deployment and in
each turn, the CP after each turn, and the moment that decided the game.

Read from the game after each version of the table's log (`app.tables.replay.fold`),
with what each turn's end recorded (the kill box check and the scoring): the clock's
time used only grows while a side runs, so the time a player used in a turn is what
their clock booked while the game stood in it (an interrupt is their time in their
opponent's turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.method import Method
from app.domain.state import Game, Phase

#: The phases a game deploys in: their time is the story's turn 0.
_DEPLOYING = (Phase.PRE_DEPLOYMENT, Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT)


@dataclass(frozen=True, slots=True)
class Step:
    """The game after one row of its log, and the turn end that row recorded (if any)."""

    game: Game
    turn_end: c.TurnEnd | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One game turn (both players' turn `turn`; 0: deployment): the clock time each
    player used in it and the CP after it."""

    turn: int
    clock_ms: tuple[int, int]
    control_points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Decided:
    """What decided the game, and when: in `side`'s turn `turn` (turn 0: deployment).
    `kill_box`: the turn end that ended it gave the kill box's CP; `scoring`: it was
    scored."""

    method: Method
    winner: Side | None
    turn: int
    side: Side | None
    kill_box: bool = False
    scoring: bool = False


@dataclass(frozen=True, slots=True)
class Story:
    names: tuple[str, str]
    turns: tuple[Turn, ...]
    decided: Decided | None


def _turn_of(game: Game) -> int | None:
    """The story's turn a game stands in (None: before the clock, or over)."""
    if game.phase in _DEPLOYING:
        return 0
    if game.phase in (Phase.TURN, Phase.CLOCK_OUT):
        return game.turn
    return None


def game_story(steps: Sequence[Step]) -> Story:
    """The story of a game from its first state (`steps[0]`) through each row's."""
    if not steps:
        raise ValueError("a story needs the game as it started")
    used: dict[int, list[int]] = {}
    cp: dict[int, tuple[int, int]] = {}
    last: int | None = None
    decided: Decided | None = None
    for before, after in pairwise(steps):
        at = _turn_of(before.game)
        last = at if at is not None else last
        if last is None:
            continue
        booked = used.setdefault(last, [0, 0])
        for side in Side:
            booked[side] += after.game.clock.used_ms[side] - before.game.clock.used_ms[side]
        cp[last] = after.game.control_points if last else (0, 0)
        if after.game.ending is not None and before.game.ending is None:
            decided = _decided(before.game, after, last)
    final = steps[-1].game
    if decided is not None:
        decided = _settled(decided, final)
    turns = tuple(
        Turn(turn, (max(0, ms[0]), max(0, ms[1])), cp[turn]) for turn, ms in sorted(used.items())
    )
    return Story(names=final.names, turns=turns, decided=decided)


def _decided(before: Game, after: Step, turn: int) -> Decided:
    """The ending one row made, in the turn the game stood in."""
    ending = after.game.ending
    assert ending is not None
    end = after.turn_end
    by_scenario = ending.method is Method.SCENARIO
    in_turn = before.phase in (Phase.TURN, Phase.CLOCK_OUT)
    return Decided(
        method=ending.method,
        winner=ending.winner,
        turn=turn,
        side=before.active if in_turn else None,
        kill_box=by_scenario and end is not None and bool(end.kill_box),
        scoring=by_scenario and end is not None and end.scoring is not None,
    )


def _settled(decided: Decided, final: Game) -> Decided:
    """The result as it stands at the end of the log: tiebreakers, the EO's entry."""
    result = final.result()
    if result is None:
        return decided
    if result.method is decided.method and result.winner is decided.winner:
        return decided
    return Decided(
        method=result.method,
        winner=result.winner,
        turn=decided.turn,
        side=decided.side,
        kill_box=decided.kill_box and result.method is Method.SCENARIO,
        scoring=decided.scoring and result.method is Method.SCENARIO,
    )
