"""One game at a table: phases, turns, scoring, kill box, victory and result.

`apply(game, actor, command, now_ms)` returns the next game or raises a RuleError;
a game is immutable, so a rejected command changes nothing. Who may send each command
is one table (`who_may_act`), asked first; the rules live by topic (`turns`,
`clock_out`, `ending`, `judge`, `result`) over the game's `state`; this module is their
one door.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.domain import classic, ending, judge, pregame_rules, turns, undo, who_may_act
from app.domain import commands as c
from app.domain.clock_out import claim_possible, decide_flag
from app.domain.errors import BadInput
from app.domain.formats import FORMATS  # the door brings every format, in play by id
from app.domain.frozen import replace
from app.domain.result import (
    Ending,
    Report,
    Result,
    compute_result,
    presence_needed,
    reports_needed,
    settled,
)
from app.domain.state import (
    UNDO_UNSEEN_MS,
    UNDO_WINDOW_MS,
    Game,
    Method,
    Phase,
    Setup,
    Undo,
    UndoEnd,
    UndoOutcome,
    new_game,
    score,
    slot,
)

__all__ = [
    "FORMATS",
    "UNDO_UNSEEN_MS",
    "UNDO_WINDOW_MS",
    "Ending",
    "Game",
    "Method",
    "Phase",
    "Report",
    "Result",
    "Setup",
    "Undo",
    "UndoEnd",
    "UndoOutcome",
    "apply",
    "claim_possible",
    "compute_result",
    "decide_flag",
    "decide_time",
    "new_game",
    "presence_needed",
    "reports_needed",
    "score",
    "settled",
    "slot",
    "time_due_at",
]

Rule = Callable[[Game, c.Actor, Any, int], Game]

#: Each command's rule, called as (game, actor, command, now_ms).
_RULES: dict[type, Rule] = {
    c.FlagCheck: lambda game, _actor, _cmd, _now: game,
    c.StartClock: lambda game, actor, _cmd, now: turns.start(game, actor, now),
    c.PassTurn: turns.pass_turn,
    c.SwitchClock: turns.switch,
    c.ProposeUndo: lambda game, actor, _cmd, now: undo.propose_undo(game, actor, now),
    c.UndoSeen: lambda game, actor, _cmd, now: undo.undo_seen(game, actor, now),
    c.AnswerUndo: undo.answer_undo,
    c.CasterDestroyed: ending.caster_destroyed,
    c.Concede: lambda game, actor, _cmd, now: ending.concede(game, actor, now),
    c.ClaimScenario: lambda game, actor, cmd, _now: ending.claim(game, actor, cmd),
    c.AnswerClaim: ending.answer_claim,
    c.AcceptClockLoss: lambda game, actor, _cmd, now: ending.accept_clock_loss(game, actor, now),
    c.FinalScoring: lambda game, actor, cmd, _now: ending.final_scoring(game, actor, cmd),
    c.ReportGame: lambda game, actor, cmd, _now: ending.report(game, actor, cmd),
    c.ConfirmResult: lambda game, actor, _cmd, _now: ending.confirm(game, actor),
    c.DisputeResult: lambda game, actor, cmd, _now: ending.dispute(game, actor, cmd),
    c.CallTie: lambda game, actor, _cmd, now: judge.call_tie(game, actor, now),
    c.RecordResult: judge.record,
    c.PauseClock: lambda game, actor, _cmd, now: judge.pause(game, actor, now),
    c.ResumeClock: lambda game, actor, _cmd, now: judge.resume(game, actor, now),
    c.AdjustClock: lambda game, actor, cmd, now: decide_flag(
        judge.adjust(game, actor, cmd, now), now
    ),
    c.ReportPause: lambda game, actor, _cmd, _now: judge.report_pause(game, actor),
    c.OfferLists: lambda game, actor, cmd, _now: judge.offer_lists(game, actor, cmd),
    c.WarnForPausing: judge.warn_for_pausing,
    c.ScenarioRoll: lambda game, actor, cmd, _now: judge.scenario_roll(game, actor, cmd),
    c.OpenPregame: pregame_rules.open_pregame,
    c.ChooseList: pregame_rules.choose_list,
    c.ChooseSpecialists: pregame_rules.choose_specialists,
    c.ChooseObjective: pregame_rules.choose_objective,
    c.StartingRoll: pregame_rules.roll,
    c.ChooseOrder: pregame_rules.choose_order,
    c.ChooseEdge: pregame_rules.choose_edge,
    c.StartTurnTimer: lambda game, actor, _cmd, now: classic.start_timer(game, actor, now),
    c.StopTurnTimer: lambda game, actor, _cmd, now: classic.stop_timer(game, actor, now),
    c.TakeExtension: lambda game, actor, _cmd, now: classic.take_extension(game, actor, now),
    c.StartExtension: lambda game, actor, _cmd, now: classic.start_extension(game, actor, now),
    c.DiceDown: lambda game, actor, _cmd, now: classic.dice_down(game, actor, now),
    c.NoModelsLeft: lambda game, actor, _cmd, now: classic.no_models_left(game, actor, now),
}

#: After these, an undo on offer is gone (a request still open is overtaken: `undo.settle`).
_ENDS_UNDO = frozenset(
    {
        c.CasterDestroyed,
        c.Concede,
        c.FinalScoring,
        c.ReportGame,
        c.ConfirmResult,
        c.DisputeResult,
        c.CallTie,
        c.WarnForPausing,
        c.ScenarioRoll,
        c.DiceDown,
        c.NoModelsLeft,
    }
)


def decide_time(game: Game, now_ms: int) -> Game:
    """What time alone decides by `now_ms`, each at its exact moment: an undo request that
    lapsed unanswered, a dice down at the round's end (DC10) or a clock out (DC7)."""
    lapse_at, clock_at = undo.lapses_at(game), _clock_due_at(game)
    if lapse_at is not None and lapse_at <= now_ms and (clock_at is None or lapse_at <= clock_at):
        game = undo.lapse(game)
    decided = decide_flag(classic.decide_round_end(game, now_ms), now_ms)
    return undo.settle(game, decided, decided.clock.since_ms)


