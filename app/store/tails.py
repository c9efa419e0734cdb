"""The logs of many tables at once, each after the version a worker holds: a worker taking
over a dead worker's tables reads what it had not seen in one query, not one per table."""

from __future__ import annotations

from sqlalchemy import and_, or_
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.store.models import LogRecord
from app.store.repository import LogEntry


def logs_after(engine: Engine, versions: dict[str, int]) -> dict[str, list[LogEntry]]:
    """Each table's log from its version + 1 on, oldest first (every table named has a list)."""
    logs: dict[str, list[LogEntry]] = {table_id: [] for table_id in versions}
    if not versions:
        return logs
    after = [
        and_(col(LogRecord.table_id) == table_id, col(LogRecord.version) > version)
        for table_id, version in versions.items()
    ]
    query = select(LogRecord).where(or_(*after)).order_by(col(LogRecord.version))
    with Session(engine) as session:
        for r in session.exec(query):
            entry = LogEntry(r.version, r.at_ms, r.actor, r.device, r.seq, r.command_json, r.turn)
            logs[r.table_id].append(entry)
    return logs
