"""The Runewars table engine: `apply(game, actor, command, now_ms)` returns the next game
or raises a RuleError, the same door the Warmachine tables use; `new_game` opens one and
`view` is what every phone and the dashboard show. Who may send each command is one
table (`who_may_act`), asked first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.domain.clock import Side
from app.domain.commands import Actor, Role
from app.domain.errors import BadInput, RuleError, StaleCommand
from app.domain.frozen import replace
from app.domain.runewars import agreement, who_may_act
from app.domain.runewars import commands as rc
from app.domain.runewars.judge import judge
from app.domain.runewars.rules import AREAS, LAST_GAME_ROUND, MINUTE_MS, MOST_EXTENSION_MINUTES
from app.domain.runewars.scoring import flurry_win
from app.domain.runewars.state import EndedBy, Outcome, Phase, RwGame, TableSetup, new_game

__all__ = ["RwGame", "TableSetup", "apply", "new_game", "view"]


def _phase(game: RwGame, *phases: Phase) -> None:
    if game.phase not in phases:
        raise RuleError(f"not now: the table is at {game.phase.value.replace('_', ' ')}")


def _choose_first(game: RwGame, actor: Actor, cmd: rc.ChooseFirstPlayer, _now: int) -> RwGame:
    _phase(game, Phase.FIRST_PLAYER)
    return replace(game, first=Side(cmd.first), phase=Phase.AREA, game_round=1)


def _choose_area(game: RwGame, actor: Actor, cmd: rc.ChooseArea, _now: int) -> RwGame:
    _phase(game, Phase.AREA)
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
    if cmd.expect != game.game_round:
        raise StaleCommand(f"the counter already shows game round {game.game_round}")
    if game.game_round >= LAST_GAME_ROUND:
        return replace(game, phase=Phase.SCORING, ended_by=EndedBy.EIGHT_ROUNDS)
    if game.time_called:
        return replace(game, phase=Phase.SCORING, ended_by=EndedBy.TIME)
    return replace(game, game_round=game.game_round + 1)


def _call_time(game: RwGame, _actor: Actor, _cmd: rc.CallTime, _now: int) -> RwGame:
    if game.time_called or game.phase in (Phase.SCORING, Phase.FINAL_FLURRY, Phase.OVER):
        return game
    return replace(game, time_called=True)


def _extend(game: RwGame, _actor: Actor, cmd: rc.ExtendTime, _now: int) -> RwGame:
    """ "Lost and Damaged Components": the organiser gives this table a short time
    extension (the round timer's end moves for this table only), saying why; once
    time is called on the table it is too late."""
    if game.time_called or game.phase in (Phase.SCORING, Phase.FINAL_FLURRY, Phase.OVER):
        raise RuleError("time is already called on this table: an extension comes before")
    if not 1 <= cmd.minutes <= MOST_EXTENSION_MINUTES:
        raise BadInput(f"an extension is 1 to {MOST_EXTENSION_MINUTES} minutes")
    reason = cmd.reason.strip()
    if not reason:
        raise BadInput("give the reason for the extension: the players read it")
    more = game.extension_ms + cmd.minutes * MINUTE_MS
    return replace(game, extension_ms=more, extension_reason=reason)


def _army_destroyed(game: RwGame, actor: Actor, cmd: rc.ArmyDestroyed, _now: int) -> RwGame:
    _phase(game, Phase.PLAYING)
    if cmd.side is None:
        return replace(
            game,
            destroyed=(True, True),
            phase=Phase.SCORING,
            ended_by=EndedBy.MUTUAL_DESTRUCTION,
        )
    gone = (cmd.side is Side.P1, cmd.side is Side.P2)
    return replace(game, destroyed=gone, phase=Phase.SCORING, ended_by=EndedBy.DEFEATED)


def _concede(game: RwGame, actor: Actor, _cmd: rc.Concede, _now: int) -> RwGame:
    _phase(game, Phase.FIRST_PLAYER, Phase.AREA, Phase.READY, Phase.PLAYING, Phase.SCORING)
    assert isinstance(actor, Side)  # `who_may_act`: a player concedes for themselves
    return replace(game, conceded=actor, phase=Phase.SCORING, ended_by=EndedBy.CONCESSION)


def _final_flurry(game: RwGame, actor: Actor, cmd: rc.FinalFlurry, _now: int) -> RwGame:
    """The organiser at the table enters both players' hits (each player enters their
    own: `agreement.flurry_hits`); the result goes to both players to confirm."""
    _phase(game, Phase.FINAL_FLURRY)
    return flurry_win(game, (int(cmd.hits[0]), int(cmd.hits[1])))


Rule = Callable[[RwGame, Actor, Any, int], RwGame]

_RULES: dict[type, Rule] = {
    rc.ChooseFirstPlayer: _choose_first,
    rc.ChooseArea: _choose_area,
    rc.StartRound: _start,
    rc.EndGameRound: _end_game_round,
    rc.CallTime: _call_time,
    rc.ExtendTime: _extend,
    rc.ArmyDestroyed: _army_destroyed,
    rc.Concede: _concede,
    rc.EnterScore: lambda game, actor, cmd, _now: agreement.enter_score(game, actor, cmd),
    rc.FinalFlurry: _final_flurry,
    rc.FlurryHits: lambda game, actor, cmd, _now: agreement.flurry_hits(game, actor, cmd),
    rc.ConfirmResult: lambda game, actor, _cmd, _now: agreement.confirm(game, actor),
    rc.DisputeResult: lambda game, actor, cmd, _now: agreement.dispute(game, actor, cmd),
    rc.StepBack: lambda game, actor, cmd, _now: agreement.step_back(game, actor, cmd),
    rc.KeepRound: lambda game, actor, _cmd, _now: agreement.keep_round(game, actor),
    rc.JudgeScores: judge,
}

#: What still applies once the result stands: the organiser's correction (TS11/ST5).
_AFTER_THE_GAME = (rc.JudgeScores,)


def timer_check(game: RwGame, now_ms: int) -> RwGame:
    """DC11: once the round time is reached, time is called on the table."""
    end = game.ends_ms()
    if end is not None and now_ms >= end and not game.time_called:
        return _call_time(game, Role.SYSTEM, rc.CallTime(), now_ms)
    return game


def apply(game: RwGame, actor: Actor, command: Any, now_ms: int, *, logged: bool = False) -> RwGame:
    """Apply one command at server time `now_ms`; a round time reached is called first.
    `logged`: a command of the table's log applied again, its sender judged when accepted."""
    rule = _RULES.get(type(command))
    if rule is None:
        raise BadInput(f"unknown command {type(command).__name__}")
    if not logged:
        who_may_act.check(game, actor, command)
    if game.settled and not isinstance(command, _AFTER_THE_GAME):
        raise RuleError("the game is over and its result stands: only the organiser corrects it")
    before = timer_check(game, now_ms)
    after = rule(before, actor, command, now_ms)
    moved = after.phase is not before.phase or after.game_round != before.game_round
    if moved and after.step_back is not None:
        return replace(after, step_back=None)  # the counter moved: a request lapses
    return after


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
        "extension_minutes": game.extension_ms // MINUTE_MS,
        "extension_reason": game.extension_reason,
        "ended_by": None if game.ended_by is None else game.ended_by.value,
        "entered": [e is not None for e in game.entries],
        "result": None if out is None else _outcome_view(out),
        "judged": game.judged,
        "judged_reason": game.judged_reason,
        "correction": _correction_view(game),
        **_agreement_view(game),
    }


def _agreement_view(game: RwGame) -> dict[str, object]:
    """Where the players stand on the result: each one's Final Flurry hits entered,
    confirmation and dispute, and a request to step the round counter back."""
    return {
        "flurry_entered": [h is not None for h in game.flurry_hits],
        "flurry_tie": game.flurry_tie,
        "confirmed": list(game.confirmed),
        "disputed": list(game.disputed),
        "settled": game.settled,
        "step_back": None if game.step_back is None else game.step_back.label.lower(),
        "can_step_back": agreement.can_step_back(game),
    }


def _outcome_view(out: Outcome) -> dict[str, object]:
    return {
        "winner": out.winner.label.lower(),
        "scores": list(out.scores),
        "mov": list(out.mov),
        "tp": list(out.tp),
        "ended_by": out.ended_by.value,
        "final_flurry": None if out.flurry is None else list(out.flurry),
    }


def _correction_view(game: RwGame) -> dict[str, object] | None:
    """The organiser's last correction: why, when, and the result it replaced."""
    fix = game.correction
    if fix is None:
        return None
    return {"reason": fix.reason, "at_ms": fix.at_ms, "before": _outcome_view(fix.before)}
