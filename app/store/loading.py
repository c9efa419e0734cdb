"""Reading many tables at once, as a start reads them: records and plain log rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterator

from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.domain.status import LIVE
from app.store.log_entry import LOG_ROW, LogEntry
from app.store.models import LogRecord, TableRecord


def read_tables(
    engine: Engine,
    live_only: bool = False,
    events_only: bool = False,
    ids: Collection[str] | None = None,
) -> Iterator[tuple[TableRecord, list[LogEntry]]]:
    """Tables with their whole logs, oldest first. `live_only`: leave out quick games
    that are over; `events_only`: event tables only; `ids`: these tables only."""
    settled = col(TableRecord.event_id).is_(None) & col(TableRecord.status).not_in(
        [status.value for status in LIVE]
    )
    query = select(TableRecord)
    log_query = sa_select(*LOG_ROW)  # plain rows, not ORM objects: a start reads them all
    where = []
    if live_only:
        where.append(~settled)
    if events_only:
        where.append(col(TableRecord.event_id).is_not(None))
    if ids is not None:
        where.append(col(TableRecord.id).in_(list(ids)))
    if where:
        query = query.where(*where)
        log_query = log_query.join(
            TableRecord, col(TableRecord.id) == col(LogRecord.table_id)
        ).where(*where)
    with Session(engine) as session:
        records = list(session.exec(query))
        logs: dict[str, list[LogEntry]] = defaultdict(list)
        for table_id, *entry in session.execute(log_query.order_by(*LOG_ROW[:2])):
            logs[table_id].append(LogEntry(*entry))
    for record in records:
        yield record, logs.get(record.id, [])


def live_quick_ids(engine: Engine) -> list[str]:
    """The ids of the quick games still in play (a start reads them later)."""
    live = col(TableRecord.status).in_([status.value for status in LIVE])
    query = select(TableRecord.id).where(col(TableRecord.event_id).is_(None), live)
    with Session(engine) as session:
        return list(session.exec(query))
