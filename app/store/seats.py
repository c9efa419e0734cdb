"""Who sits at a table: the players' names, and the links each seat's phones (and the
watchers and the EO) join by."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.store.models import TableRecord

#: A link's role, and the column that keeps its token.
LINK_COLUMNS = {"p1": "p1_token", "p2": "p2_token", "watch": "watch_token", "eo": "admin_token"}


def rename_players(engine: Engine, table_id: str, names: tuple[str, str]) -> None:
    _change(engine, table_id, {"p1_name": names[0], "p2_name": names[1]})


def replace_token(engine: Engine, table_id: str, role: str, token: str) -> None:
    _change(engine, table_id, {LINK_COLUMNS[role]: token})


def _change(engine: Engine, table_id: str, values: dict[str, str]) -> None:
    """Set these columns of one table's record (KeyError: no such table)."""
    with Session(engine) as session:
        record = session.get(TableRecord, table_id)
        if record is None:
            raise KeyError(table_id)
        for name, value in values.items():
            setattr(record, name, value)
        session.add(record)
        session.commit()
