"""The live server's time, for browser tests that move a page's clock ahead."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from app.tables.timesource import SystemTime


class MovableTime(SystemTime):
    """The wall clock, which a test may move ahead: the server's time passes as a page's
    installed clock is fast-forwarded, so the two stay agreed and nobody waits."""

    def __init__(self) -> None:
        self.ahead_ms = 0

    def now_ms(self) -> int:
        return super().now_ms() + self.ahead_ms


class _Waking:
    """A loop timer of `WakingTime`: it fires once the server's time reaches its moment,
    whether by waiting or by a test moving the time ahead."""

    def __init__(self, time: WakingTime, at_ms: int, callback: Callable[[], None]) -> None:
        self.time = time
        self.at_ms = at_ms
        self.callback = callback
        self.loop = asyncio.get_running_loop()
        self.handle: asyncio.TimerHandle | None = None
        self.done = False
        self._arm()

    def _arm(self) -> None:
        delay = max(0, self.at_ms - self.time.now_ms()) / 1000
        self.handle = self.loop.call_later(delay, self.fire)

    def fire(self) -> None:
        if self.done:
            return
        if self.handle is not None:
            self.handle.cancel()
        if self.time.now_ms() < self.at_ms:
            self._arm()
            return
        self.done = True
        self.callback()

    def cancel(self) -> None:
        self.done = True
        if self.handle is not None:
            self.handle.cancel()


class WakingTime(MovableTime):
    """`MovableTime` whose server timers (a flag's moment, an undo request's lapse) wake
    as soon as the test moves the time past them, as they would have by waiting."""

    def __init__(self) -> None:
        self._timers: list[_Waking] = []
        self._ahead = 0
        super().__init__()

    @property
    def ahead_ms(self) -> int:
        return self._ahead

    @ahead_ms.setter
    def ahead_ms(self, value: int) -> None:
        self._ahead = value
        self._timers = [t for t in self._timers if not t.done]
        for timer in self._timers:
            timer.loop.call_soon_threadsafe(timer.fire)

    def call_at(self, at_ms: int, callback: Callable[[], None]) -> _Waking:
        timer = _Waking(self, at_ms, callback)
        self._timers.append(timer)
        return timer


class StillTime(WakingTime):
    """The server's time stands still but for the test's moves: every window and clock
    the server decides by runs only as the test moves it, however slow the machine."""

    def __init__(self) -> None:
        self._start = SystemTime.now_ms(self)
        super().__init__()

    def now_ms(self) -> int:
        return self._start + self.ahead_ms
