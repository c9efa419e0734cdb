"""Per-socket bounded queues: a slow phone never delays the others."""

from __future__ import annotations

import asyncio

QUEUE_LIMIT = 256


class Subscriber:
    """One socket's outgoing messages; overflows mark it for a resync."""

    def __init__(self, role: str, limit: int = QUEUE_LIMIT) -> None:
        self.role = role
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=limit)
        self.overflowed = asyncio.Event()
        self.revoked = asyncio.Event()

    def offer(self, message: str) -> bool:
        if self.overflowed.is_set():
            return False
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed.set()
            return False
        return True


class Channel:
    """Local fan-out for one table; a networked backend can stand behind the same calls."""

    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()

    def join(self, subscriber: Subscriber) -> None:
        self.subscribers.add(subscriber)

    def leave(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)

    def publish(self, message: str) -> None:
        for subscriber in tuple(self.subscribers):
            if not subscriber.offer(message):
                self.subscribers.discard(subscriber)
