"""What the two players of a Runewars table agree on, each from their own phone (TS11,
ST5): each enters their own score and, on equal scores, their own Final Flurry hits;
the result worked out from both stands once both confirm it; a player who disagrees
disputes it with a reason and the organiser decides. The round counter steps back by
one when both players ask for it (or the organiser does)."""

from __future__ import annotations

from typing import TypeVar

from app.domain.clock import Side
from app.domain.commands import Actor
from app.domain.errors import BadInput, RuleError, StaleCommand
from app.domain.frozen import replace
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import score
from app.domain.runewars.scoring import decide, win
from app.domain.runewars.state import EndedBy, Phase, RwGame

#: The longest reason a player gives for a dispute.
MOST_REASON = 300

#: Where a player's own score may be entered, or entered again while the result is
#: not settled (a new entry sends the result back to both players).
SCORED_IN = (Phase.SCORING, Phase.FINAL_FLURRY, Phase.OVER)


def _seat(actor: Actor) -> Side:
    assert isinstance(actor, Side)  # `who_may_act`: a player, for themselves
    return actor


T = TypeVar("T")


def _put(pair: tuple[T, T], side: Side, value: T) -> tuple[T, T]:
    return (value, pair[1]) if side is Side.P1 else (pair[0], value)


def _open_result(game: RwGame) -> None:
    if game.settled:
        raise RuleError("the result stands: only the organiser corrects it")


def enter_score(game: RwGame, actor: Actor, cmd: rc.EnterScore) -> RwGame:
    """TS11: the player's own score; once both are in, the result is worked out afresh
    and goes to both players to confirm."""
    side = _seat(actor)
    if game.phase not in SCORED_IN:
        raise RuleError("not now: the scores are entered once the game is over")
    _open_result(game)
    opponent_army = game.setup.army_values[side.other]
    if not game.destroyed[side.other] and cmd.destroyed > opponent_army:
        raise BadInput(
            f"you cannot destroy more than your opponent's army ({opponent_army} points), "
            f"not {cmd.destroyed}"
        )
    score(cmd.destroyed, cmd.objectives)  # checks the numbers
    entries = list(game.entries)
    entries[side] = (cmd.destroyed, cmd.objectives)
    fresh = replace(
        game,
        entries=(entries[0], entries[1]),
        phase=Phase.SCORING,
        outcome=None,
        flurry_hits=(None, None),
        flurry_tie=None,
        confirmed=(False, False),
        disputed=(None, None),
    )
    return fresh if None in fresh.entries else decide(fresh)


def flurry_hits(game: RwGame, actor: Actor, cmd: rc.FlurryHits) -> RwGame:
    """TS11: equal scores: each player enters the hits they rolled; more hits wins, the
    same number is rolled again."""
    side = _seat(actor)
    if game.phase is not Phase.FINAL_FLURRY:
        raise RuleError("not now: the Final Flurry is rolled only on equal scores")
    if cmd.hits < 0:
        raise BadInput("hits cannot be negative")
    hits: tuple[int | None, int | None] = _put(game.flurry_hits, side, cmd.hits)
    a, b = hits
    if a is None or b is None:
        return replace(game, flurry_hits=hits, flurry_tie=None)
    if a == b:
        return replace(game, flurry_hits=(None, None), flurry_tie=a)
    won = win(game, Side.P1 if a > b else Side.P2, (a, b))
    return replace(won, flurry_hits=(a, b), flurry_tie=None)


def confirm(game: RwGame, actor: Actor) -> RwGame:
    side = _seat(actor)
    if game.outcome is None:
        raise RuleError("there is no result to confirm yet: both scores come first")
    _open_result(game)
    if game.in_dispute:
        raise RuleError("the result is disputed: the organiser decides it")
    return replace(game, confirmed=_put(game.confirmed, side, True))


def dispute(game: RwGame, actor: Actor, cmd: rc.DisputeResult) -> RwGame:
    """The player disagrees (with a score, the hits or the result): the organiser
    decides, seeing both players' entries and each one's reason."""
    side = _seat(actor)
    if game.phase not in SCORED_IN:
        raise RuleError("a result is disputed once the game is over")
    _open_result(game)
    if game.outcome is None:  # the phones show the result, and its dispute, once there is one
        raise RuleError("nothing to dispute yet: a result can be disputed once both scores are in")
    reason = cmd.reason.strip()[:MOST_REASON] or "disputes the result"
    return replace(
        game,
        disputed=_put(game.disputed, side, reason),
        confirmed=_put(game.confirmed, side, False),
    )


def _stepped_back(game: RwGame) -> RwGame:
    """The counter one game round back; from the scoring, back to the game round the
    game ended in, with the end and any scores undone."""
    if game.phase is Phase.PLAYING:
        return replace(game, game_round=game.game_round - 1, step_back=None)
    return replace(
        game,
        phase=Phase.PLAYING,
        ended_by=None,
        destroyed=(False, False),
        entries=(None, None),
        step_back=None,
    )


def can_step_back(game: RwGame) -> bool:
    if game.phase is Phase.PLAYING:
        return game.game_round > 1
    return (
        game.phase is Phase.SCORING
        and game.ended_by is not EndedBy.CONCESSION
        and game.conceded is None
    )


def step_back(game: RwGame, actor: Actor, cmd: rc.StepBack) -> RwGame:
    """A player asks to step the counter back; the other player asking too is their
    agreement, and it steps back. The organiser steps it back at once."""
    if cmd.expect != game.game_round:
        raise StaleCommand(f"the counter already shows game round {game.game_round}")
    if not can_step_back(game):
        raise RuleError("the round counter cannot step back now")
    if not isinstance(actor, Side):
        return _stepped_back(game)
    if game.step_back is actor.other:
        return _stepped_back(game)
    return replace(game, step_back=actor)


def keep_round(game: RwGame, _actor: Actor) -> RwGame:
    if game.step_back is None:
        raise RuleError("no one asked to step the round counter back")
    return replace(game, step_back=None)
