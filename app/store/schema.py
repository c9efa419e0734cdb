"""The tables' schema: made at a start, and brought up to date in a database an older
version made (new columns and indexes in, retired ones out)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

import app.store.models_discipline  # noqa: F401  (its table joins the schema)
from app.store import models_season  # noqa: F401  (its tables join the schema)
from app.store.models import LogRecord, TableRecord

#: Columns an older version had and this one writes no more (a NOT NULL one would
#: refuse every new row).
RETIRED_COLUMNS = {"event_round": frozenset({"finished"})}
#: Tables an older version had: the EO's results, now commands in their table's log only.
RETIRED_TABLES = ("eo_result",)


def create_schema(engine: Engine, url: str) -> None:
    if url.startswith("sqlite"):
        SQLModel.metadata.create_all(engine)
        _add_missing_columns(engine, url)
        return
    # Several workers start at once: one of them creates the tables, the others wait.
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(7319000)"))
        conn.commit()
        try:
            SQLModel.metadata.create_all(conn)
            conn.commit()
            _add_missing_columns(engine, url)
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(7319000)"))
            conn.commit()


def _add_missing_columns(engine: Engine, url: str) -> None:
    """New nullable or defaulted columns, and new indexes, reach a database made by an
    older version."""
    inspector = inspect(engine)
    _drop_log_key(engine, url, inspector)
    with engine.begin() as conn:
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
                kind = column.type.compile(dialect=engine.dialect)
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


def _drop_log_key(engine: Engine, url: str, inspector: Any) -> None:
    """An older PostgreSQL database's log has a foreign key on its table, whose check
    locks the table's row at every tap (see LogRecord). It goes if it is there, in a
    transaction of its own (the inspector reads on other connections): an ALTER locks
    the log, and every worker's taps with it, even with nothing to do. (SQLite checks
    a key by a lookup, and drops one only by copying the table.)"""
    if url.startswith("sqlite"):
        return
    for key in inspector.get_foreign_keys(LogRecord.__tablename__):
        if key.get("name") and key.get("referred_table") == TableRecord.__tablename__:
            with engine.begin() as conn:
                conn.execute(
                    text(f'ALTER TABLE {LogRecord.__tablename__} DROP CONSTRAINT "{key["name"]}"')
                )
