"""What only the organiser does at a Runewars table: enter or correct its result
(TS11 scores, ST5 outcome). A decided result moves only by the organiser, with the
reason, and the correction keeps what it replaced."""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.commands import Actor
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import score
from app.domain.runewars.scoring import decide, flurry_win, scores
from app.domain.runewars.state import Correction, EndedBy, Phase, RwGame

#: The phases in which the organiser enters a result (OVER: a correction).
JUDGED_IN = (Phase.SCORING, Phase.FINAL_FLURRY, Phase.OVER)

#: The longest reason kept with a correction.
MOST_REASON = 300


def _check_entries(game: RwGame, cmd: rc.JudgeScores) -> None:
    for side in (Side.P1, Side.P2):
        destroyed, objectives = cmd.entries[side]
        army = game.setup.army_values[side.other]
        if not game.destroyed[side.other] and destroyed > army:
            raise BadInput(
                f"{game.setup.names[side]} cannot have destroyed more than "
                f"{game.setup.names[side.other]}'s army ({army} points), not {destroyed}"
            )
        score(destroyed, objectives)  # checks the numbers


def _rescored(game: RwGame, cmd: rc.JudgeScores) -> RwGame:
    """The game as scored afresh from the organiser's entries."""
    conceded = cmd.conceded if cmd.conceded is not None else game.conceded
    ended_by = EndedBy.CONCESSION if conceded is not None else game.ended_by
    decided = decide(
        replace(
            game,
            entries=(cmd.entries[0], cmd.entries[1]),
            conceded=conceded,
            ended_by=ended_by,
            phase=Phase.SCORING,
            outcome=None,
        )
    )
    if decided.phase is Phase.FINAL_FLURRY:
        if cmd.flurry is None:
            raise RuleError(
                f"the scores are equal ({scores(decided)[0]} each): "
                "give both players' Final Flurry hits"
            )
        return flurry_win(decided, cmd.flurry)
    if cmd.flurry is not None:
        raise BadInput("the scores are not equal: there is no Final Flurry to enter")
    return decided


def judge(game: RwGame, actor: Actor, cmd: rc.JudgeScores, now_ms: int) -> RwGame:
    """TS11/ST5: the organiser sets both players' scores (and, on equal scores, the
    Final Flurry's hits, or a concession) and the outcome follows by the rules. Only
    once the table is scoring; on a decided result it is a correction, which needs
    the reason and keeps the outcome it replaced. Only the organiser (`who_may_act`)."""
    if game.phase not in JUDGED_IN:
        where = (
            f"game round {game.game_round}"
            if game.phase is Phase.PLAYING
            else game.phase.value.replace("_", " ")
        )
        raise RuleError(
            f"not yet: the organiser enters a result once the table is scoring (it is at {where})"
        )
    _check_entries(game, cmd)
    reason = cmd.reason.strip()
    if len(reason) > MOST_REASON:
        raise BadInput(f"the reason is {MOST_REASON} characters at most")
    judged = _rescored(game, cmd)
    before = game.outcome
    correction = game.correction
    if before is not None and judged.outcome != before:
        if not reason:
            raise BadInput("this result is decided: give the reason for the correction")
        correction = Correction(reason, now_ms, before, game.entries)
    return replace(judged, judged=True, correction=correction)
