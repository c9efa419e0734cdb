"""Playing the game: the clock started (DC3), taps and turn ends (TS1-TS5),
interrupts (DC6); each tap keeps the game before it for an undo (`undo`)."""

from __future__ import annotations

from collections.abc import Mapping

from app.domain import commands as c
from app.domain.clock import Side, update
from app.domain.errors import BadInput, NotYourSeat, RuleError, StaleCommand
from app.domain.frozen import replace
from app.domain.pregame import STEP_WORDS
from app.domain.state import (
    Game,
    Method,
    Phase,
    Undo,
    earned,
    end_by_victory_conditions,
    end_game,
    in_play,
    score,
    seat_of,
)


def start(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """The first player (or the EO, `who_may_act`) starts the first player's clock."""
    if game.phase is not Phase.READY:
        raise RuleError("the clock is already started")
    if game.in_pregame and actor is not c.Role.EO:  # the EO may start a stuck table
        assert game.pregame is not None
        raise RuleError(f"the pre-game comes first: {STEP_WORDS[game.pregame.step]}")
    first = Phase(game.format.deployment[0])
    return replace(game, phase=first, active=Side.P1, clock=game.clock.run(Side.P1, now_ms))


def pass_turn(game: Game, actor: c.Actor, cmd: c.PassTurn, now_ms: int) -> Game:
    """A tap of the active player (`who_may_act`) ends their deployment step or turn."""
    seat_of(actor)
    in_play(game)
    names = game.names
    if game.interrupted:
        raise RuleError(
            f"{names[game.active.other]}'s clock runs for an interrupt: switch back first"
        )
    if cmd.expect is not game.active:
        raise StaleCommand(
            f"{names[game.active]}'s clock is running, not {names[cmd.expect]}'s: tap ignored"
        )
    game = replace(game, undo=None, undo_outcome=None)  # a new tap: the last undo is past
    undo = Undo(tap_at_ms=now_ms, before=game)
    if game.phase is Phase.TURN:
        return _end_turn(game, cmd.turn_end, now_ms, undo)
    if cmd.turn_end is not None and (
        cmd.turn_end.kill_box is not None or cmd.turn_end.scoring is not None
    ):
        raise BadInput("nothing is scored during deployment")
    phase: Phase = game.phase
    turn = game.turn
    steps = game.deployment_steps
    if game.active is Side.P1:
        nxt = Side.P2
    elif steps.index(game.phase) + 1 < len(steps):
        phase, nxt = Phase(steps[steps.index(game.phase) + 1]), Side.P1
    else:
        phase, nxt, turn = Phase.TURN, Side.P1, 1
    clock = game.clock.run(nxt, now_ms)
    return replace(game, phase=phase, active=nxt, turn=turn, clock=clock, undo=undo)


def _end_turn(game: Game, turn_end: c.TurnEnd | None, now_ms: int, undo: Undo) -> Game:
    """The end of the active player's turn (TS1–TS4); `undo` takes the tap back."""
    turn_end = turn_end or c.TurnEnd()
    who = game.active
    kill_box_due, scoring_due, last_turn = game.turn_end_due
    check_answers(game, who, (kill_box_due, scoring_due), turn_end, game.turn_words(game.mark))
    cp, destroyed, tally = turn_end_points(game, who, turn_end)
    winner = game.scenario_winner(cp, turn_end.scoring)
    rules = game.format
    cp = rules.cap_cp(rules, cp)
    scored = {"control_points": cp, "objectives_destroyed": destroyed, "earned": tally}
    if winner is not None or last_turn:
        ended = replace(game, undo=undo, **scored)
        if winner is not None:
            return end_game(ended, Method.SCENARIO, winner, now_ms)
        return end_by_victory_conditions(ended, now_ms)
    nxt = who.other
    turn = game.turn + 1 if nxt is Side.P1 else game.turn
    clock = game.clock.run(nxt, now_ms)
    rule = game.scenario.turn_end
    if rule is None:  # the turn passes in one step
        return replace(game, undo=undo, active=nxt, turn=turn, clock=clock, **scored)
    ended = rule(replace(game, undo=undo, **scored))
    return replace(ended, active=nxt, turn=turn, clock=clock)


def check_answers(
    game: Game, who: Side, due: tuple[bool, bool], turn_end: c.TurnEnd, what: str
) -> None:
    """TS2, TS3: a turn end of `who`'s answers the kill box and the scoring where they are
    `due` (kill box, scoring), and only there; `what` names the state scored."""
    kill_box_due, scoring_due = due
    if kill_box_due and turn_end.kill_box is None:
        question = game.format.kill_box.question
        raise BadInput("kill box: " + question.format(whose=f"{game.names[who]}'s", their="their"))
    if not kill_box_due and turn_end.kill_box:
        raise BadInput(_kill_box_not_due(game))
    if scoring_due and turn_end.scoring is None:
        raise BadInput(f"score the end of {what} first")
    if not scoring_due and turn_end.scoring is not None:
        raise BadInput(_scoring_not_due(game))


def turn_end_points(
    game: Game, who: Side, turn_end: c.TurnEnd
) -> tuple[tuple[int, int], frozenset[str], Mapping[str, tuple[int, int]]]:
    """The CP after a turn end of `who`'s, in the rules' order: the scoring sheet (TS2),
    then the kill box's CP to the opponent at once (TS3); not yet capped. With them, the
    objectives destroyed and the CP earned from each element."""
    cp, destroyed, tally = game.control_points, game.objectives_destroyed, game.earned
    if turn_end.scoring is not None:
        cp, destroyed = score(game, turn_end.scoring)
        tally = earned(game, turn_end.scoring)
    if turn_end.kill_box:
        cp = update(cp, who.other, lambda points: points + game.format.kill_box.cp)
    return cp, destroyed, tally


def _scoring_not_due(game: Game) -> str:
    if not game.scenario.scored:
        return f"{game.scenario.name} is won by assassination only: nothing is scored"
    start = game.scoring_from
    return f"scoring starts at the end of {game.turn_words(start)}"


def _kill_box_not_due(game: Game) -> str:
    if not game.scenario.kill_box:
        return f"{game.scenario.name} has no kill box"
    start = game.format.kill_box.start
    if game.phase is Phase.OVER and start.reached_by(game.turn, game.active):
        return "the kill box is checked at the end of a turn: this game did not end at one"
    return f"the kill box is checked from the end of {game.turn_words(start)}"


def switch(game: Game, actor: c.Actor, cmd: c.SwitchClock, now_ms: int) -> Game:
    seat = seat_of(actor)
    in_play(game)
    if game.phase is not Phase.TURN:
        raise RuleError("the clock is switched for interrupts only during a turn")
    inactive = game.active.other
    if cmd.to is inactive:
        if game.interrupted:
            raise StaleCommand(f"{game.names[inactive]}'s clock already runs for the interrupt")
        if seat is not game.active:
            raise NotYourSeat(
                "it is your opponent's turn: only they may switch the clock to you for an interrupt"
            )
        return replace(game, interrupted=True, clock=game.clock.run(inactive, now_ms), undo=None)
    if not game.interrupted:
        raise StaleCommand(f"{game.names[game.active]}'s clock is already running")
    return replace(game, interrupted=False, clock=game.clock.run(game.active, now_ms), undo=None)
