"""A stretch of one table's log as plain rows, for the log's readers (tables.log_page)."""

from __future__ import annotations

from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from app.store.loading import LOG_ROW
from app.store.models import LogRecord
from app.store.repository import LogEntry


def log_rows(engine: Engine, table_id: str, after: int, limit: int) -> list[LogEntry]:
    """Up to `limit` entries after version `after`, oldest first. Plain rows, not ORM
    objects: a quarter of the time for a page of 200."""
    query = (
        sa_select(*LOG_ROW[1:])
        .where(col(LogRecord.table_id) == table_id, col(LogRecord.version) > after)
        .order_by(col(LogRecord.version))
        .limit(limit)
    )
    with Session(engine) as session:
        return [LogEntry(*row) for row in session.execute(query)]
