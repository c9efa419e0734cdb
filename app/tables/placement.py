"""Where a table's commands are applied: every command from outside the room (a socket's,
the organiser's, the server's own timers') goes to the placement, which applies it at the
table's room here, or (several workers: app.cluster) forwards it to the worker that owns
the table. One worker is placed `Alone`: every table is applied here."""

from __future__ import annotations

from typing import Any, Protocol

from app.domain import commands as c
from app.tables.fanout import Subscriber
from app.tables.offline import Gap
from app.tables.room import TableRoom
from app.tables.seats import Ack

Queued = list[tuple[int, int, c.Command]]  # an offline queue: seq, server time, command


class Placement(Protocol):
    async def execute(
        self,
        room: TableRoom,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command | Any,
        origin: Subscriber | None = None,
    ) -> Ack:
        """Apply a command once, where the table is applied; durable before its ack."""
        ...

    async def merge_offline(
        self,
        room: TableRoom,
        phone: str,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: Queued,
    ) -> Ack:
        """Merge the offline queue of `phone` (its seat and device), gone for `gap`."""
        ...


class Alone:
    """One worker: every table is here, and its commands are applied here."""

    async def execute(
        self,
        room: TableRoom,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command | Any,
        origin: Subscriber | None = None,
    ) -> Ack:
        return await room.apply(actor, device, seq, command, origin)

    async def merge_offline(
        self,
        room: TableRoom,
        phone: str,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: Queued,
    ) -> Ack:
        return await room.merge_offline(actor, device, gap, base, queued)
