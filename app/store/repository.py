"""The table store: a table's accepted commands written on the hot path, and the door to
its records and its log (reads and writes of their own modules)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sqlmodel import Session

from app.domain.errors import ServerTrouble
from app.store import seats, table_records
from app.store.checkpoint import CHECKPOINT_EVERY_S, Checkpointer
from app.store.engine import DEFAULT_SYNCHRONOUS, make_engine, sqlite_file, synchronous_level
from app.store.group_commit import GroupCommit, WalFile
from app.store.loading import live_quick_ids, read_tables
from app.store.log_entry import LOG_COLUMNS, LogEntry
from app.store.log_rows import log_rows
from app.store.log_statements import LogStatements
from app.store.models import LogRecord, TableRecord, TableSnapshot
from app.store.schema import create_schema
from app.store.tails import Tail

if TYPE_CHECKING:
    from app.store.pg_log import PgLogWriter


class Fenced(ServerTrouble):
    """A write with a fencing token that is not the table's any more (another worker
    took the table over): nothing was written, and the command can be sent again."""


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
        #: SQLite FULL: the hot path commits without waiting for the disk, so a tap's
        #: peers get it at once and its ack waits for `durable()` (group_commit).
        #: PostgreSQL's commits wait for the disk themselves (app.store.pg_log).
        path = sqlite_file(url)
        self._wal: WalFile | None = None
        if path is not None and synchronous_level(synchronous) != "NORMAL":
            self._wal = WalFile(path)
        self._sync_later = self._wal is not None
        self._group = GroupCommit(self._flush_log, "log-sync")
        create_schema(self.engine, url)
        self._raw: Any = None
        self._cursor: Any = None
        self._checkpoints: Checkpointer | None = None
        self._statements = LogStatements(sqlite=url.startswith("sqlite"))
        #: PostgreSQL: the hot path's writes are awaited, not waited for (app.store.pg_log).
        self._pg_log: PgLogWriter | None = None
        if url.startswith("postgresql"):
            from app.store.pg_log import PgLogWriter  # psycopg: the postgres extra's

            self._pg_log = PgLogWriter(self.engine)  # a batch's inserts: one statement
            self._pg_log.bulk_fenced_insert(
                self._statements.insert_fenced, LogRecord.__tablename__, LOG_COLUMNS
            )

    async def durable(self, table_id: str = "") -> None:
        """Wait until every hot-path commit so far survives a power loss: a group
        commit, never waited for by the loop (app.store.group_commit); `table_id`: the
        table whose write is waited for."""
        await self._group.durable(table_id)

    @property
    def flushes(self) -> int:
        """How many times the hot path's log has been flushed to disk (SQLite FULL)."""
        return self._group.flushes

    def _flush_log(self) -> None:
        if self._wal is not None:
            self._wal.flush()

    def close_writer(self) -> None:
        if self._wal is not None:
            self._wal.close()
        if self._raw is not None:
            with contextlib.suppress(Exception):
                self._cursor.close()
            with contextlib.suppress(Exception):
                # Not back to the pool: its settings are the hot path's own.
                self._raw.invalidate()
            self._raw = None
            self._cursor = None

    def close(self) -> None:
        self._group.close()
        if self._pg_log is not None:
            self._pg_log.close()
        if self._checkpoints is not None:
            self._checkpoints.stop()
            self._checkpoints = None
        self.close_writer()
        self.engine.dispose()

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    # -- the hot path: one accepted command ---------------------------------------

    def _writer(self) -> Any:
        """One DBAPI connection kept for the hot path, used directly (not through the
        pool's proxy), with one cursor: a tap is one plain statement and a commit."""
        if self._raw is None:
            self._raw = self.engine.raw_connection()
            self._cursor = self._raw.driver_connection.cursor()
            if self.url.startswith("sqlite"):
                self._raw.driver_connection.isolation_level = None
            else:
                self._raw.driver_connection.autocommit = True
            path = sqlite_file(self.url)
            if path is not None:
                # The hot path never checkpoints: a thread of its own does (app.store.checkpoint).
                self._cursor.execute("PRAGMA wal_autocheckpoint=0")
                if self._sync_later:
                    self._cursor.execute("PRAGMA synchronous=NORMAL")  # see `durable()`
                if self._checkpoints is None:
                    self._checkpoints = Checkpointer(path, self.checkpoint_every_s)
        return self._raw.driver_connection

    async def write(
        self,
        table_id: str,
        entry: LogEntry,
        status: str | None,
        result_json: str | None,
        fence: int | None = None,
    ) -> None:
        """`append`, awaited: on PostgreSQL the loop serves other tables meanwhile, and
        the write is on disk when it returns (app.store.pg_log)."""
        if self._pg_log is None:
            self.append(table_id, entry, status, result_json, fence)
            return
        steps = self._statements.steps(table_id, entry, status, result_json, fence)
        if (await self._pg_log.write(steps))[0] != 1:
            raise Fenced("server trouble: this table moved to another worker; try again")

    def append(
        self,
        table_id: str,
        entry: LogEntry,
        status: str | None,
        result_json: str | None,
        fence: int | None = None,
    ) -> None:
        """Write one accepted command, and the table's new status and result with it.

        `status` None: the table's status and result are as they were, and its row is
        left alone (most taps), so a tap costs one insert. `fence`: this worker's
        fencing token for the table (several workers); `Fenced` when it is not the
        table's any more, and nothing is written.
        """
        steps = self._statements.steps(table_id, entry, status, result_json, fence)
        fenced_insert = self._statements.insert_fenced
        conn = self._writer()
        if self._sync_later:
            self._group.wrote(table_id)
        try:
            cursor = self._cursor
            # The writer runs in autocommit mode: a lone insert is its own transaction (one
            # round trip to PostgreSQL); an insert with a status update, one BEGIN..COMMIT.
            if len(steps) > 1:
                cursor.execute("BEGIN")
            for statement, params in steps:
                cursor.execute(statement, params)
                if fence is not None and statement is fenced_insert and cursor.rowcount != 1:
                    raise Fenced("server trouble: this table moved to another worker; try again")
            if len(steps) > 1:
                conn.commit()
        except Exception:
            with contextlib.suppress(Exception):
                conn.rollback()
            self.close_writer()
            raise

    # -- the tables' records (app.store.table_records, seats) -----------------

    def add_tables(self, records: list[TableRecord]) -> None:
        """New tables (a round's at once): one transaction, whatever their number."""
        table_records.add_tables(self.engine, records)

    def taken_ids(self, table_ids: list[str]) -> set[str]:
        """Which of these ids a table has already (one query for them all)."""
        return table_records.taken_ids(self.engine, table_ids)

    def save_snapshot(self, snapshot: TableSnapshot) -> None:
        table_records.save_snapshot(self.engine, snapshot)

    def snapshot(self, table_id: str) -> TableSnapshot | None:
        return table_records.snapshot(self.engine, table_id)

    def delete_table(self, table_id: str) -> None:
        """Remove a table that never started (its pairing changed before the round)."""
        table_records.delete_table(self.engine, table_id)

    def rename_players(self, table_id: str, names: tuple[str, str]) -> None:
        seats.rename_players(self.engine, table_id, names)

    def replace_token(self, table_id: str, role: str, token: str) -> None:
        seats.replace_token(self.engine, table_id, role, token)

    # -- reads: tables with their logs (app.store.loading, tails, log_rows) -------

    def tables(
        self, live_only: bool = False, events_only: bool = False, ids: list[str] | None = None
    ) -> Iterator[tuple[TableRecord, list[LogEntry]]]:
        """Tables with their whole logs (app.store.loading.read_tables)."""
        return read_tables(self.engine, live_only, events_only, ids)

    def live_quick_ids(self) -> list[str]:
        return live_quick_ids(self.engine)

    def table(self, table_id: str) -> tuple[TableRecord, list[LogEntry]] | None:
        """One table with its whole log, or None."""
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
        if record is None:
            return None
        return record, self.log(table_id)

    def table_tail(self, table_id: str) -> Tail | None:
        """One table with its latest snapshot and the log after it (all of it without one)."""
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            snapshot = session.get(TableSnapshot, table_id)
        if record is None:
            return None
        return record, snapshot, self.log(table_id, after=snapshot.version if snapshot else 0)

    def log(self, table_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """The log from version `after + 1` on, oldest first; `limit` entries at most."""
        return log_rows(self.engine, table_id, after, limit)
