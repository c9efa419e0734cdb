"""One timer a running table: the server decides a flag at its exact moment (DC7)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from app.domain.errors import RuleError
from app.domain.game import Game
from app.tables.timesource import Timer, TimeSource


def flag_bound(game: Game) -> int | None:
    """No clock can reach zero before this: remaining time runs down no faster than
    real time, so neither side flags before `since + the lesser remaining time`."""
    clock = game.clock
    if game.timer is not None:  # DC10: no chess clock; the round clock calls dice down
        return None if game.ending is not None else game.timer.dice_down_at()
    if clock.running is None or game.ending is not None:
        return None
    return clock.since_ms + min(clock.remaining_ms)


RETRY_MS = 1_000  # a check that could not be made is made again this much later


class FlagTimer:
    """Armed at the earliest moment a clock could run out.

    Most taps leave it as it is: the bound only moves later as the game goes on. A timer
    that fires before the flag (the side with less time left was not the one running)
    looks and arms itself again; once the running side has the least time left, it is
    armed at the flag's exact moment, and the server decides the flag then.
    """

    def __init__(
        self,
        time: TimeSource,
        check: Callable[[], Awaitable[object]],
        game: Callable[[], Any],
        due: Callable[[Any], int | None] = flag_bound,
    ) -> None:
        self.due = due
        self.time = time
        self.check = check
        self.game = game
        self._timer: Timer | None = None
        self._at = 0
        self._checking: asyncio.Task[None] | None = None

    def schedule(self, game: Any) -> None:
        bound = self.due(game)
        if self._timer is not None:
            if bound is not None and self._at <= bound:
                return
            self._timer.cancel()
            self._timer = None
        if bound is not None:
            self._at = bound
            self._timer = self.time.call_at(bound, self._due)

    def _due(self) -> None:
        self._timer = None
        self._checking = asyncio.get_running_loop().create_task(self._fire())

    async def _fire(self) -> None:
        try:
            await self.check()
        except RuleError:  # a read-only table (the EO decides), or server trouble
            if self._timer is None:
                self._at = self.time.now_ms() + RETRY_MS
                self._timer = self.time.call_at(self._at, self._due)  # look again later
            return
        if self._timer is None:
            self.schedule(self.game())  # it fired before any flag: look at the next bound

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._checking is not None and not self._checking.done():
            self._checking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checking
        self._checking = None
