"""A stretch of one table's log as plain rows, for its readers (tables.log_page, Store.log)."""

from __future__ import annotations

from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.store.log_entry import LOG_ROW, LogEntry
from app.store.models import LogRecord


def log_rows(
    engine: Engine, table_id: str, after: int = 0, limit: int | None = None
) -> list[LogEntry]:
    """The log from version `after + 1` on, oldest first; `limit` entries at most. Plain
    rows, not ORM objects: a quarter of the time for a page of 200."""
    query = (
        sa_select(*LOG_ROW[1:])
        .where(col(LogRecord.table_id) == table_id, col(LogRecord.version) > after)
        .order_by(col(LogRecord.version))
        .limit(limit)  # None: no limit
    )
    with Session(engine) as session:
        return [LogEntry(*row) for row in session.execute(query)]
