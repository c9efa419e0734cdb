"""The Runewars table engine: `apply(game, actor, command, now_ms)` returns the next game
or raises a RuleError, the same door the Warmachine tables use; `new_game` opens one and
`view` is what every phone and the dashboard show."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from app.domain.clock import Side
from app.domain.commands import Actor, Role
from app.domain.errors import BadInput, NotYourSeat, RuleError, StaleCommand
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import (
    AREAS,
    BYE_MOV,
    BYE_TP,
    CONCESSION_KEEPS_FROM,
    LAST_GAME_ROUND,
    margin_of_victory,
    score,
    tournament_points,
)
from app.domain.runewars.state import EndedBy, Outcome, Phase, RwGame, TableSetup, new_game

__all__ = ["RwGame", "TableSetup", "apply", "new_game", "view"]

_JUDGES = (Role.EO, Role.SYSTEM)


def _seat(actor: Actor, *allowed: Side | None) -> None:
    if actor in _JUDGES or actor in allowed:
        return
    raise NotYourSeat("that is the other player's choice")


def _phase(game: RwGame, *phases: Phase) -> None:
    if game.phase not in phases:
        raise RuleError(f"not now: the table is at {game.phase.value.replace('_', ' ')}")


def _choose_first(game: RwGame, actor: Actor, cmd: rc.ChooseFirstPlayer, _now: int) -> RwGame:
    _phase(game, Phase.FIRST_PLAYER)
    _seat(actor, game.chooser)
    return replace(game, first=Side(cmd.first), phase=Phase.AREA, game_round=1)


def _choose_area(game: RwGame, actor: Actor, cmd: rc.ChooseArea, _now: int) -> RwGame:
    _phase(game, Phase.AREA)
    _seat(actor, game.second)
    if cmd.area not in AREAS:
        raise BadInput(f"choose the red or blue deployment area, not {cmd.area!r}")
    ready = Phase.READY if game.started_ms is None else Phase.PLAYING
    return replace(game, second_area=cmd.area, phase=ready)


def _start(game: RwGame, _actor: Actor, _cmd: rc.StartRound, now: int) -> RwGame:
    if game.started_ms is not None:
        raise RuleError("the round timer is already running")
    _phase(game, Phase.FIRST_PLAYER, Phase.AREA, Phase.READY)
    phase = Phase.PLAYING if game.phase is Phase.READY else game.phase
    return replace(game, started_ms=now, phase=phase)


def _end_game_round(game: RwGame, actor: Actor, cmd: rc.EndGameRound, _now: int) -> RwGame:
    """The first player turns the counter in the End Phase; after the eighth game round,
    or the game round in which time was called, the game is scored."""
    _phase(game, Phase.PLAYING)
    _seat(actor, game.first)
    if cmd.expect != game.game_round:
        raise StaleCommand(f"the counter already shows game round {game.game_round}")
    if game.game_round >= LAST_GAME_ROUND:
        return replace(game, phase=Phase.SCORING, ended_by=EndedBy.EIGHT_ROUNDS)
    if game.time_called:
        return replace(game, phase=Phase.SCORING, ended_by=EndedBy.TIME)
    return replace(game, game_round=game.game_round + 1)


def _call_time(game: RwGame, actor: Actor, _cmd: rc.CallTime, _now: int) -> RwGame:
    if actor not in _JUDGES:
        raise NotYourSeat("only the organiser or the round timer calls time")
    if game.time_called or game.phase in (Phase.SCORING, Phase.FINAL_FLURRY, Phase.OVER):
        return game
    return replace(game, time_called=True)


def _army_destroyed(game: RwGame, actor: Actor, cmd: rc.ArmyDestroyed, _now: int) -> RwGame:
    _phase(game, Phase.PLAYING)
    _seat(actor, Side.P1, Side.P2)
    if cmd.side is None:
        return replace(
            game, destroyed=(True, True), phase=Phase.SCORING,
            ended_by=EndedBy.MUTUAL_DESTRUCTION,
        )
    gone = (cmd.side is Side.P1, cmd.side is Side.P2)
    return replace(game, destroyed=gone, phase=Phase.SCORING, ended_by=EndedBy.DEFEATED)


def _concede(game: RwGame, actor: Actor, _cmd: rc.Concede, _now: int) -> RwGame:
    if not isinstance(actor, Side):
        raise NotYourSeat("only a player can concede their game")
    _phase(game, Phase.FIRST_PLAYER, Phase.AREA, Phase.READY, Phase.PLAYING, Phase.SCORING)
    return replace(game, conceded=actor, phase=Phase.SCORING, ended_by=EndedBy.CONCESSION)


def _enter_score(game: RwGame, actor: Actor, cmd: rc.EnterScore, _now: int) -> RwGame:
    _phase(game, Phase.SCORING)
    if not isinstance(actor, Side):
        raise NotYourSeat("each player enters their own score")
    opponent_army = game.setup.army_values[actor.other]
    if not game.destroyed[actor.other] and cmd.destroyed > opponent_army:
        raise BadInput(
            f"you cannot destroy more than your opponent's army ({opponent_army} points), "
            f"not {cmd.destroyed}"
        )
    score(cmd.destroyed, cmd.objectives)  # checks the numbers
    entries = list(game.entries)
    entries[actor] = (cmd.destroyed, cmd.objectives)
    game = replace(game, entries=(entries[0], entries[1]))
    if None in game.entries:
        return game
    return _decide(game)


def scores(game: RwGame) -> tuple[int, int]:
    """TS11: each player's score as entered (destroying every unit counts 200)."""
    got = []
    for side in (Side.P1, Side.P2):
        entry = game.entries[side]
        if entry is None:
            raise RuleError(f"{game.setup.names[side]} has not entered a score yet")
        got.append(score(entry[0], entry[1], everything_destroyed=game.destroyed[side.other]))
    return got[0], got[1]


