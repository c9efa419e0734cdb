"""The statements that write one accepted command: its log row and, when the command
changed it, the table's status and result; with several workers, only under the
writer's fencing token (see app.store.lease)."""

from __future__ import annotations

from typing import Any

from app.store.log_entry import LOG_COLUMNS, LogEntry
from app.store.models import LogRecord, TableRecord

#: One statement and its parameters.
Step = tuple[str, tuple[Any, ...]]


class LogStatements:
    def __init__(self, sqlite: bool) -> None:
        mark = "?" if sqlite else "%s"
        self.insert = (
            f"INSERT INTO {LogRecord.__tablename__} ({', '.join(LOG_COLUMNS)}) "
            f"VALUES ({', '.join(mark for _ in LOG_COLUMNS)})"
        )
        self.update_table = (
            f"UPDATE {TableRecord.__tablename__} SET version = {mark}, "
            f"status = {mark}, result_json = {mark} WHERE id = {mark}"
        )
        #: With several workers the status too is written only under the table's token.
        self.update_fenced = (
            f"{self.update_table} AND EXISTS (SELECT 1 FROM table_owner "
            f"WHERE table_id = {mark} AND token = {mark})"
        )
        #: With several workers: the insert happens only while the writer's fencing token
        #: is the table's, holding the owner row until the commit.
        self.insert_fenced = (
            f"INSERT INTO {LogRecord.__tablename__} ({', '.join(LOG_COLUMNS)}) "
            f"SELECT {', '.join(mark for _ in LOG_COLUMNS)} WHERE EXISTS (SELECT 1 FROM "
            f"table_owner WHERE table_id = {mark} AND token = {mark} FOR SHARE)"
        )

    def steps(
        self,
        table_id: str,
        entry: LogEntry,
        status: str | None,
        result_json: str | None,
        fence: int | None,
    ) -> list[Step]:
        """The statements that write one accepted command: its log row, and (`status`)
        the table's new status and result; with a `fence`, only under that token."""
        e = entry
        row = (table_id, e.version, e.at_ms, e.actor, e.device, e.seq, e.command_json, e.turn)
        update = (e.version, status, result_json, table_id)
        steps: list[Step]
        if fence is None:
            steps = [(self.insert, row)]
            if status is not None:
                steps.append((self.update_table, update))
            return steps
        steps = [(self.insert_fenced, (*row, table_id, fence))]
        if status is not None:
            steps.append((self.update_fenced, (*update, table_id, fence)))
        return steps
