"""What a merge needs of a table's log without reading it again: the latest moment the
table counted, and each side's last command taken online (`merging`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.domain.clock import Side
from app.store.log_entry import LogEntry
from app.tables.offline import NOTE_COMMANDS, merged_items

Mark = tuple[int, int]  # a command's version and moment


@dataclass(slots=True)
class Timeline:
    """What a merge needs of the table's log without reading it again."""

    #: The latest moment the table counted any command at.
    frontier_ms: int = 0
    #: Each side's last command the table took online (not merged from a queue).
    online: dict[Side, Mark] = field(default_factory=dict)

    def took(self, entry: LogEntry, wire: dict[str, Any]) -> None:
        if wire.get("c") == "merge":
            for sub in merged_items(wire):
                self.frontier_ms = max(self.frontier_ms, int(sub["at_ms"]))
            return
        self.frontier_ms = max(self.frontier_ms, entry.at_ms)
        if entry.actor in ("p1", "p2") and wire.get("c") not in NOTE_COMMANDS:
            self.online[Side.parse(entry.actor)] = (entry.version, entry.at_ms)

    def online_since(self, version: int) -> int | None:
        """The moment of the last command either phone sent online after `version`."""
        marks = [at for v, at in self.online.values() if v > version]
        return max(marks) if marks else None
