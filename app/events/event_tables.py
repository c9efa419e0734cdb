"""An event's live tables as the EO reaches them: every table of the event in order,
one table (none of another event's), what the EO needs of it to settle it, and a
command of the EO's own to it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import NotFound
from app.events.book import EventBook
from app.events.eo_log import table_names
from app.tables import round_gate
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.room import TableRoom
from app.tables.timesource import TimeSource


class EventTables:
    def __init__(
        self, book: EventBook, hub: TableHub, placement: Placement, time: TimeSource
    ) -> None:
        self.book = book
        self.hub = hub
        self.placement = placement
        self.time = time

    def rooms(self, event_id: str) -> list[TableRoom]:
        """Every live table of the event, by round, then table number."""
        return sorted(
            self.hub.event_tables(event_id),
            key=lambda r: (r.meta.round_number, r.meta.table_no) if r.meta else (0, 0),
        )

    def get(self, event_id: str, table_id: str) -> TableRoom:
        """A live table of this event (NotFound for any other)."""
        room = self.hub.get(table_id)
        if room is None or room.meta is None or room.meta.event_id != event_id:
            raise NotFound(f"no table {table_id!r} in this event")
        return room

    def detail(self, event_id: str, table_id: str) -> dict[str, Any]:
        """What the EO needs of one table to settle it, as its engine says (a Warmachine
        table: its dispute and both players' reports, in seat order), and its players in
        seat order: the pairing's first, then its second, whoever goes first."""
        room = self.get(event_id, table_id)
        detail = room.engine.detail(table_id, room.game, self.time.now_ms())
        return {**detail, "players": seated_players(room)}

    async def command(
        self, event_id: str, table_id: str, wire: Mapping[str, Any]
    ) -> tuple[TableRoom, int]:
        """The EO sends one table a command of its own (a Warmachine table: pause, resume,
        adjust, tie; a Runewars table: start or call its round timer), as the table's
        engine reads it; logged in its log and the EO's. The table and the version the
        command made come back."""
        room = self.get(event_id, table_id)
        command = room.engine.eo_command(wire)
        round_gate.check_eo(room)
        ack = await self.placement.execute(room, c.Role.EO, "", 0, command)
        detail = dict(wire)
        side, names = getattr(command, "side", None), getattr(room.game, "names", None)
        if isinstance(side, Side) and names is not None:  # the log names whose clock it was
            detail["name"] = names[side]  # the game's sides: P1 goes first, whichever seat
        action, players = f"table_{wire.get('c')}", table_names(room)
        self.book.log(event_id, action, table=table_id, detail=detail, names=players)
        return room, ack.version


def seated_players(room: TableRoom) -> list[dict[str, Any]]:
    """An event table's two players in seat order (the pairing's): id, name, and whether
    they go first (None: not decided yet)."""
    meta = room.meta
    ids = ("", "") if meta is None else (meta.p1_player, meta.p2_player)
    first = room.engine.summary(room.game).get("first") if round_gate.first_known(room) else None
    return [
        {
            "id": ids[seat],
            "name": room.game.setup.names[seat],
            "first": None if first is None else first is seat,
        }
        for seat in Side
    ]
