"""Undo by agreement: a player asks to undo the last tap within 10 s of it; the opponent
answers within 10 s of their phone showing the request. What became of each request
(accepted, declined, lapsed, or overtaken by the game) is recorded: none is lost.

Every moment here is the server's: a phone only says that it shows the request, and the
server starts the opponent's window when it hears so. A request no phone of the opponent's
showed lapses 60 s after it was asked; the game's next tap, switch or decision overtakes
any request still open.
"""

from __future__ import annotations

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.clock_out import decide_flag
from app.domain.errors import NotYourSeat, RuleError, StaleCommand
from app.domain.frozen import replace
from app.domain.state import (
    UNDO_WINDOW_MS,
    Game,
    Undo,
    UndoEnd,
    UndoOutcome,
    seat_of,
)

#: What a late answer or report is told, by what became of the request.
_TOO_LATE = {
    UndoEnd.LAPSED: "too late: the request to undo lapsed unanswered",
    UndoEnd.UNSEEN: "too late: the request to undo lapsed before it was shown",
    UndoEnd.SUPERSEDED: "too late: the game went on before the undo was answered",
}


def propose_undo(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """Ask to undo the last tap, within 10 s of it (the server's times)."""
    seat = seat_of(actor)
    undo = game.undo
    if undo is None:
        raise RuleError("there is no tap to undo")
    if undo.proposed_by is seat:
        raise StaleCommand("you asked already: waiting for your opponent's answer")
    if undo.proposed_by is not None:
        raise RuleError("your opponent asked to undo this tap: answer their request")
    if now_ms - undo.tap_at_ms > UNDO_WINDOW_MS:
        raise RuleError("a tap can only be undone within 10 seconds")
    asked = replace(undo, proposed_by=seat, proposed_at_ms=now_ms)
    return replace(game, undo=asked, undo_outcome=None)


def undo_seen(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """The opponent's phone shows the request: their 10 s start now. A report cannot
    move the start back, nor forward once it is made."""
    undo = _asked(game, seat_of(actor), "only your opponent's phone reports your request shown")
    if undo.seen_at_ms is not None:
        raise StaleCommand("the request to undo is shown already")
    return replace(game, undo=replace(undo, seen_at_ms=now_ms))


def answer_undo(game: Game, actor: c.Actor, cmd: c.AnswerUndo, now_ms: int) -> Game:
    """Accepted: the game as before the tap, its clocks as if the tap never happened (the
    time since went on running for the player who tapped). Declined: the tap stands."""
    undo = _asked(game, seat_of(actor), "the other player must agree to the undo")
    assert undo.proposed_by is not None
    if not cmd.accept:
        outcome = UndoOutcome(undo.proposed_by, UndoEnd.DECLINED, now_ms)
        return replace(game, undo=None, undo_outcome=outcome)
    restored = decide_flag(undo.before, now_ms)
    return replace(restored, undo_outcome=UndoOutcome(undo.proposed_by, UndoEnd.ACCEPTED, now_ms))


def _asked(game: Game, seat: Side, not_yours: str) -> Undo:
    """The open request `seat` answers, or why there is none for it."""
    undo = game.undo
    if undo is None or undo.proposed_by is None:
        ended = game.undo_outcome
        if ended is not None and ended.end in _TOO_LATE:
            raise RuleError(_TOO_LATE[ended.end])
        raise RuleError("no undo has been asked for")
    if seat is undo.proposed_by:
        raise NotYourSeat(not_yours)
    return undo


def lapses_at(game: Game) -> int | None:
    """When the open request lapses unanswered (None: none is open)."""
    return None if game.undo is None else game.undo.lapses_at()


def lapse(game: Game) -> Game:
    """The open request lapses, at its moment."""
    undo = game.undo
    at_ms = lapses_at(game)
    assert undo is not None and undo.proposed_by is not None and at_ms is not None
    end = UndoEnd.UNSEEN if undo.seen_at_ms is None else UndoEnd.LAPSED
    return replace(game, undo=None, undo_outcome=UndoOutcome(undo.proposed_by, end, at_ms))


def settle(before: Game, after: Game, at_ms: int) -> Game:
    """A request open in `before` that `after` no longer holds, with nothing recorded of
    it, was overtaken by the game at `at_ms` (a tap, a switch, the EO, a flag, the end)."""
    undo = before.undo
    if undo is None or undo.proposed_by is None or after.undo_outcome is not None:
        return after
    if after.undo is not None and after.undo.proposed_by is not None:
        return after  # still open
    outcome = UndoOutcome(undo.proposed_by, UndoEnd.SUPERSEDED, at_ms)
    return replace(after, undo_outcome=outcome)
