"""The store: SQLite (WAL) by default, PostgreSQL by URL."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, col, create_engine, select

from app.domain.errors import RuleError
from app.store.checkpoint import CHECKPOINT_EVERY_S, Checkpointer
from app.store.group_commit import GroupCommit, WalFile
from app.store.models import LogRecord, TableRecord, TableSnapshot

if TYPE_CHECKING:
    from app.store.pg_log import PgLogWriter


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


class Fenced(RuleError):
    """A write with a fencing token that is not the table's any more (another worker
    took the table over): nothing was written, and the command can be sent again."""

    code = "server_trouble"


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
#: Tables an older version had: the EO's results, now commands in their table's log only.
RETIRED_TABLES = ("eo_result",)


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
        sqlite_file = _sqlite_file(url)
        self._wal: WalFile | None = None
        if sqlite_file is not None and _synchronous_level(synchronous) != "NORMAL":
            self._wal = WalFile(sqlite_file)
        self._sync_later = self._wal is not None
        self._group = GroupCommit(self._flush_log, "log-sync")
        self._create_schema()
        self._raw: Any = None
        self._cursor: Any = None
        self._checkpoints: Checkpointer | None = None
        sqlite = url.startswith("sqlite")

        mark = "?" if sqlite else "%s"
        columns = ("table_id", "version", "at_ms", "actor", "device", "seq", "command_json", "turn")
        self._insert_log = (
            f"INSERT INTO {LogRecord.__tablename__} ({', '.join(columns)}) "
            f"VALUES ({', '.join(mark for _ in columns)})"
        )
        self._update_table = (
            f"UPDATE {TableRecord.__tablename__} SET version = {mark}, "
            f"status = {mark}, result_json = {mark} WHERE id = {mark}"
        )
        #: With several workers the status too is written only under the table's token.
        self._update_fenced = (
            f"{self._update_table} AND EXISTS (SELECT 1 FROM table_owner "
            f"WHERE table_id = {mark} AND token = {mark})"
        )
        #: With several workers: the insert happens only while the writer's fencing token
        #: is the table's (see app.store.lease), holding the owner row until the commit.
        self._insert_fenced = (
            f"INSERT INTO {LogRecord.__tablename__} ({', '.join(columns)}) "
            f"SELECT {', '.join(mark for _ in columns)} WHERE EXISTS (SELECT 1 FROM table_owner "
            f"WHERE table_id = {mark} AND token = {mark} FOR SHARE)"
        )
        #: PostgreSQL: the hot path's writes are awaited, not waited for (app.store.pg_log).
        self._pg_log: PgLogWriter | None = None
        if url.startswith("postgresql"):
            from app.store.pg_log import PgLogWriter  # psycopg: the postgres extra's

            self._pg_log = PgLogWriter(self.engine)  # a batch's inserts: one statement
            self._pg_log.bulk_fenced_insert(self._insert_fenced, LogRecord.__tablename__, columns)

    def _create_schema(self) -> None:
        if self.url.startswith("sqlite"):
            SQLModel.metadata.create_all(self.engine)
            self._add_missing_columns()
            return
        # Several workers start at once: one of them creates the tables, the others wait.
        with self.engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(7319000)"))
            conn.commit()
            try:
                SQLModel.metadata.create_all(conn)
                conn.commit()
                self._add_missing_columns()
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(7319000)"))
                conn.commit()

    def _add_missing_columns(self) -> None:
        """New nullable or defaulted columns, and new indexes, reach a database made by an
        older version."""
        inspector = inspect(self.engine)
        self._drop_log_key(inspector)
        with self.engine.begin() as conn:
            # (table_id, version) is unique, so that index serves lookups by table; an
            # older version kept a second one that every insert had to write as well.
            conn.execute(text("DROP INDEX IF EXISTS ix_table_log_table_id"))
            for retired_table in RETIRED_TABLES:
                conn.execute(text(f"DROP TABLE IF EXISTS {retired_table}"))
            for table in SQLModel.metadata.sorted_tables:
                # (read before this table's own ALTERs, which lock it from other connections)
                made = {index["name"] for index in inspector.get_indexes(table.name)}
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
                        # TRUE/FALSE: PostgreSQL refuses 0/1 for a boolean (SQLite takes both).
                        shown = str(value).upper() if isinstance(value, bool) else repr(value)
                        default = f" DEFAULT {shown}"
                    conn.execute(
                        text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}{default}')
                    )
                for index in table.indexes:  # an index added later (game_table.status)
                    if index.name not in made:
                        index.create(conn)

    def _drop_log_key(self, inspector: Any) -> None:
        """An older PostgreSQL database's log has a foreign key on its table, whose check
        locks the table's row at every tap (see LogRecord). It goes if it is there, in a
        transaction of its own (the inspector reads on other connections): an ALTER locks
        the log, and every worker's taps with it, even with nothing to do. (SQLite checks
        a key by a lookup, and drops one only by copying the table.)"""
        if self.url.startswith("sqlite"):
            return
        for key in inspector.get_foreign_keys(LogRecord.__tablename__):
            if key.get("name") and key.get("referred_table") == TableRecord.__tablename__:
                with self.engine.begin() as conn:
                    conn.execute(
                        text(
                            f'ALTER TABLE {LogRecord.__tablename__} DROP CONSTRAINT "{key["name"]}"'
                        )
                    )

    async def durable(self) -> None:
        """Wait until every hot-path commit so far survives a power loss: a group
        commit, never waited for by the loop (app.store.group_commit)."""
        await self._group.durable()

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

    def add_tables(self, records: list[TableRecord]) -> None:
        """New tables (a round's at once): one transaction, whatever their number."""
        with Session(self.engine) as session:
            session.add_all(records)
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
            session.flush()  # an older SQLite file's log still has a key on its table
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
            if self.url.startswith("sqlite"):
                self._raw.driver_connection.isolation_level = None
            else:
                self._raw.driver_connection.autocommit = True
            path = _sqlite_file(self.url)
            if path is not None:
                # The hot path never checkpoints: a thread of its own does (see above).
                self._cursor.execute("PRAGMA wal_autocheckpoint=0")
                if self._sync_later:
                    self._cursor.execute("PRAGMA synchronous=NORMAL")  # see `durable()`
                if self._checkpoints is None:
                    self._checkpoints = Checkpointer(path, self.checkpoint_every_s)
        return self._raw.driver_connection

    def _steps(
        self,
        table_id: str,
        entry: LogEntry,
        status: str | None,
        result_json: str | None,
        fence: int | None,
    ) -> list[tuple[str, tuple[Any, ...]]]:
        """The statements that write one accepted command: its log row, and (`status`)
        the table's new status and result; with a `fence`, only under that token."""
        e = entry
        row = (table_id, e.version, e.at_ms, e.actor, e.device, e.seq, e.command_json, e.turn)
        update = (e.version, status, result_json, table_id)
        steps: list[tuple[str, tuple[Any, ...]]]
        if fence is None:
            steps = [(self._insert_log, row)]
            if status is not None:
                steps.append((self._update_table, update))
            return steps
        steps = [(self._insert_fenced, (*row, table_id, fence))]
        if status is not None:
            steps.append((self._update_fenced, (*update, table_id, fence)))
        return steps

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
        steps = self._steps(table_id, entry, status, result_json, fence)
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
        steps = self._steps(table_id, entry, status, result_json, fence)
        conn = self._writer()
        if self._sync_later:
            self._group.wrote()
        try:
            cursor = self._cursor
            # The writer runs in autocommit mode: a lone insert is its own transaction (one
            # round trip to PostgreSQL); an insert with a status update, one BEGIN..COMMIT.
            if len(steps) > 1:
                cursor.execute("BEGIN")
            for statement, params in steps:
                cursor.execute(statement, params)
                if fence is not None and statement is self._insert_fenced and cursor.rowcount != 1:
                    raise Fenced("server trouble: this table moved to another worker; try again")
            if len(steps) > 1:
                conn.commit()
        except Exception:
            with contextlib.suppress(Exception):
                conn.rollback()
            self.close_writer()
            raise

    def tables(
        self, live_only: bool = False, events_only: bool = False, ids: list[str] | None = None
    ) -> Iterator[tuple[TableRecord, list[LogEntry]]]:
        """Tables with their whole logs (app.store.loading.read_tables)."""
        from app.store.loading import read_tables

        return read_tables(self.engine, live_only, events_only, ids)

    def live_quick_ids(self) -> list[str]:
        from app.store.loading import live_quick_ids

        return live_quick_ids(self.engine)

    def taken_ids(self, table_ids: list[str]) -> set[str]:
        """Which of these ids a table has already (one query for them all)."""
        found = select(TableRecord.id).where(col(TableRecord.id).in_(table_ids))
        with Session(self.engine) as session:
            return set(session.exec(found))

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
                .limit(limit)  # None: no limit
            )
            return [_entry(r) for r in session.exec(query)]
