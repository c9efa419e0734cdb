"""The event variants at the table: Classic Turn Timing (DC10) and its dice down, No
Assassination Victory and No Tiebreakers (SR2019 "Event Variants").

Who presses the turn timer is `who_may_act`'s: the active player starts and stops it and
takes the extension, the opponent starts the extension, the EO (or the server at the
round time) calls dice down."""

from __future__ import annotations

from app.domain import commands as c
from app.domain.errors import RuleError
from app.domain.frozen import replace
from app.domain.state import (
    Game,
    Method,
    Phase,
    end_by_victory_conditions,
    end_game,
    in_play,
    seat_of,
)
from app.domain.turn_timing import TurnTimer

_PLAYING = (Phase.PRE_DEPLOYMENT, Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT, Phase.TURN)


def _timer(game: Game) -> TurnTimer:
    if game.timer is None:
        raise RuleError("this game is timed by the Deathclock (chess clocks): it has no turn timer")
    return game.timer


def _playing(game: Game, actor: c.Actor) -> TurnTimer:
    seat_of(actor)
    in_play(game)
    return _timer(game)


def start_timer(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """DC10: "A player's turn time begins after the resolution of continuous effects":
    a turn's, never deployment's."""
    timer = _playing(game, actor)
    if game.phase is not Phase.TURN:
        raise RuleError("the turn timer starts at a turn, not during deployment")
    return replace(game, timer=timer.start(now_ms))


def stop_timer(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """DC10: the active player may stop the timer while the opponent acts."""
    timer = _playing(game, actor)
    return replace(game, timer=timer.stop(now_ms))


def take_extension(game: Game, actor: c.Actor, _now_ms: int) -> Game:
    """DC10: once per game, during one's own turn."""
    timer = _playing(game, actor)
    if game.phase is not Phase.TURN:
        raise RuleError("a turn extension is taken during a turn, not during deployment")
    return replace(game, timer=timer.declare_extension(game.active, game.names[game.active]))


def start_extension(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """DC10: the active player's opponent resets the clock for the extension."""
    timer = _playing(game, actor)
    return replace(game, timer=timer.start_extension(now_ms))


def dice_down(game: Game, _actor: c.Actor, now_ms: int) -> Game:
    """DC10: at the round time the EO calls dice down; the game ends."""
    timer = _timer(game)
    if not timer.timing.round_ms:
        raise RuleError("this event has no time limits: the game is played to its end")
    if game.phase not in _PLAYING:
        raise RuleError("the game is not being played: nothing to call dice down on")
    return _dice_down(game, now_ms)


def _dice_down(game: Game, at_ms: int) -> Game:
    """The game ends. "At dice down, resolve all end-of-turn effects": a turn under way
    ends as a tap would end it, its player answering the kill box (TS3) where that turn
    asks it, with one last scenario scoring once scoring has started (`ending.final_scoring`
    then decides). Without a clear winner the scenario's Victory Conditions decide it (TS4:
    most CP, then the game-end tiebreakers), or (No Tiebreakers) it is a tie."""
    kill_box, due, _last = game.turn_end_due
    if not game.setup.rules.tiebreakers:
        ended = end_game(game, Method.TIME, None, at_ms)
    elif kill_box or due:
        ended = end_game(game, Method.TIEBREAKER, None, at_ms)  # until the turn end's answers
    else:
        ended = end_by_victory_conditions(game, at_ms)
    timer = game.timer
    if timer is not None:
        timer = replace(timer.stop(at_ms) if timer.running else timer, called=True)
    asked = game.active if kill_box else None
    return replace(ended, final_scoring_due=due, final_kill_box=asked, timer=timer)


def decide_round_end(game: Game, now_ms: int) -> Game:
    """Dice down at the round clock's end, at its exact moment, if nobody called it."""
    timer = game.timer
    if timer is None or game.ending is not None or game.phase not in _PLAYING:
        return game
    at = timer.dice_down_at()
    if at is None or at > now_ms:
        return game
    return _dice_down(game, at)


def follow(before: Game, after: Game, now_ms: int) -> Game:
    """Keep the timer with the game: the round clock starts with the game, each new
    turn has its full turn time, and a game over stops it."""
    timer = after.timer
    if timer is None:
        return after
    if before.phase is Phase.READY and after.phase is not Phase.READY:
        timer = timer.start_round(now_ms)
    if after.ending is not None:
        return replace(after, timer=timer.stop(now_ms) if timer.running else timer)
    if after.paused and not before.paused:
        timer = timer.hold(now_ms)
    elif before.paused and not after.paused:
        timer = timer.release(now_ms)
    moved = (before.phase, before.active, before.turn) != (after.phase, after.active, after.turn)
    if moved and after.timer == before.timer:  # an undo brings its own timer back
        timer = timer.next_turn(now_ms)
    return after if timer is after.timer else replace(after, timer=timer)


def no_models_left(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """No Assassination Victory: a player with no models left loses; the last scoring
    follows, as after an assassination."""
    seat = seat_of(actor)
    in_play(game)
    if game.setup.rules.assassination:
        raise RuleError("this event plays assassination victory: report a destroyed caster")
    if game.phase is not Phase.TURN:
        raise RuleError("armies are destroyed once the turns have begun")
    ended = end_game(game, Method.DESTRUCTION, seat.other, now_ms)
    return replace(ended, final_scoring_due=game.scoring_due_at_mark)
