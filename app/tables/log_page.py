"""The table log, a page at a time: never the whole history in one message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.store.repository import LogEntry
from app.tables.jsontext import loads
from app.tables.offline import public_wire

if TYPE_CHECKING:
    from app.tables.room import TableRoom

LOG_PAGE = 200  # entries a page at most
LOG_PAGE_BYTES = 256 * 1024  # and about this much text (merges carry their commands)


def log_row(entry: LogEntry) -> dict[str, Any]:
    return {
        "v": entry.version,
        "at_ms": entry.at_ms,
        "by": entry.actor,
        "turn": entry.turn,
        **public_wire(loads(entry.command_json)),
    }


def log_page(room: TableRoom, after: int = 0, limit: int = LOG_PAGE) -> dict[str, Any]:
    """Entries after version `after`; `next` is where the following page starts (None: done)."""
    limit = max(1, min(limit, LOG_PAGE))
    entries = room.store.log(room.table_id, after=max(0, after), limit=limit + 1)
    rows: list[dict[str, Any]] = []
    size = 0
    for entry in entries[:limit]:
        if rows and size + len(entry.command_json) > LOG_PAGE_BYTES:
            break
        rows.append(log_row(entry))
        size += len(entry.command_json)
    more = len(rows) < len(entries)
    return {
        "entries": rows,
        "next": rows[-1]["v"] if more and rows else None,
        "version": room.version,
    }
