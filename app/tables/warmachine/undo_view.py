"""What the screens see of an undo: the tap that may still be asked to be undone, the
request the opponent answers, and what became of the last request."""

from __future__ import annotations

from typing import Any

from app.domain.clock import Side
from app.domain.game import UNDO_WINDOW_MS, Game

_SIDE_NAMES = {Side.P1: "p1", Side.P2: "p2"}


def undo_view(game: Game) -> dict[str, Any] | None:
    """The last tap (its player may ask to undo it until `ask_until_ms`) and the request
    on it, if any: `seen_at_ms` is when the opponent's phone showed it, `until_ms` when it
    lapses unanswered (10 s after it showed, or 60 s after it was asked if it never did)."""
    undo = game.undo
    if undo is None:
        return None
    asked = undo.proposed_by
    return {
        "tap_at_ms": undo.tap_at_ms,
        "ask_until_ms": undo.tap_at_ms + UNDO_WINDOW_MS,
        "proposed_by": None if asked is None else _SIDE_NAMES[asked],
        "proposed_at_ms": undo.proposed_at_ms if asked is not None else None,
        "seen_at_ms": undo.seen_at_ms,
        "until_ms": undo.lapses_at(),
    }


def undo_prompts(game: Game) -> list[dict[str, Any]]:
    """The request the opponent answers (`by`), or what became of the last one."""
    undo = game.undo
    if undo is not None and undo.proposed_by is not None:
        return [
            {
                "kind": "answer_undo",
                "by": _SIDE_NAMES[undo.proposed_by.other],
                "asked_by": _SIDE_NAMES[undo.proposed_by],
                "seen": undo.seen_at_ms is not None,
                "until_ms": undo.lapses_at(),
            }
        ]
    outcome = game.undo_outcome
    if outcome is None:
        return []
    return [
        {
            "kind": "undo_outcome",
            "by": _SIDE_NAMES[outcome.asked_by.other],
            "asked_by": _SIDE_NAMES[outcome.asked_by],
            "end": outcome.end.value,
            "at_ms": outcome.at_ms,
        }
    ]
