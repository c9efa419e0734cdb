"""The Deathclock: two player clocks, one running at a time.

Immutable; time comes in as integer milliseconds. Remaining time is derived from the
moment the running side started, never ticked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from app.domain.frozen import replace


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

T = TypeVar("T")
U = TypeVar("U")

#: A value for each side, P1's first (as scalachess's ByColor): changed by side, whole.
BySide = tuple[T, T]


def put(pair: BySide[T], side: Side, value: T) -> BySide[T]:
    return (value, pair[1]) if side is Side.P1 else (pair[0], value)


def update(pair: BySide[T], side: Side, change: Callable[[T], T]) -> BySide[T]:
    return put(pair, side, change(pair[side]))


def each(pair: BySide[T], change: Callable[[T], U]) -> BySide[U]:
    return (change(pair[0]), change(pair[1]))


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
        return Clock(
            remaining_ms=update(self.remaining_ms, running, lambda left: left - spent),
            running=side,
            since_ms=now_ms,
            used_ms=update(self.used_ms, running, lambda used: used + spent),
            idle_ms=self.idle_ms + elapsed - spent,
        )

    def adjust(self, side: Side, remaining_ms: int, now_ms: int) -> Clock:
        if remaining_ms < 0:
            raise ValueError("remaining time cannot be negative")
        settled = self.settle(now_ms)
        return replace(settled, remaining_ms=put(settled.remaining_ms, side, remaining_ms))
