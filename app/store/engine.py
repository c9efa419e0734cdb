"""The database engine: SQLite (WAL) by default, PostgreSQL by URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

#: SQLite's `synchronous` levels a deployment may choose. FULL (the default) syncs the
#: write-ahead log at every commit, so a tap that was acked survives a power loss; NORMAL
#: syncs only at checkpoints (faster, but the last acked taps can be lost with the power).
SYNCHRONOUS_LEVELS = ("FULL", "NORMAL", "EXTRA")
DEFAULT_SYNCHRONOUS = "FULL"


def synchronous_level(level: str) -> str:
    name = level.strip().upper()
    if name not in SYNCHRONOUS_LEVELS:
        raise ValueError(f"SQLite synchronous must be one of {', '.join(SYNCHRONOUS_LEVELS)}")
    return name


def _sqlite_pragmas(synchronous: str) -> Any:
    level = synchronous_level(synchronous)

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={level}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return on_connect


def sqlite_file(url: str) -> str | None:
    """The SQLite database file a URL names (None: not SQLite, or in memory)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1].split("?", 1)[0]
    return None if not path or path == ":memory:" else path


def make_engine(url: str, synchronous: str = DEFAULT_SYNCHRONOUS) -> Engine:
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(synchronous))
        return engine
    return create_engine(url, pool_pre_ping=True)
