"""Tables' records and snapshots, away from the hot path: a round's new tables (and which
ids are taken already), a table's latest snapshot, a table removed before its round."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.store.models import LogRecord, TableRecord, TableSnapshot


def add_tables(engine: Engine, records: list[TableRecord]) -> None:
    """New tables (a round's at once): one transaction, whatever their number."""
    with Session(engine) as session:
        session.add_all(records)
        session.commit()


def taken_ids(engine: Engine, table_ids: list[str]) -> set[str]:
    """Which of these ids a table has already (one query for them all)."""
    found = select(TableRecord.id).where(col(TableRecord.id).in_(table_ids))
    with Session(engine) as session:
        return set(session.exec(found))


def save_snapshot(engine: Engine, snapshot: TableSnapshot) -> None:
    with Session(engine) as session:
        session.merge(snapshot)
        session.commit()


def snapshot(engine: Engine, table_id: str) -> TableSnapshot | None:
    with Session(engine) as session:
        return session.get(TableSnapshot, table_id)


def delete_table(engine: Engine, table_id: str) -> None:
    """Remove a table that never started (its pairing changed before the round)."""
    with Session(engine) as session:
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
