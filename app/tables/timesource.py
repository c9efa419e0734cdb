"""The server's one clock: epoch milliseconds, so a restart continues running clocks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class TimeSource(Protocol):
    def now_ms(self) -> int: ...

    async def sleep_until(self, at_ms: int) -> None: ...

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> Timer:
        """Call `callback` (on the running loop) once the time reaches `at_ms`."""
        ...


class _LoopTimer:
    """A loop timer that never fires early: the loop's clock and the wall clock may differ."""

    __slots__ = ("at_ms", "callback", "handle", "time")

    def __init__(self, time: SystemTime, at_ms: int, callback: Callable[[], None]) -> None:
        self.time = time
        self.at_ms = at_ms
        self.callback = callback
        self.handle: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        delay = max(0, self.at_ms - self.time.now_ms()) / 1000
        self.handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        if self.time.now_ms() < self.at_ms:
            self._arm()
        else:
            self.handle = None
            self.callback()

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class SystemTime:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    async def sleep_until(self, at_ms: int) -> None:
        while (delay := at_ms - self.now_ms()) > 0:
            await asyncio.sleep(delay / 1000)

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> Timer:
        return _LoopTimer(self, at_ms, callback)


class _FakeTimer:
    __slots__ = ("at_ms", "callback", "cancelled")

    def __init__(self, at_ms: int, callback: Callable[[], None]) -> None:
        self.at_ms = at_ms
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeTime:
    """A clock that moves only when told to; sleepers and timers wake as it passes them."""

    def __init__(self, start_ms: int = 1_800_000_000_000) -> None:
        self._now = start_ms
        self._sleepers: list[tuple[int, asyncio.Future[None]]] = []
        self._timers: list[_FakeTimer] = []

    def now_ms(self) -> int:
        return self._now

    async def sleep_until(self, at_ms: int) -> None:
        if at_ms <= self._now:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((at_ms, future))
        await future

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> Timer:
        timer = _FakeTimer(at_ms, callback)
        if at_ms <= self._now:
            asyncio.get_running_loop().call_soon(self._fire, timer)
        else:
            self._timers.append(timer)
        return timer

    @staticmethod
    def _fire(timer: _FakeTimer) -> None:
        if not timer.cancelled:
            timer.cancelled = True
            timer.callback()

    def advance(self, ms: int) -> None:
        self._now += ms
        waiting = []
        for at_ms, future in self._sleepers:
            if at_ms <= self._now:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((at_ms, future))
        self._sleepers = waiting
        due = sorted(
            (t for t in self._timers if t.at_ms <= self._now and not t.cancelled),
            key=lambda t: t.at_ms,
        )
        self._timers = [t for t in self._timers if t.at_ms > self._now and not t.cancelled]
        for timer in due:
            self._fire(timer)
