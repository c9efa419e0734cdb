"""Many tables at once from the store, in a few queries rather than a few per table.

- `logs_after`: each table's log after the version a worker holds (a worker taking over a
  dead worker's tables reads what it had not seen; a worker that just read tables for its
  sockets reads the moves their owners made meanwhile).
- `table_tails`: tables as a socket needs them (record, latest snapshot, the log after it):
  after the hall's Wi-Fi restarts, hundreds of phones reach a worker that has not read
  their tables yet, and it reads them together."""

from __future__ import annotations

from sqlalchemy import and_, or_
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.store.log_entry import LOG_ROW, LogEntry
from app.store.models import LogRecord, TableRecord, TableSnapshot

#: One table as a socket needs it: its record, its latest snapshot, the log after it.
Tail = tuple[TableRecord, TableSnapshot | None, list[LogEntry]]


def logs_after(engine: Engine, versions: dict[str, int]) -> dict[str, list[LogEntry]]:
    """Each table's log from its version + 1 on, oldest first (every table named has a list)."""
    logs: dict[str, list[LogEntry]] = {table_id: [] for table_id in versions}
    if not versions:
        return logs
    after = [
        and_(col(LogRecord.table_id) == table_id, col(LogRecord.version) > version)
        for table_id, version in versions.items()
    ]
    # Plain rows, not ORM objects: after the hall's Wi-Fi restarts this reads hundreds.
    query = sa_select(*LOG_ROW).where(or_(*after)).order_by(*LOG_ROW[:2])
    with Session(engine) as session:
        for table_id, *entry in session.execute(query):
            logs[table_id].append(LogEntry(*entry))
    return logs


def table_tails(engine: Engine, table_ids: list[str]) -> dict[str, Tail | None]:
    """Each table with its latest snapshot and the log after it (None: no such table)."""
    found: dict[str, Tail | None] = dict.fromkeys(table_ids)
    if not table_ids:
        return found
    with Session(engine) as session:
        records = session.exec(select(TableRecord).where(col(TableRecord.id).in_(table_ids)))
        known = {record.id: record for record in records}
        snapshots = session.exec(
            select(TableSnapshot).where(col(TableSnapshot.table_id).in_(list(known)))
        )
        latest = {snapshot.table_id: snapshot for snapshot in snapshots}
    logs = logs_after(engine, {t: s.version if (s := latest.get(t)) else 0 for t in known})
    for table_id, record in known.items():
        found[table_id] = (record, latest.get(table_id), logs[table_id])
    return found