def _win(game: RwGame, winner: Side, flurry: tuple[int, int] | None = None) -> RwGame:
    """ST5: the winner's MoV and both sides' TP (both armies destroyed: MoV 0 each)."""
    points = scores(game)
    mov = margin_of_victory(points[winner], points[winner.other])
    if game.ended_by is EndedBy.MUTUAL_DESTRUCTION:
        mov = 0
    tp = [0, 0]
    movs = [0, 0]
    tp[winner], tp[winner.other] = tournament_points(mov, True), tournament_points(mov, False)
    movs[winner] = mov
    assert game.ended_by is not None
    outcome = Outcome(winner, points, (movs[0], movs[1]), (tp[0], tp[1]), game.ended_by, flurry)
    return replace(game, phase=Phase.OVER, outcome=outcome)


def _conceded(game: RwGame, conceder: Side) -> RwGame:
    """ST5: 0 TP and MoV 0 to the conceder; the opponent keeps a result of MoV 70 or
    more at the time of concession, else 8 TP and MoV 70."""
    points = scores(game)
    winner = conceder.other
    mov = margin_of_victory(points[winner], points[conceder])
    won = (tournament_points(mov, True), mov) if mov >= CONCESSION_KEEPS_FROM else (
        BYE_TP, BYE_MOV)
    tp, movs = [0, 0], [0, 0]
    tp[winner], movs[winner] = won
    outcome = Outcome(winner, points, (movs[0], movs[1]), (tp[0], tp[1]), EndedBy.CONCESSION)
    return replace(game, phase=Phase.OVER, outcome=outcome)


def _decide(game: RwGame) -> RwGame:
    if game.conceded is not None:
        return _conceded(game, game.conceded)
    if game.ended_by is EndedBy.DEFEATED:
        return _win(game, Side.P2 if game.destroyed[Side.P1] else Side.P1)
    points = scores(game)
    if points[0] == points[1]:
        return replace(game, phase=Phase.FINAL_FLURRY)
    return _win(game, Side.P1 if points[0] > points[1] else Side.P2)


def _final_flurry(game: RwGame, actor: Actor, cmd: rc.FinalFlurry, _now: int) -> RwGame:
    _phase(game, Phase.FINAL_FLURRY)
    _seat(actor, Side.P1, Side.P2)
    hits = (int(cmd.hits[0]), int(cmd.hits[1]))
    if min(hits) < 0:
        raise BadInput("hits cannot be negative")
    if hits[0] == hits[1]:
        raise RuleError(f"both rolled {hits[0]} hits: roll the Final Flurry again")
    return _win(game, Side.P1 if hits[0] > hits[1] else Side.P2, hits)


Rule = Callable[[RwGame, Actor, Any, int], RwGame]

_RULES: dict[type, Rule] = {
    rc.ChooseFirstPlayer: _choose_first,
    rc.ChooseArea: _choose_area,
    rc.StartRound: _start,
    rc.EndGameRound: _end_game_round,
    rc.CallTime: _call_time,
    rc.ArmyDestroyed: _army_destroyed,
    rc.Concede: _concede,
    rc.EnterScore: _enter_score,
    rc.FinalFlurry: _final_flurry,
}


def timer_check(game: RwGame, now_ms: int) -> RwGame:
    """DC11: once the round time is reached, time is called on the table."""
    end = game.ends_ms()
    if end is not None and now_ms >= end and not game.time_called:
        return _call_time(game, Role.SYSTEM, rc.CallTime(), now_ms)
    return game


def apply(game: RwGame, actor: Actor, command: Any, now_ms: int) -> RwGame:
    """Apply one command at server time `now_ms`; a round time reached is called first."""
    rule = _RULES.get(type(command))
    if rule is None:
        raise BadInput(f"unknown command {type(command).__name__}")
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    return rule(timer_check(game, now_ms), actor, command, now_ms)


def view(game: RwGame, now_ms: int) -> dict[str, object]:
    """What the phones and the dashboard show of a Runewars table."""
    game = timer_check(game, now_ms)
    out = game.outcome
    return {
        "game": "runewars",
        "phase": game.phase.value,
        "names": list(game.setup.names),
        "army_values": list(game.setup.army_values),
        "deployment": game.setup.deployment,
        "objective": game.setup.objective,
        "chooser": game.chooser.label.lower(),
        "chooser_by_chance": game.chooser_by_chance,
        "first": None if game.first is None else game.first.label.lower(),
        "areas": [game.area_of(Side.P1), game.area_of(Side.P2)],
        "game_round": game.game_round,
        "last_game_round": LAST_GAME_ROUND,
        "round_minutes": game.setup.round_minutes,
        "ends_ms": game.ends_ms(),
        "time_left_ms": game.time_left_ms(now_ms),
        "time_called": game.time_called,
        "ended_by": None if game.ended_by is None else game.ended_by.value,
        "entered": [e is not None for e in game.entries],
        "result": None if out is None else {
            "winner": out.winner.label.lower(),
            "scores": list(out.scores),
            "mov": list(out.mov),
            "tp": list(out.tp),
            "ended_by": out.ended_by.value,
            "final_flurry": None if out.flurry is None else list(out.flurry),
        },
    }
