"""One accepted command as a table's log keeps it, and the columns that hold it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col

from app.store.models import LogRecord


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


#: A log row's columns: its table, then a LogEntry's fields.
LOG_COLUMNS = ("table_id", *LogEntry.__dataclass_fields__)
#: A log row as the readers select it (plain rows, not ORM objects).
LOG_ROW = tuple(col(getattr(LogRecord, name)) for name in LOG_COLUMNS)
