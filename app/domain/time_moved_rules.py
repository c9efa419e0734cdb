"""The rules of a time-moved note (`time_moved`): it is noted by the merge that moved
the time, disputed by the player it moved time onto, and settled by the EO."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain import commands as c
from app.domain import judge
from app.domain.clock import Side
from app.domain.clock_out import decide_flag
from app.domain.errors import NotFound, NotYourSeat, RuleError
from app.domain.frozen import replace
from app.domain.state import Game
from app.domain.time_moved import NoteState, TimeMoved, kept


@dataclass(frozen=True, slots=True)
class DisputeTimeMoved:
    """The player a merge moved time onto asks the EO to look at it."""

    note: int


@dataclass(frozen=True, slots=True)
class SettleTimeMoved:
    """The EO gives the moved time back (a clock adjustment of both clocks) or lets the
    merge stand."""

    note: int
    give_back: bool


NoteCommand = DisputeTimeMoved | SettleTimeMoved


def note(game: Game, moved: TimeMoved) -> Game:
    return replace(game, time_moved=kept((*game.time_moved, moved)))


def _find(game: Game, note_id: int) -> TimeMoved:
    for found in game.time_moved:
        if found.id == note_id:
            return found
    raise NotFound("no such note of time moved at this table")


def _put(game: Game, changed: TimeMoved) -> Game:
    notes = tuple(changed if n.id == changed.id else n for n in game.time_moved)
    return replace(game, time_moved=notes)


def dispute(game: Game, actor: c.Actor, cmd: DisputeTimeMoved) -> Game:
    found = _find(game, cmd.note)
    if actor is not found.onto:
        raise NotYourSeat("only the player the time was moved onto can dispute it")
    if found.state is not NoteState.OPEN:
        raise RuleError("this is with the EO already" if not found.settled else "the EO settled it")
    return _put(game, replace(found, state=NoteState.DISPUTED))


def settle(game: Game, actor: c.Actor, cmd: SettleTimeMoved, now_ms: int) -> Game:
    """The EO's decision; giving the time back is the EO's clock adjustment, on both
    clocks: the moved time back onto the passer's, off the other player's."""
    if actor is not c.Role.EO:
        raise NotYourSeat("only the EO settles time moved by an offline pass")
    found = _find(game, cmd.note)
    if found.settled:
        raise RuleError("the EO settled it already")
    if cmd.give_back:
        game = _give_back(game, found, now_ms)
    state = NoteState.GIVEN_BACK if cmd.give_back else NoteState.LET_STAND
    return _put(game, replace(found, state=state, settled_at_ms=now_ms))


def _give_back(game: Game, found: TimeMoved, now_ms: int) -> Game:
    limit = game.setup.player_clock_ms
    onto = min(limit, game.remaining(found.onto, now_ms) + found.moved_ms)
    by = max(0, game.remaining(found.by, now_ms) - found.moved_ms)
    for side, left in ((found.onto, onto), (found.by, by)):
        adjust = c.AdjustClock(side=Side(side), remaining_ms=left)
        game = judge.adjust(game, c.Role.EO, adjust, now_ms)
    return decide_flag(game, now_ms)


def apply_note_command(game: Game, actor: c.Actor, command: NoteCommand, now_ms: int) -> Game:
    if isinstance(command, DisputeTimeMoved):
        return dispute(game, actor, command)
    return settle(game, actor, command, now_ms)
