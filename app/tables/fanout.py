"""Fan-out: per-socket bounded queues (a slow phone never delays the others), channels
of subscribers, and the broadcast backend that hands channels out by name.

Rooms and dashboards only ever see a `Channel` from a `Broadcast`; the in-memory
backend is all one process needs, and a networked one (Redis pub/sub, as in
encode/broadcaster) can stand behind the same two calls.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

QUEUE_LIMIT = 256
QUEUE_BYTES = 1 << 20

#: Close codes for a dropped subscriber (the page knows what each means).
RESYNC = 1013  # it stopped reading: reconnect and resync
REPLACED = 4401  # the EO replaced its link
SILENT = 4408  # no heartbeat


class Outbox:
    """A socket's bounded queue of messages waiting for its writer: what the socket uses
    of `asyncio.Queue` (put_nowait, get, get_nowait, empty, qsize, maxsize), in a
    fraction of its memory. An asyncio.Queue holds three deques and an Event from the
    start, 2.5 KB a socket, 25 MB for a hall of 5,000 tables' phones; most sockets never queue
    anything (their messages go straight out), and this holds a deque only while it
    does. One writer waits on it at a time."""

    __slots__ = ("_getter", "_items", "maxsize")

    def __init__(self, maxsize: int = 0) -> None:
        self.maxsize = maxsize  # 0 or less: unbounded
        self._items: deque[str] | None = None
        self._getter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items) if self._items else 0

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: str) -> None:
        items = self._items
        if items is None:
            items = self._items = deque()
        elif 0 < self.maxsize <= len(items):
            raise asyncio.QueueFull
        items.append(item)
        getter = self._getter
        if getter is not None and not getter.done():
            getter.set_result(None)

    def get_nowait(self) -> str:
        items = self._items
        if not items:
            raise asyncio.QueueEmpty
        item = items.popleft()
        if not items:
            self._items = None
        return item

    async def get(self) -> str:
        while not self._items:
            getter = self._getter = asyncio.get_running_loop().create_future()
            try:
                await getter
            finally:
                self._getter = None
        return self.get_nowait()


class Subscriber:
    """One socket's outgoing messages; dropped on overflow, a replaced link or silence.

    A message goes straight out through `direct` when nothing is queued or being sent
    and the socket takes it at once; otherwise it waits in the bounded queue for the
    socket's writer. Either way the order holds, and a phone that reads slowly only
    fills its own queue. Messages offered together (`offer_all`: a tap's event and its
    ack) go out together, in one write.
    """

    __slots__ = (
        "direct",
        "dropped",
        "limit_bytes",
        "on_drop",
        "queue",
        "queued_bytes",
        "role",
        "writing",
    )

    def __init__(self, role: str, limit: int = QUEUE_LIMIT, limit_bytes: int = QUEUE_BYTES) -> None:
        self.role = role
        self.queue = Outbox(limit)
        #: Text waiting in the queue: bounded too, so a few large messages cannot pile up.
        self.queued_bytes = 0
        self.limit_bytes = limit_bytes
        #: (close code, reason) once dropped; the socket then closes with it.
        self.dropped: tuple[int, str] | None = None
        self.on_drop: Callable[[], None] | None = None
        #: Writes messages out now, in order, as many as the socket takes without
        #: waiting: how many it wrote.
        self.direct: Callable[[Sequence[str]], int] | None = None
        #: True while the socket's writer is in the middle of sending.
        self.writing = False

    @property
    def overflowed(self) -> bool:
        return self.dropped is not None and self.dropped[0] == RESYNC

    def drop(self, code: int, reason: str) -> None:
        if self.dropped is None:
            self.dropped = (code, reason)
            if self.on_drop is not None:
                self.on_drop()

    def offer(self, message: str) -> bool:
        return self.offer_all((message,))

    def offer_all(self, messages: Sequence[str]) -> bool:
        """Offer `messages`, in order; False: the subscriber is dropped (now or before)."""
        if self.dropped is not None:
            return False
        if self.direct is not None and not self.writing and self.queue.empty():
            try:
                written = self.direct(messages)
            except Exception:  # the socket is gone: its reader ends it
                self.drop(RESYNC, "resync")
                return False
            if written == len(messages):
                return True
            messages = messages[written:]
        for message in messages:
            if self.queued_bytes + len(message) > self.limit_bytes:
                self.drop(RESYNC, "resync")
                return False
            try:
                self.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.drop(RESYNC, "resync")
                return False
            self.queued_bytes += len(message)
        return True

    def taken(self, message: str) -> None:
        """The writer took `message` off the queue."""
        self.queued_bytes -= len(message)


class Channel:
    """Local fan-out for one table; a networked backend can stand behind the same calls."""

    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()

    def join(self, subscriber: Subscriber) -> None:
        self.subscribers.add(subscriber)

    def leave(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)

    def publish(self, message: str, skip: Subscriber | None = None) -> None:
        """Offer `message` to every subscriber but `skip` (the sender's screen, which
        gets it with its ack: `send`)."""
        for subscriber in tuple(self.subscribers):
            if subscriber is not skip and not subscriber.offer(message):
                self.subscribers.discard(subscriber)

    def send(self, subscriber: Subscriber, message: str) -> None:
        """Offer `message` to one subscriber of the channel."""
        if subscriber in self.subscribers and not subscriber.offer(message):
            self.subscribers.discard(subscriber)

    def relay(self, envelope: dict[str, Any]) -> bool:
        """Tell the channel's subscribers in other processes (a networked backend);
        False: there are none to tell."""
        return False


class Broadcast(Protocol):
    """Where channels come from, by name ("table:<id>", "event:<id>")."""

    def channel(self, name: str) -> Channel: ...

    def forget(self, name: str) -> None: ...


class MemoryBroadcast:
    """The in-process backend: a channel is a set of this process's subscribers."""

    def __init__(self) -> None:
        self._channels: dict[str, Channel] = {}

    def channel(self, name: str) -> Channel:
        found = self._channels.get(name)
        if found is None:
            found = self._channels[name] = Channel()
        return found

    def forget(self, name: str) -> None:
        self._channels.pop(name, None)
