"""PostgreSQL: the hot path's log writes, without holding up the event loop.

A tap's log entry must be on disk before its ack, and written before its event leaves
for the other screens; while PostgreSQL answers, the worker's other tables go on: the
write is awaited, not waited for. Writes that come in while one batch is on its way go
out together, in one round trip (psycopg's pipeline mode) and one transaction, on one
connection of the writer's own, in autocommit mode with `synchronous_commit = on`: the
batch's commit returns once the write-ahead log is flushed up to it, so one round trip
both writes a batch and makes it durable (PostgreSQL flushes the commits of both workers
that arrive meanwhile together). A batch that fails is rolled back whole and its writes
are run again one by one, so one bad write never costs the others theirs.

A statement registered with `bulk` (the fenced log insert: nearly every write) is sent once
for the whole batch, its rows as one JSON parameter (`json_to_recordset`), rather than once
a write: PostgreSQL parses and plans it once, and the worker's loop builds one message
instead of dozens. The rows go as JSON, encoded by orjson in one C call, rather than as
one array a column: psycopg dumps arrays element by element in Python, which took twice
the worker's CPU per batch of eight (and more of PostgreSQL's, measured here). Its
`RETURNING` names the rows written, and so each write's row count.

Under load the writer gathers: PostgreSQL spends about as much on a transaction of one row
as on one of eight (the commit, its flush: 190 and 280 us of its CPU here), so once a batch
held `BUSY` writes or more, the next one waits `GATHER_MS` for others to join it; a quiet
worker, whose batches are one write, never waits. At 5,000 tables on two workers
(bench.table_latency, the phones pinging on beats of their own) the peer's p50 / p99 were
1.5 / 10.0 and 10.9 ms with a 1-ms gather, 3.2-4.4 / 16.7-17.9 ms with 3 ms, and 1.5 / 11.8 ms
with none, PostgreSQL and Redis then taking a fifth more CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import psycopg
from sqlalchemy.engine import Engine

from app.store.group_commit import PG_SYNC_COMMIT

Step = tuple[str, Sequence[Any]]

#: A batch this big tells of a busy worker: the next one waits a moment for company.
BUSY = 2
GATHER_MS = 1

#: PostgreSQL's types of the log's columns.
LOG_TYPES = {
    "table_id": "text",
    "version": "int",
    "at_ms": "bigint",
    "actor": "text",
    "device": "text",
    "seq": "bigint",
    "command_json": "text",
    "turn": "text",
}


@dataclass(slots=True)
class _Write:
    steps: Sequence[Step]
    done: asyncio.Future[list[int]]
    rowcounts: list[int] = field(default_factory=list)


class PgLogWriter:
    def __init__(
        self, engine: Engine, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        self._sleep = sleep
        self._last_batch = 0
        _, params = engine.dialect.create_connect_args(engine.url)
        self._params: dict[str, Any] = dict(params)
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._pending: list[_Write] = []
        self._task: asyncio.Task[None] | None = None
        self._bulk: dict[str, tuple[str, tuple[tuple[str, int], ...], tuple[int, ...]]] = {}

    def bulk(
        self,
        statement: str,
        bulk_statement: str,
        columns: dict[str, int],
        key: tuple[int, ...],
    ) -> None:
        """Send every one-step write of `statement` in a batch as one `bulk_statement`:
        it takes one JSON array of the rows, each an object of `columns` (a name for each
        index into a write's parameters), and returns the `key` parameters of the rows it
        wrote."""
        self._bulk[statement] = (bulk_statement, tuple(columns.items()), key)

    def bulk_fenced_insert(self, statement: str, table: str, columns: Sequence[str]) -> None:
        """`bulk` for the fenced log insert (its parameters: the row, the table's id, the
        writer's token; see `app.store.repository`)."""
        typed = ", ".join(f"{name} {LOG_TYPES[name]}" for name in columns)
        names = ", ".join(columns)
        self.bulk(
            statement,
            f"INSERT INTO {table} ({names}) SELECT {', '.join('x.' + n for n in columns)} "
            f"FROM json_to_recordset(%s::json) AS x({typed}, fence bigint) "
            "WHERE EXISTS (SELECT 1 FROM table_owner "
            "WHERE table_owner.table_id = x.table_id AND token = x.fence FOR SHARE) "
            "RETURNING table_id, version",
            {**{name: i for i, name in enumerate(columns)}, "fence": len(columns) + 1},
            (columns.index("table_id"), columns.index("version")),
        )

    async def write(self, steps: Sequence[Step]) -> list[int]:
        """Run `steps` (statement, parameters) in one transaction, durably; each one's row
        count."""
        done: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(steps, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        return await done

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(**self._params, autocommit=True)
            await self._conn.execute(PG_SYNC_COMMIT)
        return self._conn

    async def _drain(self) -> None:
        while self._pending:
            if self._last_batch >= BUSY:
                await self._sleep(GATHER_MS / 1000)
            batch, self._pending = self._pending, []
            self._last_batch = len(batch)
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
        bulks: dict[str, list[_Write]] = {}
        each: list[_Write] = []
        for write in batch:
            if len(write.steps) == 1 and write.steps[0][0] in self._bulk:
                bulks.setdefault(write.steps[0][0], []).append(write)
            else:
                each.append(write)
        cursors: list[list[psycopg.AsyncCursor[Any]]] = []
        bulk_cursors: list[tuple[psycopg.AsyncCursor[Any], tuple[int, ...], list[_Write]]] = []
        statements = len(bulks) + sum(len(write.steps) for write in each)
        # One statement (the usual batch: its writes in one bulk insert) needs no pipeline.
        together = conn.pipeline() if statements > 1 else contextlib.nullcontext()
        async with together:
            for statement, writes in bulks.items():
                bulk_statement, columns, key = self._bulk[statement]
                rows = [{name: write.steps[0][1][i] for name, i in columns} for write in writes]
                cursor = conn.cursor()
                await cursor.execute(bulk_statement, [orjson.dumps(rows).decode()])
                bulk_cursors.append((cursor, key, writes))
            for write in each:
                mine = []
                for statement, params in write.steps:
                    cursor = conn.cursor()
                    await cursor.execute(statement, params)
                    mine.append(cursor)
                cursors.append(mine)
        for cursor, key, writes in bulk_cursors:
            written = {tuple(row) for row in await cursor.fetchall()}
            for write in writes:
                params = write.steps[0][1]
                write.rowcounts = [int(tuple(params[i] for i in key) in written)]
        for write, mine in zip(each, cursors, strict=True):
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
