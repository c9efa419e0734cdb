"""PostgreSQL: the hot path's log writes, without holding up the event loop.

A tap's log entry must be written before its event leaves for the other screens, but
while PostgreSQL answers, the worker's other tables go on: the write is awaited, not
waited for. Writes that come in while one batch is on its way go out together, in one
round trip (psycopg's pipeline mode) and one transaction, on one connection of the
writer's own (autocommit, `synchronous_commit = off`: `durable()` flushes the log for
the acks, see app.store.group_commit). A batch that fails is rolled back whole and its
writes are run again one by one, so one bad write never costs the others theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from sqlalchemy.engine import Engine

from app.store.group_commit import PG_ASYNC_COMMIT

Step = tuple[str, Sequence[Any]]


@dataclass(slots=True)
class _Write:
    steps: Sequence[Step]
    done: asyncio.Future[list[int]]
    rowcounts: list[int] = field(default_factory=list)


class PgLogWriter:
    def __init__(self, engine: Engine) -> None:
        _, params = engine.dialect.create_connect_args(engine.url)
        self._params: dict[str, Any] = dict(params)
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._pending: list[_Write] = []
        self._task: asyncio.Task[None] | None = None

    async def write(self, steps: Sequence[Step]) -> list[int]:
        """Run `steps` (statement, parameters) in one transaction; each one's row count."""
        done: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(steps, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        return await done

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(**self._params, autocommit=True)
            await self._conn.execute(PG_ASYNC_COMMIT)
        return self._conn

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._run(batch)
            except Exception:  # rolled back whole: each write again, on its own
                await self._reset()
                for write in batch:
                    try:
                        await self._run([write])
                    except Exception as exc:
                        await self._reset()
                        write.rowcounts = []
                        if not write.done.done():
                            write.done.set_exception(exc)
            for write in batch:
                if not write.done.done():
                    write.done.set_result(write.rowcounts)

    async def _run(self, batch: list[_Write]) -> None:
        conn = await self._connection()
        cursors: list[list[psycopg.AsyncCursor[Any]]] = []
        async with conn.pipeline():
            for write in batch:
                mine = []
                for statement, params in write.steps:
                    cursor = conn.cursor()
                    await cursor.execute(statement, params)
                    mine.append(cursor)
                cursors.append(mine)
        for write, mine in zip(batch, cursors, strict=True):
            write.rowcounts = [cursor.rowcount for cursor in mine]

    async def _reset(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    def close(self) -> None:
        """Let the connection go (from outside the loop too)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.pgconn.finish()
