"""Several workers: the placement of a table's commands. A command is applied here when
this worker owns its table; otherwise it goes to the owner through Redis, and its ack or
error comes back the same way (a dead owner's table is taken over meanwhile, here or
elsewhere, and asked again)."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from typing import Any

from app.cluster.ownership import Ownership
from app.domain import commands as c
from app.domain.errors import RuleError
from app.store.repository import Fenced
from app.tables.fanout import Subscriber
from app.tables.offline import Gap
from app.tables.placement import Queued
from app.tables.room import TableRoom
from app.tables.seats import Ack, actor_from_wire, actor_to_wire
from app.tables.snapshot import read as read_game
from app.tables.snapshot import write as write_game
from app.tables.warmachine.codec import (
    command_from_wire,
    command_to_wire,
    table_command_from_wire,
)

log = logging.getLogger(__name__)

ASK_S = 1.0  # the first try at the owner
ASK_AGAIN_S = 0.5  # each try after it: the owner may be dead, its lease about to lapse
FORWARD_S = 6.0  # every try: past this the phone hears "server trouble"


class ServerTrouble(RuleError):
    code = "server_trouble"


class Forwarding(Ownership):
    """The cluster's part that applies a command here or forwards it to its table's owner
    (`app.tables.placement`)."""

    _ids: itertools.count[int]

    async def execute(
        self,
        room: TableRoom,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command | Any,
        origin: Subscriber | None = None,
    ) -> Ack:
        if not self.applies(room):
            return await self.forward(room, actor, device, seq, command)
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
        """A phone's offline queue, its time away narrowed to when any worker last heard
        it (`sightings`), merged where the table is applied."""
        gap = await self.sightings.narrow(room, phone, gap)
        return await self._merge(room, actor, device, gap, base, queued)

    async def _merge(
        self,
        room: TableRoom,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: Queued,
    ) -> Ack:
        if not self.applies(room):
            return await self.forward_merge(room, actor, device, gap, base, queued)
        return await room.merge_offline(actor, device, gap, base, queued)

    def applies(self, room: TableRoom) -> bool:
        """Whether this worker applies the room's commands itself (else it forwards)."""
        if not self.backplane.healthy:
            raise ServerTrouble(
                "server trouble: the server cannot share this table's moves right now "
                f"({self.backplane.trouble}); it recovers by itself, try again in a moment"
            )
        return room.fence is not None

    async def forward(
        self, room: TableRoom, actor: c.Actor, device: str, seq: int, command: c.Command
    ) -> Ack:
        body = {"m": "cmd", "a": actor_to_wire(actor), "d": device, "s": seq}
        body["c"] = command_to_wire(command)
        return await self._forward(
            room, body, lambda: self.execute(room, actor, device, seq, command)
        )

    async def forward_merge(
        self,
        room: TableRoom,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: Queued,
    ) -> Ack:
        body: dict[str, Any] = {"m": "merge", "a": actor_to_wire(actor), "d": device, "b": base}
        body["q"] = [[s, at, command_to_wire(cmd)] for s, at, cmd in queued]
        if gap is not None:
            body["g"] = [gap.since_ms, gap.back_ms, gap.version, gap.back_version]
            if gap.game is not None:
                body["gg"] = write_game(gap.game)
        return await self._forward(
            room, body, lambda: self._merge(room, actor, device, gap, base, queued)
        )

    async def _forward(self, room: TableRoom, body: dict[str, Any], here: Callable[[], Any]) -> Ack:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FORWARD_S
        table_id = room.table_id
        asked = 0
        while True:
            owner = await self._owner(room)
            if owner == self.worker_id and room.fence is not None:
                try:
                    ack: Ack = await here()  # the owner asked before may have applied it
                    return Ack(ack.version, duplicate=ack.duplicate and not asked)  # not a repeat
                except Fenced:
                    self._lost(table_id)  # taken over meanwhile: ask the new owner
            if owner == self.worker_id:
                owner = None  # it was let go meanwhile: look again
            reply = None
            if owner is not None:
                reply = await self._ask(
                    owner, {**body, "t": table_id}, ASK_AGAIN_S if asked else ASK_S, deadline
                )
                asked += 1
            if reply is not None and "ok" in reply:
                # A second try found the first one applied: for the phone it is not a repeat.
                return Ack(reply["ok"][0], duplicate=reply["ok"][1] and asked == 1)
            if reply is not None and "err" in reply:
                raise RuleError(reply["err"][1], reply["err"][0])
            if room.fence is None:  # gone or moved: look again (not if taken over here)
                self._owners.pop(table_id, None)
            if loop.time() >= deadline:
                raise ServerTrouble(
                    "server trouble: the worker holding this table does not answer; "
                    "try again in a moment"
                )
            moved = owner is None or (reply is not None and reply.get("moved"))
            if moved and room.fence is None:  # (taken over here meanwhile: apply it now)
                await asyncio.sleep(0.1)

    async def _ask(
        self, owner: str, envelope: dict[str, Any], wait_s: float, deadline: float
    ) -> dict[str, Any] | None:
        """The owner's reply, or None: it is not alive any more, the message may have
        been lost with Redis's connection, or the deadline passed. A live owner that is
        slow to answer (a busy hall) is waited for, not asked again: asking again adds
        to what keeps it busy."""
        loop = asyncio.get_running_loop()
        request = next(self._ids)
        done: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._replies[request] = (envelope["t"], done)
        envelope.update(k="cmd", id=request, to=owner)
        epoch = self.backplane.epoch
        try:
            if not self.backplane.send(f"w:{owner}", envelope):
                self.applies_or_raise()
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(done), wait_s)
                except TimeoutError:
                    still_there = owner in self.alive and self.backplane.epoch == epoch
                    if not still_there or loop.time() + ASK_AGAIN_S >= deadline:
                        return None
                    wait_s = ASK_AGAIN_S
        finally:
            self._replies.pop(request, None)

    def applies_or_raise(self) -> None:
        if not self.backplane.healthy:
            raise ServerTrouble(f"server trouble: {self.backplane.trouble}; try again in a moment")

    def _on_reply(self, envelope: dict[str, Any]) -> None:
        asked = self._replies.get(envelope.get("id", 0))
        if asked is not None and not asked[1].done():
            asked[1].set_result(envelope)

    def _on_command(self, envelope: dict[str, Any]) -> None:
        self.spawn(self._serve(envelope))

    async def _serve(self, envelope: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "rep", "id": envelope["id"]}
        room = self.hub.get(envelope["t"])
        if room is None or room.fence is None:
            reply["moved"] = True
        else:
            try:
                ack = await self._apply(room, envelope)
                reply["ok"] = [ack.version, ack.duplicate]
            except RuleError as exc:
                reply["err"] = [exc.code, exc.message]
            except Exception:
                log.exception("a forwarded command failed on table %s", room.table_id)
                reply["err"] = ["internal", "the command could not be saved; not applied"]
        self.backplane.send(f"w:{envelope['w']}", reply)

    async def _apply(self, room: TableRoom, envelope: dict[str, Any]) -> Ack:
        actor = actor_from_wire(envelope["a"])
        if envelope["m"] == "cmd":
            command = table_command_from_wire(envelope["c"])
            return await self.execute(room, actor, envelope["d"], envelope["s"], command)
        gap = None
        if "g" in envelope:
            since, back, version, back_version = envelope["g"]
            game = read_game(envelope["gg"]) if "gg" in envelope else None
            gap = Gap(since, back, version, game, back_version)
        queued = [(s, at, command_from_wire(w)) for s, at, w in envelope["q"]]
        return await self._merge(room, actor, envelope["d"], gap, envelope["b"], queued)
