"""The pre-game's commands on a game: before the clock starts, with the ruleset's steps."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from app.domain import commands as c
from app.domain import pregame as p
from app.domain import specialist_step
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.scenarios import ElementKind
from app.domain.state import Game, Phase, seat_of

C = TypeVar("C")


def open_pregame(game: Game, _actor: c.Actor, cmd: c.OpenPregame, _now_ms: int) -> Game:
    """The EO (at the round's start) or the table's creator opens the pre-game; no player
    does (`who_may_act`)."""
    if game.pregame is not None:
        raise RuleError("the pre-game has already begun")
    if game.phase is not Phase.READY:
        raise RuleError("the clock has started: the pre-game is over")
    rules = game.format
    steps = _steps(rules.pregame, cmd.steps)
    # Only scenarios with objectives have the players choose one.
    needed = any(e.kind is ElementKind.OBJECTIVE for e in game.scenario.elements)
    objectives = rules.objectives if needed and p.Step.OBJECTIVES in steps else ()
    return replace(game, pregame=p.open_pregame(steps, objectives, cmd))


def _steps(format_steps: tuple[str, ...], wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The format's steps the pre-game has, in the format's order (none named: all)."""
    if not wanted:
        return format_steps
    unknown = set(wanted) - set(format_steps)
    if unknown:
        raise BadInput("no such pre-game step: " + ", ".join(sorted(unknown)))
    if p.Step.ORDER in wanted and p.Step.ROLL not in wanted:
        raise BadInput("the choice of who goes first needs the starting roll before it")
    return tuple(step for step in format_steps if step in wanted)


def _step(rule: Callable[[p.Pregame, object, C], p.Pregame]) -> Callable[..., Game]:
    def apply(game: Game, actor: c.Actor, cmd: C, _now_ms: int) -> Game:
        side = seat_of(actor)
        if game.pregame is None:
            raise RuleError("this table has no pre-game: the first player starts the clock")
        if game.phase is not Phase.READY:
            raise RuleError("the clock has started: the pre-game is over")
        if game.paused:
            raise RuleError("the EO has paused this table; wait for the EO to resume")
        return replace(game, pregame=rule(game.pregame, side, cmd))

    return apply


choose_list = _step(p.choose_list)  # type: ignore[arg-type]
choose_objective = _step(p.choose_objective)  # type: ignore[arg-type]


def choose_specialists(game: Game, actor: c.Actor, cmd: c.ChooseSpecialists, now_ms: int) -> Game:
    """A player's specialist substitution, checked legal by the event's list rules."""
    check = partial(specialist_step.check, game, cmd)
    return _step(partial(p.choose_specialists, check=check))(game, actor, cmd, now_ms)


roll = _step(p.roll)  # type: ignore[arg-type]
choose_order = _step(p.choose_order)  # type: ignore[arg-type]
choose_edge = _step(p.choose_edge)  # type: ignore[arg-type]
