"""Group commit: the hot path commits without waiting for the disk, and one flush in a
thread of its own makes every commit before it durable.

A tap is applied, logged and sent to the other screens at once; its ack waits for
`durable()`. Whatever many taps came in while one flush ran share the next one, so the
disk is waited on once per group, never by the event loop.

One flush starts every `FLUSH_SPACING_S` at most, while other tables are writing: a tap
that comes sooner after the last flush began waits for the rest of that spacing and shares
the flush with whoever comes meanwhile. Each flush is a hand-over to the flush thread and
back, and the fsync: about 0.3 ms of the loop's CPU, so that at 1,000 tables tapping every
5 s, a flush every 6 ms cost a fifth of the server's CPU a tap more than one every 25 ms
(bench.table_latency: 1.69 against 1.39 ms a tap). The other screens never wait for the
disk; an ack waits at most the spacing more (its p99 28 ms at that pace).

Only another table's writes can share a flush: a table's next command waits for its
last one's ack (the room's lock). So a flush waits out the spacing only while another
table has written within it (`wrote(writer)`, `durable(writer)`: the table's id): a table alone,
after a quiet spell or with the hall quiet around it, is flushed at once. An action that
sent several tables their commands one after another would wait at each table but the
first (another table wrote just before it): the round's start and end send them at once
(app.events.every_table).

- SQLite (synchronous FULL): the writer commits with synchronous NORMAL, and the flush
  is one fsync of the write-ahead log file.
- PostgreSQL needs none of it: its writes commit with `synchronous_commit = on` (the
  taps' log writer, app.store.pg_log, one round trip for a whole batch), so each is on
  disk when it returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

#: The least time between two flushes' starts while other tables write, in seconds: acks
#: wait this long at most for a flush of their own.
FLUSH_SPACING_S = 0.025


class GroupCommit:
    """Counts the hot path's commits and waits, for whoever asks, until they are on disk."""

    def __init__(
        self,
        flush: Callable[[], None],
        name: str,
        spacing_s: float = FLUSH_SPACING_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._flush_once = flush
        self._name = name
        self._spacing_s = spacing_s
        self._clock = clock
        self._sleep = sleep
        self._last_start = -math.inf  # when the last flush began (`clock`)
        self.written = 0  # hot-path commits so far
        self.synced = 0  # of which on disk
        self.flushes = 0  # flushes started
        self._last_writer = ""  # whose the latest write was
        self._last_at = -math.inf  # and when
        self._other_at = -math.inf  # the latest write by anyone else before it
        self._waiting: list[tuple[int, asyncio.Future[None], str]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._thread: ThreadPoolExecutor | None = None

    def wrote(self, writer: str = "") -> None:
        """One more commit that is not on disk yet, `writer`'s (a table's id)."""
        self.written += 1
        if writer != self._last_writer:
            self._other_at, self._last_writer = self._last_at, writer
        self._last_at = self._clock()

    async def durable(self, writer: str = "") -> None:
        """Wait until every commit counted so far survives a power loss (`writer`: whose
        write it waits for, as `wrote` was told)."""
        target = self.written
        if self.synced >= target:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((target, done, writer))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix=self._name)
        while self._waiting:
            now = self._clock()
            wait = self._last_start + self._spacing_s - now
            if wait > 0 and self._others_writing(now):  # whoever comes meanwhile shares it
                await self._sleep(wait)
            self._last_start = self._clock()
            self.flushes += 1
            target = self.written
            try:
                await loop.run_in_executor(self._thread, self._flush_once)
            except Exception as exc:  # the disk or the database failed: nobody is acked
                waiting, self._waiting = self._waiting, []
                for _, done, _writer in waiting:
                    if not done.done():
                        done.set_exception(exc)
                return
            self.synced = target
            still = []
            for wanted, done, writer in self._waiting:
                if wanted > target:
                    still.append((wanted, done, writer))
                elif not done.done():
                    done.set_result(None)
            self._waiting = still

    def _others_writing(self, now: float) -> bool:
        """Whether a wait may gather anyone: several tables wait already, or another table
        than the one waiting wrote within the spacing."""
        writers = {writer for _, _, writer in self._waiting}
        if len(writers) != 1:
            return len(writers) > 1
        (writer,) = writers
        other_at = self._other_at if writer == self._last_writer else self._last_at
        return now - other_at < self._spacing_s

    def close(self) -> None:
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None


class WalFile:
    """SQLite: one fsync of the write-ahead log file."""

    def __init__(self, path: str) -> None:
        self.path = f"{path}-wal"
        self._fd: int | None = None

    def flush(self) -> None:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        os.fsync(self._fd)  # fsync is of the file, whichever descriptor asks

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


#: The taps' log writer's connection (app.store.pg_log): each batch's commit waits for
#: the disk.
PG_SYNC_COMMIT = "SET synchronous_commit = on"
