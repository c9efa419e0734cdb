"""Socket housekeeping: origin check, heartbeat, message rate, sockets per table."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from fastapi import WebSocket

from app.settings import Settings
from app.tables.timesource import TimeSource

HEARTBEAT_MS = 10_000
SOCKETS_PER_TABLE = 16
RATE_PER_S = 15.0
RATE_BURST = 40.0


def origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """Browsers send Origin: it must be this server's own host or a listed origin."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    return urlsplit(origin).netloc.lower() == websocket.headers.get("host", "").lower()


@dataclass
class RateLimit:
    """A token bucket: `per_s` messages a second, bursts up to `burst`."""

    time: TimeSource
    per_s: float = RATE_PER_S
    burst: float = RATE_BURST
    tokens: float = field(default=-1.0)
    at_ms: int = field(default=-1)

    def allow(self) -> bool:
        now = self.time.now_ms()
        if self.at_ms < 0:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.at_ms) * self.per_s / 1000)
        self.at_ms = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class Heartbeat:
    """Closes a socket that has said nothing for `timeout_ms` (phones ping every 4 s)."""

    time: TimeSource
    timeout_ms: int = HEARTBEAT_MS
    last_ms: int = 0

    def seen(self) -> None:
        self.last_ms = self.time.now_ms()

    async def watch(self, websocket: WebSocket) -> None:
        self.seen()
        while True:
            await self.time.sleep_until(self.last_ms + self.timeout_ms)
            if self.time.now_ms() - self.last_ms >= self.timeout_ms:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(
                        websocket.close(code=4408, reason="no heartbeat"), timeout=1.0
                    )
                return


def guards(settings: Settings, time: TimeSource) -> tuple[Heartbeat, RateLimit]:
    return (
        Heartbeat(time, timeout_ms=settings.heartbeat_ms),
        RateLimit(time, per_s=settings.rate_per_s, burst=settings.rate_burst),
    )
