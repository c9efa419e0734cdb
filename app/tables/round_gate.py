"""An event's table waits for its round: until the organiser starts the round, a seat's
command is refused with the reason, and a seat or a watcher sees the table, the players
and the round, nothing of the scenario (RP4: it is announced at the round's start).

The round's start is the table's first command (the organiser's: its clock, its
pre-game or its round timer), so the gate stands in the table's own log: on every
worker, and after a restart, an event's table with nothing logged is waiting for its
round. A quick game has no round, and no gate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.tables.seats import ROLES, TableMeta

if TYPE_CHECKING:
    from app.tables.table import Table

#: The table fields a waiting screen keeps (none of them says anything of the scenario).
_WAITING_FIELDS = ("id", "game", "format", "names")


class RoundNotStarted(RuleError):
    code = "not_started"


def waiting(meta: TableMeta | None, version: int) -> bool:
    """The table is an event's whose round the organiser has not started yet."""
    return meta is not None and version == 0


def first_known(room: Table) -> bool:
    """Who goes first may be named: not while an event's table waits for its round (the
    table settles it off the clock once the round starts: the starting roll's winner
    chooses)."""
    return not waiting(room.meta, room.version)


def round_info(meta: TableMeta | None, version: int) -> dict[str, Any] | None:
    """The round a table is of, and whether it has started (None: a quick game)."""
    if meta is None:
        return None
    return {"number": meta.round_number, "table_no": meta.table_no, "started": version > 0}


def check(meta: TableMeta | None, version: int, actor: c.Actor, command: object) -> None:
    """Refuse what a table cannot take for want of a round: a seat's command before the
    organiser starts the table's round; a tie called on a quick game (DC8 is a round's).
    The organiser's commands pass: the round's start is one (see `check_eo` for the
    organiser's command to one table alone)."""
    if isinstance(command, c.CallTie) and meta is None:
        raise RuleError("a quick game has no round, so no round time to call a tie on")
    if meta is not None and isinstance(actor, Side) and waiting(meta, version):
        raise RoundNotStarted(not_started(meta))


def check_eo(room: Table) -> None:
    """The organiser's command for one table waits for the round's start too: the
    round starts every table at once."""
    meta = room.meta
    if meta is not None and waiting(meta, room.version):
        raise RoundNotStarted(
            f"Round {meta.round_number} has not started: start the round first, "
            "which starts every table of it"
        )


def not_started(meta: TableMeta) -> str:
    return f"Round {meta.round_number} has not started: wait for the organiser to start it"


def screen(
    meta: TableMeta | None, version: int, role: str, table: dict[str, Any], game: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a screen of `role` is sent of the table and its game: while the round waits,
    a seat's or a watcher's only the table, the players and the round."""
    table["round"] = round_info(meta, version)
    if role == "eo" or not waiting(meta, version):
        return table, game
    shown = {name: table[name] for name in _WAITING_FIELDS if name in table}
    shown["round"] = table["round"]
    return shown, {"phase": "waiting", "names": list(table.get("names", ()))}


def to_refresh(
    room: Table, opened: bool, before: Any, after: Any, actor: c.Actor
) -> tuple[str, ...]:
    """The screens that need the table afresh after a command: every one when it was the
    round's start (`opened`: the table was waiting), the scenario shown from now on;
    else those the engine names."""
    if opened and room.meta is not None:
        return ROLES
    return room.engine.to_refresh(before, after, actor)
