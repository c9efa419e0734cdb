"""Group commit: the hot path commits without waiting for the disk, and one flush in a
thread of its own makes every commit before it durable.

A tap is applied, logged and sent to the other screens at once; its ack waits for
`durable()`. Whatever many taps came in while one flush ran share the next one, so the
disk is waited on once per group, never by the event loop.

- SQLite (synchronous FULL): the writer commits with synchronous NORMAL, and the flush
  is one fsync of the write-ahead log file.
- PostgreSQL: the taps' log writer (app.store.pg_log) commits each batch with
  `synchronous_commit = on`, one round trip that both writes and flushes, so its taps
  wait for no flush here. The other hot-path writes commit with `synchronous_commit =
  off`, and their flush is one tiny transaction that writes a record and commits with
  `synchronous_commit = on`, on a connection of its own. The write-ahead log is one
  sequence: flushing it up to that commit flushes every commit logged before it. The
  wait is PostgreSQL's, so the flush is awaited on the loop (an asynchronous connection)
  rather than handed to a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine


class GroupCommit:
    """Counts the hot path's commits and waits, for whoever asks, until they are on disk."""

    def __init__(
        self,
        flush: Callable[[], None],
        name: str,
        flush_async: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._flush_once = flush
        self._flush_async = flush_async  # awaited on the loop instead of `flush` in a thread
        self._name = name
        self.written = 0  # hot-path commits so far
        self.synced = 0  # of which on disk
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._thread: ThreadPoolExecutor | None = None

    def wrote(self) -> None:
        """One more commit that is not on disk yet."""
        self.written += 1

    async def durable(self) -> None:
        """Wait until every commit counted so far survives a power loss."""
        target = self.written
        if self.synced >= target:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((target, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        if self._thread is None and self._flush_async is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix=self._name)
        while self._waiting:
            target = self.written
            try:
                if self._flush_async is not None:
                    await self._flush_async()
                else:
                    await loop.run_in_executor(self._thread, self._flush_once)
            except Exception as exc:  # the disk or the database failed: nobody is acked
                waiting, self._waiting = self._waiting, []
                for _, done in waiting:
                    if not done.done():
                        done.set_exception(exc)
                return
            self.synced = target
            still = []
            for wanted, done in self._waiting:
                if wanted > target:
                    still.append((wanted, done))
                elif not done.done():
                    done.set_result(None)
            self._waiting = still

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


#: What the PostgreSQL writer's connection runs once: its commits do not wait for the disk.
PG_ASYNC_COMMIT = "SET synchronous_commit = off"
#: ... and the hot path's log writer's (app.store.pg_log): each batch's commit does.
PG_SYNC_COMMIT = "SET synchronous_commit = on"
#: The flush: a transaction of one log record, committed with synchronous_commit on.
FLUSH = "SELECT pg_logical_emit_message(true, 'deathclock', '')"


class PostgresWal:
    """PostgreSQL: a transaction that writes to the log (here one transactional logical
    message, which needs no table and no privilege) commits synchronously: it returns
    once the log is flushed up to its commit record. A transaction that writes nothing
    (such as one that only takes an id) would commit without waiting for the disk.

    The flush has a connection of its own, in autocommit mode: one statement, one round
    trip, and no pool checkout (nor its ping) per flush."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._raw: Any = None
        self._async: Any = None  # psycopg.AsyncConnection, made on the first flush

    async def flush_async(self) -> None:
        """`flush`, awaited: the loop serves the other tables while PostgreSQL flushes."""
        import psycopg  # the postgres extra's

        if self._async is None or self._async.closed:
            _, params = self.engine.dialect.create_connect_args(self.engine.url)
            self._async = await psycopg.AsyncConnection.connect(**params, autocommit=True)
            await self._async.execute("SET synchronous_commit = on")
        try:
            await self._async.execute(FLUSH)
        except Exception:
            self._close_async()
            raise

    def _close_async(self) -> None:
        conn, self._async = self._async, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.pgconn.finish()

    def flush(self) -> None:
        if self._raw is None:
            self._raw = self.engine.raw_connection()
            self._raw.driver_connection.autocommit = True
            self._raw.driver_connection.execute("SET synchronous_commit = on")
        try:
            self._raw.driver_connection.execute(FLUSH)
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        self._close_async()
        if self._raw is not None:
            with contextlib.suppress(Exception):
                self._raw.invalidate()  # not back to the pool: it is in autocommit mode
            self._raw = None

    @staticmethod
    def flushed_lsn(conn: Any) -> str:
        """The log position on disk (for tests and diagnostics)."""
        return str(conn.execute(text("SELECT pg_current_wal_flush_lsn()")).scalar_one())
