"""The live server's time, for browser tests that move a page's clock ahead."""

from __future__ import annotations

from app.tables.timesource import SystemTime


class MovableTime(SystemTime):
    """The wall clock, which a test may move ahead: the server's time passes as a page's
    installed clock is fast-forwarded, so the two stay agreed and nobody waits."""

    def __init__(self) -> None:
        self.ahead_ms = 0

    def now_ms(self) -> int:
        return super().now_ms() + self.ahead_ms
