"""Several workers on one PostgreSQL and one Redis: one owner per table.

Any worker accepts any socket. Every worker keeps the tables it has open as followers of their
owners: the owner applies a table's commands (one writer, in order, with its fencing token:
app.store.lease), writes them to the log, and sends each event with its log entry through
Redis; the other workers apply the entry to their copy and hand the event to their own screens,
so dashboards on any worker see every table. A command that reaches a worker which does not own
its table goes to the owner through Redis, and its ack or error comes back the same way.

A worker that dies loses its lease (at once if its process ended: app.store.lease's life
line); another takes each of its tables over (rendezvous hashing picks which), reads what it
had not seen, and goes on: every acked command is in the log, and the fencing token keeps the
old owner from writing. Without Redis a worker cannot tell the others what it applies, so it
refuses commands ("server trouble") until Redis returns, then reads back what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from app.domain import commands as c
from app.domain.errors import RuleError
from app.store.lease import Leases, heir
from app.store.repository import Fenced, LogEntry
from app.store.tails import logs_after
from app.tables.backplane import Backplane, RelayChannel
from app.tables.codec import (
    actor_from_wire,
    actor_to_wire,
    command_from_wire,
    command_to_wire,
    table_command_from_wire,
)
from app.tables.following import catch_up, followed
from app.tables.news import News
from app.tables.offline import Gap
from app.tables.room import Ack, TableRoom
from app.tables.sightings import Sightings
from app.tables.snapshot import read as read_game
from app.tables.snapshot import write as write_game

if TYPE_CHECKING:
    from app.tables.hub import TableHub

log = logging.getLogger(__name__)

Claimed = tuple[int, list[LogEntry]]  # a table taken: its new token, the log read after it

ASK_S = 1.0  # the first try at the owner
ASK_AGAIN_S = 0.5  # each try after it: the owner may be dead, its lease about to lapse
FORWARD_S = 6.0  # every try: past this the phone hears "server trouble"


class ServerTrouble(RuleError):
    code = "server_trouble"


def new_worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster(News):
    def __init__(self, hub: TableHub, backplane: Backplane, leases: Leases) -> None:
        self.hub, self.backplane, self.leases = hub, backplane, leases
        self.worker_id = leases.worker_id
        self.owned: dict[str, int] = {}
        self.alive: list[str] = []
        self.lease_ok = False
        #: Whether the next sweep reads who holds this worker's tables: at least once a
        #: lease's time, and at once after a renewal that found the lease lapsed or near it
        #: (only then can another worker have taken one: `Leases.held`).
        self._holders_due = True
        self._holders_at = 0.0
        #: A sweep scans every table for orphans only once a worker seen alive since the
        #: last scan is gone, or it left orphans to another heir (and once a lease's time).
        self._seen_alive: set[str] = set()
        self._orphans_left = True
        self._owners: dict[str, str] = {}
        #: Each forwarded command's request: its table, and the future its reply settles.
        self._replies: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._ids = itertools.count(1)
        self._beat: asyncio.Task[None] | None = None
        self._sweep: asyncio.Task[None] | None = None
        self._renewer = ThreadPoolExecutor(1, thread_name_prefix="lease")
        self.sightings = Sightings(hub, backplane)
        self._sweeper = ThreadPoolExecutor(1, thread_name_prefix="sweep")  # not behind lookups
        self._tasks: set[asyncio.Task[None]] = set()
        #: Told an event's id when another worker changed the event.
        self.event_listeners: list[Callable[[str], None]] = []
        self._relaying = False
        handlers = backplane.handlers
        handlers["cmd"] = self._on_command
        handlers["rep"] = self._on_reply
        handlers["open"] = self._on_open
        handlers["meta"] = self._on_meta
        handlers["ev"] = self._on_event
        backplane.on_recover.append(self._recover)

    # -- life -------------------------------------------------------------------------

    async def start(self) -> None:
        hub = self.hub
        hub.cluster = self
        for room in hub.rooms.values():
            self.attach(room)
        await self.backplane.start()
        await self.beat()
        self._beat = asyncio.create_task(self._renew_forever())
        self._sweep = asyncio.create_task(self._sweep_forever())

    async def close(self) -> None:
        """A clean stop: the tables go to the other workers at once."""
        for task in (self._beat, self._sweep):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.resign)
        await asyncio.to_thread(self.leases.close)
        for room in self.hub.rooms.values():
            room.own(None)
        self.owned.clear()
        await self.backplane.close()
        self._renewer.shutdown(wait=False)
        self._sweeper.shutdown(wait=False)

    async def _renew_forever(self) -> None:
        """The lease, renewed on its own: however long a sweep takes, it never lapses."""
        every = self.leases.ttl_ms / 4000
        while True:
            await asyncio.sleep(every)
            try:
                await self.renew()
            except Exception as exc:
                self.lease_ok, self._holders_due = False, True
                log.error("the worker's lease could not be renewed: %s", exc)

    async def _sweep_forever(self) -> None:
        every = self.leases.ttl_ms / 8000  # an orphan is found within an eighth of a lease
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:
                log.exception("looking for tables to take over failed")

    async def beat(self) -> None:
        await self.renew()
        await self.sweep()

    async def renew(self) -> None:
        """On a thread of its own: never queued behind the lookups of a busy moment."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.alive = await loop.run_in_executor(self._renewer, self.leases.renew)
        self._seen_alive.update(self.alive)
        if not self.leases.held:
            self._holders_due = True
        self.sightings.now_alive(self.alive)
        if (took := loop.time() - started) > (lasts := self.leases.ttl_ms / 1000) / 2:
            log.warning("renewing the lease took %.2f s (it lasts %.1f s)", took, lasts)
        self.lease_ok = True

    async def sweep(self) -> None:
        """Let go of tables another worker took; take over orphaned ones (a thread of its own)."""
        loop = asyncio.get_running_loop()
        thorough = self._holders_due or loop.time() - self._holders_at >= self.leases.ttl_ms / 1000
        if thorough:  # once a lease's time: the reads that go through every table
            await self._check_holders(loop)
        alive = await loop.run_in_executor(self._sweeper, self.leases.alive)
        gone = self._seen_alive.difference(alive)
        self._seen_alive.update(alive)
        if not (thorough or gone or self._orphans_left):
            return  # no worker seen alive since the last scan has gone: no table lost its owner
        orphans = await loop.run_in_executor(self._sweeper, self.leases.orphans, thorough)
        if orphans:
            await self.renew()  # who is alive now (a dead owner was, at the last renewal)
        mine = [t for t in orphans if heir(t, self.alive) == self.worker_id]
        taken = await loop.run_in_executor(self._sweeper, self.leases.claim_all, mine)
        seen = {t: room.version for t in taken if (room := self.hub.get(t)) is not None}
        logs = await loop.run_in_executor(self._sweeper, logs_after, self.hub.store.engine, seen)
        for table_id, token in taken.items():
            self._took(table_id, token, logs.get(table_id))
        self._seen_alive -= gone  # scanned for; whoever a renewal saw meanwhile stays seen
        self._orphans_left = len(taken) < len(orphans)

    async def _check_holders(self, loop: asyncio.AbstractEventLoop) -> None:
        """Let go of the tables another worker holds now."""
        before, self._holders_due = dict(self.owned), False
        try:
            held = await loop.run_in_executor(self._sweeper, self.leases.holders, list(before))
        except Exception:
            self._holders_due = True
            raise
        self._holders_at = loop.time()
        for table_id, fence in before.items():
            owner, token = held.get(table_id, (None, 0))
            if self.owned.get(table_id) == fence and (owner != self.worker_id or token > fence):
                self._lost(table_id)

    # -- ownership ----------------------------------------------------------------------

    def attach(self, room: TableRoom) -> None:
        room.cluster = self
        room.fence = self.owned.get(room.table_id)
        channel = room.channel
        if isinstance(channel, RelayChannel):
            channel.on_remote = lambda envelope: self._followed(room, envelope)

    def applies(self, room: TableRoom) -> bool:
        """Whether this worker applies the room's commands itself (else it forwards)."""
        if not self.backplane.healthy:
            raise ServerTrouble(
                "server trouble: the server cannot share this table's moves right now "
                f"({self.backplane.trouble}); it recovers by itself, try again in a moment"
            )
        return room.fence is not None

    def _claim_or_find(self, table_id: str, after: int) -> tuple[Claimed | None, str | None]:
        """(A thread: a round begins with every table's first command at once.) The new
        token and the log after `after`, read once the claim fenced out any owner before;
        or the live worker that owns the table."""
        token, owner = self.leases.claim_or_owner(table_id)
        if token is None:
            return None, owner
        return (token, self.hub.store.log(table_id, after=after)), owner

    def _took(self, table_id: str, token: int, read: list[LogEntry] | None = None) -> bool:
        if self.owned.get(table_id, 0) >= token:
            return True  # taken meanwhile (a command asked for it), with a newer token
        room = self.hub.get(table_id)
        if room is None:
            return False
        catch_up(room, read)
        self.owned[table_id] = token
        self._owners[table_id] = self.worker_id
        room.own(token)
        log.info("worker %s took table %s over (token %s)", self.worker_id, table_id, token)
        self._wake_asks(table_id)
        return True

    def _wake_asks(self, table_id: str) -> None:
        """Commands forwarded to the table's dead owner are applied here now, at once,
        rather than once their asks time out (the takeover read the owner's log: one it
        applied before it died is a repeat)."""
        for asked, done in tuple(self._replies.values()):
            if asked == table_id and not done.done():
                done.set_result({"moved": True})

    def _lost(self, table_id: str) -> None:
        self.owned.pop(table_id, None)
        self._owners.pop(table_id, None)
        room = self.hub.rooms.get(table_id)
        if room is not None:
            room.own(None)

    def opened(self, room: TableRoom) -> None:
        """A new table: the others load it if an event has it. Nobody owns it yet: the
        worker that gets its first command takes it (`_owner`), which is where a phone
        of the table is, rather than where the EO's page or the creating call was; its
        clock does not run before a command starts it."""
        self.backplane.send("all", {"k": "open", "t": room.table_id, "ev": room.meta is not None})

    async def _owner(self, room: TableRoom) -> str | None:
        """The worker that applies the room's commands: this one once it holds the table."""
        table_id = room.table_id
        owner = self._owners.get(table_id)
        if owner is None or (owner == self.worker_id and room.fence is None):
            claimed, owner = await asyncio.to_thread(self._claim_or_find, table_id, room.version)
            if claimed is not None:
                owner = self.worker_id if self._took(table_id, *claimed) else None
            elif room.fence is not None:  # taken meanwhile (another command, the sweep)
                return self.worker_id
            if owner is not None:
                self._owners[table_id] = owner
        return owner

    # -- forwarding ---------------------------------------------------------------------

    async def forward(
        self, room: TableRoom, actor: c.Actor, device: str, seq: int, command: c.Command
    ) -> Ack:
        body = {"m": "cmd", "a": actor_to_wire(actor), "d": device, "s": seq}
        body["c"] = command_to_wire(command)
        return await self._forward(room, body, lambda: room.execute(actor, device, seq, command))

    async def forward_merge(
        self,
        room: TableRoom,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: list[tuple[int, int, c.Command]],
    ) -> Ack:
        body: dict[str, Any] = {"m": "merge", "a": actor_to_wire(actor), "d": device, "b": base}
        body["q"] = [[s, at, command_to_wire(cmd)] for s, at, cmd in queued]
        if gap is not None:
            body["g"] = [gap.since_ms, gap.back_ms, gap.version, gap.back_version]
            if gap.game is not None:
                body["gg"] = write_game(gap.game)
        return await self._forward(
            room, body, lambda: room.merge_offline(actor, device, gap, base, queued)
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
            return await room.execute(actor, envelope["d"], envelope["s"], command)
        gap = None
        if "g" in envelope:
            since, back, version, back_version = envelope["g"]
            game = read_game(envelope["gg"]) if "gg" in envelope else None
            gap = Gap(since, back, version, game, back_version)
        queued = [(s, at, command_from_wire(w)) for s, at, w in envelope["q"]]
        return await room.merge_offline(actor, envelope["d"], gap, envelope["b"], queued)

    # -- following the owners -----------------------------------------------------------

    def _followed(self, room: TableRoom, envelope: dict[str, Any]) -> None:
        if "presence" in envelope:
            room.screens.heard(envelope["w"], envelope["presence"], bool(envelope.get("ask")))
            return
        if "e" not in envelope or envelope["e"][0] <= room.version:
            return  # seen already (read from the store at a takeover, say)
        if room.fence is not None:  # another worker took it over: it writes now
            self._lost(room.table_id)
        self._owners[room.table_id] = envelope["w"]
        if not followed(room, LogEntry(*envelope["e"]), envelope["text"]):
            catch_up(room)

    async def _recover(self) -> None:
        """Redis is back: what went by meanwhile, read for all followed tables at once."""
        held = {t: room.version for t, room in self.hub.rooms.items() if room.fence is None}
        loop = asyncio.get_running_loop()  # (on a thread: thousands of tables, the loop serves on)
        logs = await loop.run_in_executor(self._sweeper, logs_after, self.hub.store.engine, held)
        for table_id, read in logs.items():
            if (room := self.hub.rooms.get(table_id)) is not None and room.fence is None:
                catch_up(room, read)
        for room in tuple(self.hub.rooms.values()):
            room.screens.share_again()

    # -- what the health endpoint says -------------------------------------------------

    def health(self) -> dict[str, Any]:
        return {
            "worker": self.worker_id,
            "redis": "ok" if self.backplane.healthy else self.backplane.trouble,
            "lease": "ok" if self.lease_ok else "not renewed",
            "life_line": self.leases.life_line,
            "workers_alive": len(self.alive),
            "tables_owned": len(self.owned),
        }
