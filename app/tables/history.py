"""The last events of a table, for a phone that comes back (as lila-ws's History)."""

from __future__ import annotations

from collections import deque

#: Events kept for a reconnecting phone; past that it gets a snapshot. Each event carries
#: the whole game (about 1 KB; a seat's snapshot about 3.7 KB): a phone that missed more
#: than a few taps reads fewer bytes in one snapshot, and a hall of 5,000 tables in their
#: second hour holds 40 MB of events, where 32 a table held 160 MB.
HISTORY = 8


class History:
    def __init__(self, size: int = HISTORY) -> None:
        self._events: deque[tuple[int, str]] = deque(maxlen=size)

    def add(self, version: int, text: str) -> None:
        self._events.append((version, text))

    def clear(self) -> None:
        self._events.clear()

    def since(self, last: int | None, current: int) -> list[str] | None:
        """The events after version `last`, or None: the phone needs a snapshot."""
        if last is None or last > current:
            return None
        if last == current:
            return []
        if not self._events or self._events[0][0] > last + 1:
            return None
        return [text for version, text in self._events if version > last]

    def __len__(self) -> int:
        return len(self._events)
