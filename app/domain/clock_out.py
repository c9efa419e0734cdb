"""The clock out (DC7): a flag decided at its exact moment, a claim or a loss."""

from __future__ import annotations

from app.domain.clock import Side, put
from app.domain.frozen import replace
from app.domain.state import (
    Game,
    Method,
    Phase,
    end_game,
)


def decide_flag(game: Game, now_ms: int) -> Game:
    """If the running side reached zero by `now_ms`, flag it at that exact moment."""
    flag_at = game.clock.flag_at()
    if game.timer is not None:  # DC10: a turn timer instead of chess clocks, no flag
        return game
    if flag_at is None or flag_at > now_ms or game.ending is not None:
        return game
    side = game.clock.running
    assert side is not None
    stopped = replace(game, clock=game.clock.run(None, flag_at), flagged=side, undo=None)
    if claim_possible(stopped, side):
        return replace(stopped, phase=Phase.CLOCK_OUT)
    return lose_on_time(stopped, side, flag_at)


def claim_possible(game: Game, side: Side) -> bool:
    """DC7: only a clock out in `side`'s own turn (not during an interrupt), once
    scenario scoring has started, can still be a scenario win; any other clock out
    is lost at once, with nobody waiting on the player who ran out."""
    return (
        game.format.clock_out_claim
        and game.phase is Phase.TURN
        and side is game.active
        and not game.interrupted
        and game.scoring_due_at_mark
    )


def lose_on_time(game: Game, side: Side, at_ms: int) -> Game:
    """DC7: the caster is destroyed; scored as an assassination for the opponent."""
    scoring_started = game.phase in (Phase.TURN, Phase.CLOCK_OUT) and game.scoring_due_at_mark
    return replace(
        end_game(game, Method.CLOCK, side.other, at_ms),
        casters=put(game.casters, side, False),
        final_scoring_due=scoring_started,
    )
