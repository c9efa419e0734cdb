"""Time an offline merge moved onto a player whose phone stayed online.

A phone that was away sends its taps with their times on its return, and the merge
plays them where they were dated, as a physical clock would have run. When the other
player's phone was online all the while, it showed that player the passer's clock
running; a pass dated back moves that time onto them afterwards. The table keeps a note
of it, which both players see; the player it moved time onto may dispute it, and the
EO settles it (gives the time back, or lets it stand).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.domain.clock import Side

#: How far back a merged pass may be dated before the last command the table took from
#: the other player's phone while it was online: that player was using the table then,
#: and their phone showed the passer's clock running.
BACKDATE_LIMIT_MS = 2_000
#: Less than this moved is no note.
NOTE_FROM_MS = 1_000
#: A table's notes: past this many, the oldest settled ones go first; a note the EO has
#: not settled never goes (a merge that would make one more is refused: `full`).
NOTES_KEPT = 16


class NoteState(StrEnum):
    OPEN = "open"
    DISPUTED = "disputed"
    GIVEN_BACK = "given_back"
    LET_STAND = "let_stand"


@dataclass(frozen=True, slots=True)
class TimeMoved:
    """`moved_ms` moved onto `onto`'s clock by `by`'s offline pass (dated `pass_at_ms`,
    as counted) while `by`'s phone was away (`away`: from, to); `limited_from_ms`: the
    earliest the pass could count (the limit), when the phone dated it earlier."""

    id: int  # the merge's version in the table's log
    by: Side
    onto: Side
    moved_ms: int
    pass_at_ms: int
    away: tuple[int, int]
    limited_from_ms: int | None = None
    state: NoteState = NoteState.OPEN
    settled_at_ms: int | None = None

    @property
    def settled(self) -> bool:
        return self.state in (NoteState.GIVEN_BACK, NoteState.LET_STAND)


def kept(notes: tuple[TimeMoved, ...]) -> tuple[TimeMoved, ...]:
    """At most NOTES_KEPT notes where settled ones can make room: the oldest settled
    ones are let go first; an open or disputed note never is (the EO may still give the
    time back)."""
    notes = tuple(notes)
    while len(notes) > NOTES_KEPT:
        settled = next((n for n in notes if n.settled), None)
        if settled is None:
            break
        notes = tuple(n for n in notes if n is not settled)
    return notes


def full(notes: tuple[TimeMoved, ...]) -> bool:
    """No room for another note: NOTES_KEPT of them wait for the EO."""
    return sum(1 for n in notes if not n.settled) >= NOTES_KEPT
