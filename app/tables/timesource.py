"""The server's one clock: epoch milliseconds, so a restart continues running clocks."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class TimeSource(Protocol):
    def now_ms(self) -> int: ...

    async def sleep_until(self, at_ms: int) -> None: ...


class SystemTime:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    async def sleep_until(self, at_ms: int) -> None:
        while (delay := at_ms - self.now_ms()) > 0:
            await asyncio.sleep(delay / 1000)


class FakeTime:
    """A clock that moves only when told to; sleepers wake as it passes them."""

    def __init__(self, start_ms: int = 1_800_000_000_000) -> None:
        self._now = start_ms
        self._sleepers: list[tuple[int, asyncio.Future[None]]] = []

    def now_ms(self) -> int:
        return self._now

    async def sleep_until(self, at_ms: int) -> None:
        if at_ms <= self._now:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((at_ms, future))
        await future

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
