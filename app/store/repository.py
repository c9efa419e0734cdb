"""The store: SQLite (WAL) by default, PostgreSQL by URL."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, col, create_engine, select

from app.domain.status import LIVE
from app.store.models import LogRecord, TableRecord, TableSnapshot


@dataclass(frozen=True, slots=True)
class LogEntry:
    version: int
    at_ms: int
    actor: str
    device: str
    seq: int
    command_json: str
    #: Where the game stood when the command came ("P2's turn 3"), for the log's readers.
    turn: str = ""


def _entry(r: LogRecord) -> LogEntry:
    return LogEntry(r.version, r.at_ms, r.actor, r.device, r.seq, r.command_json, r.turn)


#: SQLite's `synchronous` levels a deployment may choose. FULL (the default) syncs the
#: write-ahead log at every commit, so a tap that was acked survives a power loss; NORMAL
#: syncs only at checkpoints (faster, but the last acked taps can be lost with the power).
SYNCHRONOUS_LEVELS = ("FULL", "NORMAL", "EXTRA")
DEFAULT_SYNCHRONOUS = "FULL"


def _synchronous_level(level: str) -> str:
    name = level.strip().upper()
    if name not in SYNCHRONOUS_LEVELS:
        raise ValueError(f"SQLite synchronous must be one of {', '.join(SYNCHRONOUS_LEVELS)}")
    return name


def _sqlite_pragmas(synchronous: str) -> Any:
    level = _synchronous_level(synchronous)

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={level}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return on_connect


def _sqlite_file(url: str) -> str | None:
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1].split("?", 1)[0]
    return None if not path or path == ":memory:" else path


def make_engine(url: str, synchronous: str = DEFAULT_SYNCHRONOUS) -> Engine:
    if url.startswith("sqlite"):
        path = _sqlite_file(url)
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(synchronous))
        return engine
    return create_engine(url, pool_pre_ping=True)


#: Columns an older version had and this one writes no more (a NOT NULL one would
#: refuse every new row).
RETIRED_COLUMNS = {"event_round": frozenset({"finished"})}

#: How often the SQLite write-ahead log is copied back into the database file.
CHECKPOINT_EVERY_S = 1.0


class _Checkpointer:
    """Copies the write-ahead log back into the SQLite file from a thread of its own.

    SQLite would otherwise do it inside whichever commit fills the log past 1000 pages:
    a tap's commit on the server's loop, stalled for the copy and two fsyncs. sqlite3
    lets go of the GIL while it works, so the loop carries on meanwhile; a PASSIVE
    checkpoint never blocks a writer.
    """

    def __init__(self, path: str, every_s: float = CHECKPOINT_EVERY_S) -> None:
        self.path = path
        self.every_s = every_s
        self.stopping = threading.Event()
        self.connection: sqlite3.Connection | None = None
        self.thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(self.every_s):
            with contextlib.suppress(sqlite3.Error):
                self.run_once()

    def run_once(self) -> tuple[int, int, int]:
        """One pass: (busy, frames in the log, frames copied), as SQLite reports them."""
        if self.connection is None:
            self.connection = sqlite3.connect(self.path, check_same_thread=False)
            self.connection.execute("PRAGMA busy_timeout=5000")
        busy, frames, copied = self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(frames), int(copied)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Store:
    def __init__(
        self,
        url: str,
        checkpoint_every_s: float = CHECKPOINT_EVERY_S,
        synchronous: str = DEFAULT_SYNCHRONOUS,
    ) -> None:
        self.url = url
        self.checkpoint_every_s = checkpoint_every_s
        self.engine = make_engine(url, synchronous)
        #: With FULL, the hot-path writer commits without a sync and `sync()` makes the
        #: write-ahead log durable afterwards: what a tap's peers see leaves at once, and
        #: its ack waits for the disk (a commit is then exactly as durable as FULL's).
        self._sync_later = url.startswith("sqlite") and _synchronous_level(synchronous) != "NORMAL"
        self._written = 0  # hot-path commits so far
        self._synced = 0  # of which on disk
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._sync_thread: ThreadPoolExecutor | None = None
        self._wal_fd: int | None = None
        SQLModel.metadata.create_all(self.engine)
        self._add_missing_columns()
        self._raw: Any = None
        self._cursor: Any = None
        self._checkpoints: _Checkpointer | None = None
        sqlite = url.startswith("sqlite")

        mark = "?" if sqlite else "%s"
        columns = (
            "table_id",
            "version",
            "at_ms",
            "actor",
            "device",
            "seq",
            "command_json",
            "turn",
        )
        self._insert_log = (
            f"INSERT INTO {LogRecord.__tablename__} ({', '.join(columns)}) "
            f"VALUES ({', '.join(mark for _ in columns)})"
        )
        self._update_table = (
            f"UPDATE {TableRecord.__tablename__} SET version = {mark}, "
            f"status = {mark}, result_json = {mark} WHERE id = {mark}"
        )
        #: SQLite's writer runs in autocommit mode: a lone insert is its own transaction.
        self._autocommit = sqlite

    def _add_missing_columns(self) -> None:
        """New nullable or defaulted columns reach a database made by an older version."""
        inspector = inspect(self.engine)
        with self.engine.begin() as conn:
            # (table_id, version) is unique, so that index serves lookups by table; an
            # older version kept a second one that every insert had to write as well.
            conn.execute(text("DROP INDEX IF EXISTS ix_table_log_table_id"))
            for table in SQLModel.metadata.sorted_tables:
                present = {c["name"] for c in inspector.get_columns(table.name)}
                for retired in RETIRED_COLUMNS.get(table.name, frozenset()) & present:
                    conn.execute(text(f'ALTER TABLE {table.name} DROP COLUMN "{retired}"'))
                for column in table.columns:
                    if column.name in present:
                        continue
                    kind = column.type.compile(dialect=self.engine.dialect)
                    default = ""
                    if column.default is not None and getattr(column.default, "is_scalar", False):
                        value = column.default.arg  # type: ignore[attr-defined]
                        default = f" DEFAULT {int(value) if isinstance(value, bool) else value!r}"
                    conn.execute(
                        text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}{default}')
                    )

    async def durable(self) -> None:
        """Wait until every hot-path commit so far survives a power loss.

        A group commit: one fsync of the write-ahead log, in a thread of its own (the
        loop goes on meanwhile), covers every commit made before it started.
        """
        target = self._written
        if self._synced >= target:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((target, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        if self._sync_thread is None:
            self._sync_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-sync")
        while self._waiting:
            target = self._written
            try:
                await loop.run_in_executor(self._sync_thread, self._fsync)
            except OSError as exc:
                waiting, self._waiting = self._waiting, []
                for _, done in waiting:
                    if not done.done():
                        done.set_exception(exc)
                return
            self._synced = target
            still = []
            for wanted, done in self._waiting:
                if wanted > target:
                    still.append((wanted, done))
                elif not done.done():
                    done.set_result(None)
            self._waiting = still

    def _fsync(self) -> None:
        path = _sqlite_file(self.url)
        if path is None:
            return
        if self._wal_fd is None:
            self._wal_fd = os.open(f"{path}-wal", os.O_RDONLY)
        os.fsync(self._wal_fd)  # fsync is of the file, whichever descriptor asks

    def close_writer(self) -> None:
        if self._wal_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._wal_fd)
            self._wal_fd = None
        if self._raw is not None:
            with contextlib.suppress(Exception):
                self._cursor.close()
            with contextlib.suppress(Exception):
                self._raw.close()
            self._raw = None
            self._cursor = None

    def close(self) -> None:
        if self._sync_thread is not None:
            self._sync_thread.shutdown(wait=True)
            self._sync_thread = None
        if self._checkpoints is not None:
            self._checkpoints.stop()
            self._checkpoints = None
        self.close_writer()
        self.engine.dispose()

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def add_table(self, record: TableRecord) -> None:
        with Session(self.engine) as session:
            session.add(record)
            session.commit()

    def save_snapshot(self, snapshot: TableSnapshot) -> None:
        with Session(self.engine) as session:
            session.merge(snapshot)
            session.commit()

    def snapshot(self, table_id: str) -> TableSnapshot | None:
        with Session(self.engine) as session:
            return session.get(TableSnapshot, table_id)

    def delete_table(self, table_id: str) -> None:
        """Remove a table that never started (its pairing changed before the round)."""
        with Session(self.engine) as session:
            found = session.get(TableSnapshot, table_id)
            if found is not None:
                session.delete(found)
            for row in session.exec(select(LogRecord).where(col(LogRecord.table_id) == table_id)):
                session.delete(row)
            record = session.get(TableRecord, table_id)
            if record is not None:
                session.delete(record)
            session.commit()

    def rename_players(self, table_id: str, names: tuple[str, str]) -> None:
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            if record is None:
                raise KeyError(table_id)
            record.p1_name, record.p2_name = names
            session.add(record)
            session.commit()

    def replace_token(self, table_id: str, role: str, token: str) -> None:
        column = {"p1": "p1_token", "p2": "p2_token", "watch": "watch_token", "eo": "admin_token"}
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            if record is None:
                raise KeyError(table_id)
            setattr(record, column[role], token)
            session.add(record)
            session.commit()

    def _writer(self) -> Any:
        """One DBAPI connection kept for the hot path, used directly (not through the
        pool's proxy), with one cursor: a tap is one plain statement and a commit."""
        if self._raw is None:
            self._raw = self.engine.raw_connection()
            self._cursor = self._raw.driver_connection.cursor()
            if self._autocommit:
                self._raw.driver_connection.isolation_level = None
            path = _sqlite_file(self.url)
            if path is not None:
                # The hot path never checkpoints: a thread of its own does (see above).
                self._cursor.execute("PRAGMA wal_autocheckpoint=0")
                if self._sync_later:
                    self._cursor.execute("PRAGMA synchronous=NORMAL")  # synced by `sync()`
                if self._checkpoints is None:
                    self._checkpoints = _Checkpointer(path, self.checkpoint_every_s)
        return self._raw.driver_connection

    def append(
        self, table_id: str, entry: LogEntry, status: str | None, result_json: str | None
    ) -> None:
        """Write one accepted command, and the table's new status and result with it.

        `status` None: the table's status and result are as they were, and its row is
        left alone (most taps), so a tap costs one insert.
        """
        row = (
            table_id,
            entry.version,
            entry.at_ms,
            entry.actor,
            entry.device,
            entry.seq,
            entry.command_json,
            entry.turn,
        )
        conn = self._writer()
        if self._sync_later:
            self._written += 1
        try:
            cursor = self._cursor
            if status is None and self._autocommit:
                cursor.execute(self._insert_log, row)  # committed by itself
                return
            if self._autocommit:
                cursor.execute("BEGIN")
            cursor.execute(self._insert_log, row)
            if status is not None:
                cursor.execute(self._update_table, (entry.version, status, result_json, table_id))
            conn.commit()
        except Exception:
            with contextlib.suppress(Exception):
                conn.rollback()
            self.close_writer()
            raise

    def tables(self, live_only: bool = False) -> Iterator[tuple[TableRecord, list[LogEntry]]]:
        """Every table with its whole log, oldest first.

        `live_only`: leave out quick games (no event) that are over; they are read one
        at a time, by `table`, when someone opens them.
        """
        settled = col(TableRecord.event_id).is_(None) & col(TableRecord.status).not_in(
            [status.value for status in LIVE]
        )
        with Session(self.engine) as session:
            query = select(TableRecord)
            log_query = select(LogRecord)
            if live_only:
                query = query.where(~settled)
                log_query = log_query.join(TableRecord).where(~settled)
            records = list(session.exec(query))
            logs: dict[str, list[LogEntry]] = defaultdict(list)
            rows = session.exec(log_query.order_by(col(LogRecord.table_id), col(LogRecord.version)))
            for row in rows:
                logs[row.table_id].append(_entry(row))
        for record in records:
            yield record, logs.get(record.id, [])

    def has_table(self, table_id: str) -> bool:
        with Session(self.engine) as session:
            return session.get(TableRecord, table_id) is not None

    def table(self, table_id: str) -> tuple[TableRecord, list[LogEntry]] | None:
        """One table with its whole log, or None."""
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
        if record is None:
            return None
        return record, self.log(table_id)

    def table_tail(
        self, table_id: str
    ) -> tuple[TableRecord, TableSnapshot | None, list[LogEntry]] | None:
        """One table with its latest snapshot and the log after it (all of it without one)."""
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            snapshot = session.get(TableSnapshot, table_id)
        if record is None:
            return None
        return record, snapshot, self.log(table_id, after=snapshot.version if snapshot else 0)

    def log(self, table_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """The log from version `after + 1` on, oldest first; `limit` entries at most."""
        with Session(self.engine) as session:
            query = (
                select(LogRecord)
                .where(col(LogRecord.table_id) == table_id, col(LogRecord.version) > after)
                .order_by(col(LogRecord.version))
            )
            if limit is not None:
                query = query.limit(limit)
            return [_entry(r) for r in session.exec(query)]
