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

The cluster is the placement of several workers (app.tables.placement): its parts are
`news` (what the others changed), `ownership` (the lease, and which tables are this
worker's), `forwarding` (a command applied here or at its owner) and `following` (the
others' tables followed from their log entries).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import secrets
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from app.cluster.backplane import Backplane, RelayChannel
from app.cluster.following import catch_up, follow, followed, replicate
from app.cluster.forwarding import Forwarding
from app.cluster.sightings import Sightings
from app.store.lease import Leases
from app.store.log_entry import LogEntry
from app.store.tails import logs_after
from app.tables.hub import TableHub
from app.tables.reads import BatchedReads
from app.tables.room import TableRoom


def new_worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster(Forwarding):
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
        #: Tables read from the store for sockets, with the owner's moves after them.
        self._logs: BatchedReads[str, int, list[LogEntry]] = BatchedReads(
            lambda asked: logs_after(self.hub.store.engine, asked)
        )
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
        hub.sharing = self
        hub.placement = self
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
        self._logs.close()
        self._renewer.shutdown(wait=False)
        self._sweeper.shutdown(wait=False)

    # -- the hub's tables, shared -----------------------------------------------------

    def attach(self, room: TableRoom) -> None:
        """A table here: its events go to the other workers too, and its owner's events
        are followed (its commands reach it through the cluster, its placement)."""
        room.fence = self.owned.get(room.table_id)
        room.follows = room.fence is None
        room.share = functools.partial(replicate, room)
        room.record_changed = self.meta_changed
        channel = room.channel
        if isinstance(channel, RelayChannel):
            channel.on_remote = lambda envelope: self._followed(room, envelope)

    def opened(self, room: TableRoom) -> None:
        """A new table: the others load it if an event has it. Nobody owns it yet: the
        worker that gets its first command takes it (`_owner`), which is where a phone
        of the table is, rather than where the EO's page or the creating call was; its
        clock does not run before a command starts it."""
        self.backplane.send("all", {"k": "open", "t": room.table_id, "ev": room.meta is not None})

    async def read_back(self, room: TableRoom) -> None:
        """A table read from the store for a socket: the owner's moves while it was read
        went by before this worker followed the table; read them too (the ones it relays
        from now on are followed)."""
        later = await self._logs.read(room.table_id, room.version)
        if not follow(room, [entry for entry in later if entry.version > room.version]):
            catch_up(room)

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
