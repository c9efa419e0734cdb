"""Time an offline merge moved onto a player who stayed online (`app.domain.time_moved`):
found when the merge is played, kept in its log row, shown on every screen of the table
(the phones word it by name) and to the EO, disputed by that player, settled by the EO."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.domain import commands as c
from app.domain import game as warmachine
from app.domain.clock import Side
from app.domain.game import Game
from app.domain.merge import Timed
from app.domain.time_moved import BACKDATE_LIMIT_MS, NOTE_FROM_MS, NoteState, TimeMoved
from app.domain.time_moved_rules import (
    DisputeTimeMoved,
    SettleTimeMoved,
    apply_note_command,
    note,
)

#: The offline commands that move time from one clock onto the other.
_CLOCK_MOVES = (c.PassTurn, c.SwitchClock)


def apply(game: Game, actor: c.Actor, command: Any, now_ms: int, *, logged: bool = False) -> Game:
    """The Warmachine table's rules, with the notes of time moved: their dispute and the
    EO's settlement (each checks who sends it). `logged`: as `warmachine.apply`."""
    if isinstance(command, DisputeTimeMoved | SettleTimeMoved):
        now_ms = max(now_ms, game.clock.since_ms)
        return apply_note_command(warmachine.decide_time(game, now_ms), actor, command, now_ms)
    return warmachine.apply(game, actor, command, now_ms, logged=logged)


def found(
    before: Game,
    after: Game,
    own: list[Timed],
    online: Callable[[Side, int, int], int],
    at: tuple[int, int],
    away: tuple[int, int],
    limited_from_ms: int | None,
) -> TimeMoved | None:
    """The time a merge moved onto the other player, if that player's phone was online
    for most of it (`online(side, start, end)`: how long it was heard within); `at`: the
    merge's version and moment."""
    version, now = at
    if not own:
        return None
    by = own[0].actor
    if not isinstance(by, Side):
        return None
    onto = by.other
    moved = before.remaining(onto, now) - after.remaining(onto, now)
    pass_at = next((t.at_ms for t in own if isinstance(t.command, _CLOCK_MOVES)), None)
    if moved < NOTE_FROM_MS or pass_at is None:
        return None
    if 2 * online(onto, pass_at, now) < now - pass_at:
        return None  # that phone was away too (the hall's Wi-Fi): the physical clock's
    return TimeMoved(version, by, onto, moved, pass_at, away, limited_from_ms)


def to_wire(moved: TimeMoved) -> dict[str, Any]:
    """A note as a merge's log row keeps it, and every screen sees it."""
    return {
        "id": moved.id,
        "by": moved.by.name.lower(),
        "onto": moved.onto.name.lower(),
        "moved_ms": moved.moved_ms,
        "pass_at_ms": moved.pass_at_ms,
        "away": list(moved.away),
        "limited_from_ms": moved.limited_from_ms,
        "state": moved.state.value,
        "settled_at_ms": moved.settled_at_ms,
    }


def from_wire(raw: dict[str, Any]) -> TimeMoved:
    since, back = raw["away"]
    return TimeMoved(
        id=int(raw["id"]),
        by=Side.parse(raw["by"]),
        onto=Side.parse(raw["onto"]),
        moved_ms=int(raw["moved_ms"]),
        pass_at_ms=int(raw["pass_at_ms"]),
        away=(int(since), int(back)),
        limited_from_ms=raw.get("limited_from_ms"),
    )


def noted(game: Game, wire: dict[str, Any]) -> Game:
    """The game after a merge's log row: the note it made, if it made one."""
    raw = wire.get("time_moved")
    return game if raw is None else note(game, from_wire(raw))


def view(game: Game) -> list[dict[str, Any]]:
    return [to_wire(moved) for moved in game.time_moved]


def seconds(ms: int) -> str:
    """19.9 s, 20 s, 2 min 05 s."""
    if ms < 60_000:
        return f"{ms / 1000:.1f}".removesuffix(".0") + " s"
    whole = round(ms / 1000)
    return f"{whole // 60} min {whole % 60:02d} s"


_SETTLED = {
    NoteState.OPEN: "{onto} can dispute it; the EO settles it.",
    NoteState.DISPUTED: "{onto} disputes it: the EO decides.",
    NoteState.GIVEN_BACK: "The EO gave the time back to {onto}.",
    NoteState.LET_STAND: "The EO let it stand.",
}


def words(game: Game, moved: TimeMoved) -> str:
    """The note in the EO's words, by the players' names."""
    by, onto = game.names[moved.by], game.names[moved.onto]
    since, back = moved.away
    text = (
        f"{by}'s phone was away {seconds(back - since)}; the pass it sent, dated "
        f"{seconds(max(0, back - moved.pass_at_ms))} before it came back, moved "
        f"{seconds(moved.moved_ms)} to {onto}'s clock."
    )
    if moved.limited_from_ms is not None:
        text += (
            f" The phone dated it earlier; a pass counts from no earlier than "
            f"{seconds(BACKDATE_LIMIT_MS)} before {onto}'s last command while {by}'s phone "
            "was away."
        )
    return text + " " + _SETTLED[moved.state].format(onto=onto)


def eo_view(game: Game) -> list[dict[str, Any]]:
    """What the EO's table view shows of them: each note, in words too."""
    return [{**to_wire(moved), "words": words(game, moved)} for moved in game.time_moved]
