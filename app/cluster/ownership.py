"""Several workers: which worker applies which table's commands, held by its lease.

The lease is renewed on a thread of its own; a sweep lets go of the tables another
worker took and takes over the orphans of a dead one (rendezvous hashing picks which
worker), reading what it had not seen first (app.store.lease)."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from app.cluster.following import catch_up
from app.cluster.news import News
from app.cluster.sightings import Sightings
from app.store.lease import Leases, heir
from app.store.log_entry import LogEntry
from app.store.tails import logs_after
from app.tables.room import TableRoom

log = logging.getLogger(__name__)

Claimed = tuple[int, list[LogEntry]]  # a table taken: its new token, the log read after it


class Ownership(News):
    """The cluster's part that holds the lease and the tables it owns."""

    leases: Leases
    worker_id: str
    alive: list[str]
    lease_ok: bool
    sightings: Sightings
    _holders_due: bool
    _holders_at: float
    _seen_alive: set[str]
    _orphans_left: bool
    _owners: dict[str, str]
    _replies: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]]
    _renewer: ThreadPoolExecutor
    _sweeper: ThreadPoolExecutor

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

    def _claim_or_find(self, table_id: str, after: int) -> tuple[Claimed | None, str | None]:
        """(A thread: a round begins with every table's first command at once.) The new
        token and the log after `after`, read once the claim fenced out any owner before;
        or the live worker that owns the table."""
        token, owner = self.leases.claim_or_owner(table_id)
        if token is None:
            return None, owner
        return (token, self.hub.store.log(table_id, after=after)), owner

    def _took(self, table_id: str, fence: int, read: list[LogEntry] | None = None) -> bool:
        """Own the table with the fencing token `fence` a claim gave this worker."""
        held = self.owned.get(table_id, 0)
        if held > fence:
            return True  # taken meanwhile (a command asked for it), with a newer token
        room = self.hub.get(table_id)
        if room is None:
            return False
        if held == fence and room.fence == fence:
            return True  # the other claim (a command's, the sweep's) took it already
        catch_up(room, read)
        self.owned[table_id] = fence
        self._owners[table_id] = self.worker_id
        room.own(fence)
        log.info("worker %s took table %s over (token %s)", self.worker_id, table_id, fence)
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
