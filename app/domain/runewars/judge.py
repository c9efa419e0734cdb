"""What only the organiser does at a Runewars table: enter or correct its result
(TS11 scores, ST5 outcome), in any state: a table still playing (after time is called,
say), one scoring, one whose players disagree, one whose result stands. The organiser
gives the reason, unless the players are still entering their scores; a correction
keeps what it replaced. The organiser's result stands at once."""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.commands import Actor
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import score
from app.domain.runewars.scoring import decide, flurry_win, scores
from app.domain.runewars.state import Correction, EndedBy, Phase, RwGame

#: Where the players are still entering their scores: the organiser's entry needs no
#: reason there (everywhere else it ends a game, or overrules the players' result).
PLAYERS_SCORING = (Phase.SCORING, Phase.FINAL_FLURRY)

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


def _ended_by(game: RwGame, conceded: Side | None) -> EndedBy:
    """How the game ended: as at the table; a game the organiser ends, on time once
    time was called, else by the organiser's decision."""
    if conceded is not None:
        return EndedBy.CONCESSION
    if game.ended_by is not None:
        return game.ended_by
    return EndedBy.TIME if game.time_called else EndedBy.ORGANISER


def _rescored(game: RwGame, cmd: rc.JudgeScores) -> RwGame:
    """The game as scored afresh from the organiser's entries."""
    conceded = cmd.conceded if cmd.conceded is not None else game.conceded
    ended_by = _ended_by(game, conceded)
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


def why_needed(game: RwGame) -> str | None:
    """What the organiser's entry does that needs its reason (None: none needed)."""
    if game.phase in PLAYERS_SCORING:
        return None
    if game.settled:
        return "this result is decided: give the reason for the correction"
    if game.in_dispute:
        return "the players disagree: give the reason for your decision"
    if game.outcome is not None:
        return "the players' result is waiting for their confirmation: give the reason"
    return "the game has not ended at the table: give the reason for entering its result"


def judge(game: RwGame, actor: Actor, cmd: rc.JudgeScores, now_ms: int) -> RwGame:
    """TS11/ST5: the organiser sets both players' scores (and, on equal scores, the
    Final Flurry's hits, or a concession) and the outcome follows by the rules, in any
    state of the table; it stands at once. Over the players' result it is a
    correction, which keeps the outcome it replaced. Only the organiser
    (`who_may_act`)."""
    _check_entries(game, cmd)
    reason = cmd.reason.strip()
    if len(reason) > MOST_REASON:
        raise BadInput(f"the reason is {MOST_REASON} characters at most")
    judged = _rescored(game, cmd)
    needed = why_needed(game)
    same = game.settled and judged.outcome == game.outcome  # a retry, or no change
    if needed is not None and not reason and not same:
        raise BadInput(needed)
    before = game.outcome
    correction = game.correction
    if game.settled and before is not None and judged.outcome != before:
        correction = Correction(reason, now_ms, before, game.entries)
    return replace(
        judged,
        judged=True,
        judged_reason=reason,
        correction=correction,
        disputed=(None, None),
        flurry_hits=(None, None),
        flurry_tie=None,
        step_back=None,
    )