def _clock_due_at(game: Game) -> int | None:
    if game.timer is not None:
        return game.timer.dice_down_at()
    return game.clock.flag_at()


def time_due_at(game: Game) -> int | None:
    """The first moment time alone would decide something (see `decide_time`)."""
    moments = [at for at in (undo.lapses_at(game), _clock_due_at(game)) if at is not None]
    return min(moments, default=None)


def apply(
    game: Game, actor: c.Actor, command: c.Command, now_ms: int, *, logged: bool = False
) -> Game:
    """Apply one command at server time `now_ms`; a due clock out is decided first.

    `logged`: a command of the table's log applied again (a replay), whose sender was
    judged when it was accepted; a rule of who may act added since cannot undo history.
    """
    if now_ms < game.clock.since_ms:
        now_ms = game.clock.since_ms
    game = decide_time(game, now_ms)
    rule = _RULES.get(type(command))
    if rule is None:
        raise BadInput(f"unknown command {type(command).__name__}")
    if logged:
        command = _as_accepted(game, command)
    else:
        who_may_act.check(game, actor, command)
        if isinstance(command, c.RecordResult) and judge.already_so(game, command):
            # Under the table's lock: the same entry twice at once is logged once (TS9).
            raise judge.AlreadySo("the table's result is this already: nothing changed")
    after = classic.follow(game, rule(game, actor, command, now_ms), now_ms)
    if after.deployed_ms is None and after.clock.running is not None:
        after = replace(after, deployed_ms=now_ms)  # DC4: deployment begins
    if type(command) in _ENDS_UNDO:
        after = replace(after, undo=None)
    return undo.settle(game, after, now_ms)


def _as_accepted(game: Game, command: c.Command) -> c.Command:
    """A last scoring from the table's log as it was accepted: one that carries no kill box
    answer where dice down asks it (DC10, TS3) stands for its player's "no"."""
    unanswered = isinstance(command, c.FinalScoring) and command.kill_box is None
    if unanswered and game.final_kill_box is not None:
        return replace(command, kill_box=False)
    return command
