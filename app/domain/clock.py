"""The Deathclock: two player clocks, one running at a time.

Immutable; time comes in as integer milliseconds. Remaining time is derived from the
moment the running side started, never ticked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum


class Side(IntEnum):
    P1 = 0
    P2 = 1

    @property
    def other(self) -> Side:
        return _OTHER[self]

    @property
    def label(self) -> str:
        return "P1" if self is Side.P1 else "P2"

    @classmethod
    def parse(cls, value: object) -> Side:
        if value in ("p1", "P1", 0):
            return cls.P1
        if value in ("p2", "P2", 1):
            return cls.P2
        raise ValueError(f"not a side: {value!r} (expected 'p1' or 'p2')")


_OTHER = {Side.P1: Side.P2, Side.P2: Side.P1}


@dataclass(frozen=True, slots=True)
class Clock:
    """remaining/used are as of `since_ms`; `idle_ms` is time no clock ran."""

    remaining_ms: tuple[int, int]
    running: Side | None
    since_ms: int
    used_ms: tuple[int, int] = (0, 0)
    idle_ms: int = 0

    @classmethod
    def start_with(cls, each_ms: int, now_ms: int) -> Clock:
        return cls(remaining_ms=(each_ms, each_ms), running=None, since_ms=now_ms)

    def remaining(self, side: Side, now_ms: int) -> int:
        left = self.remaining_ms[side]
        if self.running is side:
            left -= max(0, now_ms - self.since_ms)
        return max(0, left)

    def flag_at(self) -> int | None:
        """The moment the running side reaches zero, if a side is running."""
        if self.running is None:
            return None
        return self.since_ms + self.remaining_ms[self.running]

    def settle(self, now_ms: int) -> Clock:
        """Book the time since `since_ms` to the running side (or to idle)."""
        return self.run(self.running, now_ms)

    def run(self, side: Side | None, now_ms: int) -> Clock:
        """Settle, then let `side` run (None stops both clocks)."""
        elapsed = now_ms - self.since_ms
        if elapsed < 0:
            raise ValueError("time went backwards")
        running = self.running
        if running is None:
            return Clock(self.remaining_ms, side, now_ms, self.used_ms, self.idle_ms + elapsed)
        spent = min(elapsed, self.remaining_ms[running])
        remaining = list(self.remaining_ms)
        used = list(self.used_ms)
        remaining[running] -= spent
        used[running] += spent
        return Clock(
            remaining_ms=(remaining[0], remaining[1]),
            running=side,
            since_ms=now_ms,
            used_ms=(used[0], used[1]),
            idle_ms=self.idle_ms + elapsed - spent,
        )

    def adjust(self, side: Side, remaining_ms: int, now_ms: int) -> Clock:
        if remaining_ms < 0:
            raise ValueError("remaining time cannot be negative")
        settled = self.settle(now_ms)
        remaining = list(settled.remaining_ms)
        remaining[side] = remaining_ms
        return replace(settled, remaining_ms=(remaining[0], remaining[1]))
