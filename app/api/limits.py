"""A socket's limits: its message rate, the per-address budget for what opens or misses
something, and the heartbeat that finds a socket gone silent."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from app.settings import Settings
from app.tables.fanout import SILENT, Subscriber
from app.tables.timesource import TimeSource

HEARTBEAT_MS = 10_000
SWEEP_MS = 1_000
RATE_PER_S = 15.0
RATE_BURST = 40.0


@dataclass
class RateLimit:
    """A token bucket: `per_s` messages a second, bursts up to `burst`."""

    time: TimeSource
    per_s: float = RATE_PER_S
    burst: float = RATE_BURST
    tokens: float = field(default=-1.0)
    at_ms: int = field(default=-1)

    def available(self) -> float:
        """The tokens in the bucket now (refilled for the time since the last look)."""
        now = self.time.now_ms()
        if self.at_ms < 0:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.at_ms) * self.per_s / 1000)
        self.at_ms = now
        return self.tokens

    def allow(self, cost: float = 1.0) -> bool:
        """Take `cost` tokens (a message, or the commands an offline message carries)."""
        if self.available() < cost:
            return False
        self.tokens -= cost
        return True

    def wait_s(self) -> int:
        """Whole seconds until the next token (for Retry-After)."""
        missing = max(0.0, 1 - self.tokens)
        return max(1, math.ceil(missing / self.per_s)) if self.per_s > 0 else 3600


class ClientLimits:
    """One token bucket per client address, for what opens something (a socket, a table,
    an event) and for what misses (an unknown id, a wrong token).

    Behind a reverse proxy the address is the proxy's unless uvicorn is told to trust
    its X-Forwarded-For (`--proxy-headers --forwarded-allow-ips`).
    """

    PRUNE_AT = 10_000

    def __init__(self, time: TimeSource, per_s: float, burst: float) -> None:
        self.time = time
        self.per_s = per_s
        self.burst = burst
        self.buckets: dict[str, RateLimit] = {}
        self._prune_at = self.PRUNE_AT

    def bucket(self, address: str) -> RateLimit:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self._prune_at:
                self.prune()
            bucket = self.buckets[address] = RateLimit(self.time, self.per_s, self.burst)
        return bucket

    def prune(self) -> None:
        """Forget the buckets that have filled up again: a full bucket is a new one."""
        full_after_ms = self.burst / self.per_s * 1000 if self.per_s > 0 else float("inf")
        now = self.time.now_ms()
        for address, bucket in tuple(self.buckets.items()):
            if now - bucket.at_ms >= full_after_ms:
                del self.buckets[address]
        self._prune_at = max(self.PRUNE_AT, 2 * len(self.buckets))

    def take(self, address: str) -> bool:
        """Spend a token on something opened; False (nothing spent) if there is none."""
        return self.bucket(address).allow()

    def ready(self, address: str) -> bool:
        """Whether the address has a token left (nothing spent)."""
        return self.bucket(address).available() >= 1

    def charge(self, address: str) -> None:
        """A miss costs a token (none once the bucket is empty)."""
        self.bucket(address).allow()

    def wait_s(self, address: str) -> int:
        return self.bucket(address).wait_s()


class Heartbeats:
    """Every socket's last word, swept once a second by one task for all of them.

    A socket that has said nothing (phones ping every 4 s) is dropped with 4408 no
    later than `timeout_ms` after its last message.
    """

    def __init__(
        self, time: TimeSource, timeout_ms: int = HEARTBEAT_MS, every_ms: int = SWEEP_MS
    ) -> None:
        self.time = time
        self.timeout_ms = timeout_ms
        self.every_ms = min(every_ms, max(1, timeout_ms // 2))
        self.heard: dict[Subscriber, int] = {}
        self._churn = 0

    def seen(self, subscriber: Subscriber) -> None:
        self.heard[subscriber] = self.time.now_ms()

    def join(self, subscriber: Subscriber) -> None:
        self.seen(subscriber)
        self._churn += 1

    def forget(self, subscriber: Subscriber) -> None:
        self.heard.pop(subscriber, None)
        self._churn += 1

    def churn(self) -> int:
        """Sockets opened plus sockets closed since the start."""
        return self._churn

    def sweep(self) -> None:
        # Swept every `every_ms`: dropping at more than timeout - every keeps the promise.
        silent_before = self.time.now_ms() - (self.timeout_ms - self.every_ms)
        for subscriber, at_ms in tuple(self.heard.items()):
            if at_ms < silent_before:
                del self.heard[subscriber]
                subscriber.drop(SILENT, "no heartbeat")

    async def run(self) -> None:
        while True:
            await self.time.sleep_until(self.time.now_ms() + self.every_ms)
            self.sweep()


def rate_limit(settings: Settings, time: TimeSource) -> RateLimit:
    return RateLimit(time, per_s=settings.rate_per_s, burst=settings.rate_burst)


def command_rate(settings: Settings, time: TimeSource) -> RateLimit:
    """A seat's commands across all its sockets; an offline message counts each one."""
    return RateLimit(time, per_s=settings.command_rate_per_s, burst=settings.command_burst)
