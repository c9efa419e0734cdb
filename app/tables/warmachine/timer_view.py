"""What the phones and the dashboard see of a Classic Turn Timing game (DC10): the
round clock and the turn timer, as of the moment the view is taken."""

from __future__ import annotations

from typing import Any

from app.domain import variants
from app.domain.game import Game


def timer_view(game: Game, now_ms: int) -> dict[str, Any] | None:
    """None: the game runs on the Deathclock's chess clocks."""
    timer = game.timer
    if timer is None:
        return None
    return {
        "limited": timer.limited,
        "round_ms": timer.timing.round_ms,
        "turn_ms": timer.timing.turn_ms,
        "extension_ms": timer.timing.extension_ms,
        "round_left_ms": timer.round_left(now_ms),
        "left_ms": timer.left(now_ms) if timer.limited else None,
        "running": timer.running,
        "started": timer.started,
        "extensions_taken": list(timer.extensions_taken),
        "extension_due": timer.extension_due,
        "in_extension": timer.in_extension,
        "dice_down": timer.called,
        "as_of_ms": now_ms,
    }


def variants_info(game: Game) -> dict[str, Any]:
    """The event's variants in the players' words, and what they change."""
    rules = game.setup.rules
    return {
        "ids": list(game.setup.variants),
        "names": variants.names(game.setup.variants),
        "assassination": rules.assassination,
        "tiebreakers": rules.tiebreakers,
    }
