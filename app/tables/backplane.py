"""Redis between the workers: the fan-out backend for several processes.

Every message is a JSON envelope published on `<prefix>:<channel>`. One connection
publishes (a writer task sends what is queued, in order, in one pipeline), one pub/sub
connection reads. `RedisBroadcast` stands behind the same `Broadcast` interface as
`MemoryBroadcast`: a channel's `publish` reaches its subscribers on this worker at once
and on every other worker through Redis.

The redis extra brings hiredis, redis-py's C reply parser: every worker reads every
table's events, and the parser is most of what that costs (about 40 % less CPU per
message than the pure-Python one, measured here).

What goes to every worker (a channel's messages, news for all) leaves in one message per
write: the envelopes queued meanwhile, as one JSON array, on this worker's own channel
`c:@<worker>`. Redis then handles one publish where it had dozens, and each reader one
message; a worker skips its own by the channel's name alone. Messages to one worker
(forwarded commands, their replies) go on their own, in order with the rest.

When Redis goes away the backplane says so (`healthy`, `trouble`, the log), drops what
it cannot send, and reconnects by itself; `on_recover` callbacks then run, so that
whatever listens can read back from the store what it may have missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson

from app.tables.fanout import Channel, Subscriber

if TYPE_CHECKING:  # redis is read only by a worker of several (a start without it is sooner)
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)

RETRY_S = 0.25  # between reconnection attempts
PING_S = 0.5  # how often a quiet connection is checked

Handler = Callable[[dict[str, Any]], None]


class Backplane:
    """Envelopes to and from the other workers, by channel."""

    def __init__(self, url: str, prefix: str, worker_id: str) -> None:
        self.url = url
        self.prefix = prefix
        self.worker_id = worker_id
        self.healthy = False
        self.trouble: str | None = "not connected yet"
        self._ever_up = False
        self.handlers: dict[str, Handler] = {}
        self.on_recover: list[Callable[[], Awaitable[None]]] = []
        #: (channel, envelope); channel None: every worker's (sent in this worker's batch).
        self._outbox: list[tuple[str | None, bytes]] = []
        self._batches = self.channel_name("c:@")
        self._my_batches = self._batches + worker_id
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Redis | None = None
        self._pubsub: PubSub | None = None
        self._connected = asyncio.Event()
        #: How many times the connection has come up: a message sent before the last
        #: time may have been dropped with the old connection.
        self.epoch = 0

    # -- names ----------------------------------------------------------------------

    def channel_name(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    @property
    def inbox(self) -> str:
        """This worker's own channel (commands forwarded to it, their replies)."""
        return f"w:{self.worker_id}"

    # -- life -----------------------------------------------------------------------

    async def start(self, wait_s: float = 5.0) -> None:
        self._tasks = [asyncio.create_task(self._read_forever())]
        self._tasks.append(asyncio.create_task(self._write_forever()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), wait_s)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._disconnect()

    async def _disconnect(self) -> None:
        pubsub, redis, self._pubsub, self._redis = self._pubsub, self._redis, None, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose()

    def _down(self, why: str) -> None:
        if self.healthy or (not self._ever_up and self.trouble == "not connected yet"):
            log.error("Redis is unavailable (%s): commands are refused until it returns", why)
        self.healthy = False
        self.trouble = f"Redis is unavailable: {why}"
        self._connected.clear()
        self._outbox.clear()  # what could not go out is read back from the store later

    async def _connect(self) -> PubSub:
        from redis.asyncio import Redis

        redis = Redis.from_url(self.url, socket_connect_timeout=1.0, socket_timeout=2.0)
        await redis.ping()
        pubsub = redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(self.channel_name("c:*"))
        await pubsub.subscribe(self.channel_name(self.inbox), self.channel_name("all"))
        self._redis, self._pubsub = redis, pubsub
        return pubsub

    async def _read_forever(self) -> None:
        from redis.exceptions import RedisError

        while True:
            try:
                pubsub = await self._connect()
                if self._ever_up:
                    log.warning("Redis is back: taking commands again")
                self.healthy, self.trouble, self._ever_up = True, None, True
                self.epoch += 1
                self._connected.set()
                for recover in tuple(self.on_recover):
                    await recover()
                await self._read(pubsub)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._down(str(exc) or type(exc).__name__)
            await self._disconnect()
            await asyncio.sleep(RETRY_S)

    async def _read(self, pubsub: PubSub) -> None:
        while True:
            message = await pubsub.get_message(timeout=PING_S)
            if message is None:
                await pubsub.ping()
                continue
            kind = message.get("type")
            if kind == "pmessage":
                channel = message["channel"].decode()
                if channel.startswith(self._batches):
                    if channel != self._my_batches:  # our own were delivered here already
                        for envelope in orjson.loads(message["data"]):
                            self._handle(envelope)
                    continue
            elif kind != "message":
                continue
            envelope = orjson.loads(message["data"])
            if envelope.get("w") != self.worker_id:
                self._handle(envelope)

    def _handle(self, envelope: dict[str, Any]) -> None:
        handler = self.handlers.get(envelope.get("k", ""))
        if handler is None:
            return
        try:
            handler(envelope)
        except Exception:
            log.exception("a message from worker %s could not be handled", envelope.get("w"))

    async def _write_forever(self) -> None:
        from redis.exceptions import RedisError

        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch, self._outbox = self._outbox, []
                redis = self._redis
                if redis is None or not self.healthy:
                    continue
                try:
                    async with redis.pipeline(transaction=False) as pipe:
                        together: list[bytes] = []
                        for channel, data in batch:
                            if channel is None:
                                together.append(data)
                                continue
                            if together:  # what was queued before it goes before it
                                pipe.publish(self._my_batches, b"[%s]" % b",".join(together))
                                together = []
                            pipe.publish(channel, data)
                        if together:
                            pipe.publish(self._my_batches, b"[%s]" % b",".join(together))
                        await pipe.execute()
                except (RedisError, OSError) as exc:
                    self._down(str(exc) or type(exc).__name__)

    # -- sending ----------------------------------------------------------------------

    def send(self, channel: str, envelope: dict[str, Any]) -> bool:
        """Queue `envelope` for `channel` (sent in order); False: Redis is down."""
        if not self.healthy:
            return False
        envelope["w"] = self.worker_id
        to_all = channel == "all" or channel.startswith("c:")
        name = None if to_all else self.channel_name(channel)
        self._outbox.append((name, orjson.dumps(envelope)))
        self._wake.set()
        return True


class RelayChannel(Channel):
    """A channel whose subscribers are on every worker.

    `publish` offers the message here and relays it; a relayed message reaches this
    worker's subscribers through `arrived` (or whoever took `on_remote` over: a table
    that follows its owner's log)."""

    def __init__(self, name: str, backplane: Backplane) -> None:
        super().__init__()
        self.name = name
        self.backplane = backplane
        self.on_remote: Callable[[dict[str, Any]], None] | None = None

    def publish(self, message: str, skip: Subscriber | None = None) -> None:
        super().publish(message, skip)
        self.relay({"text": message})

    def relay(self, envelope: dict[str, Any]) -> bool:
        envelope["k"] = "c"
        envelope["ch"] = self.name
        return self.backplane.send(f"c:{self.name}", envelope)

    def local(self, message: str, skip: Subscriber | None = None) -> None:
        """Offer to this worker's subscribers only."""
        super().publish(message, skip)

    def arrived(self, envelope: dict[str, Any]) -> None:
        if self.on_remote is not None:
            self.on_remote(envelope)
        elif "text" in envelope:
            self.local(envelope["text"])


class RedisBroadcast:
    """Channels by name whose messages reach every worker (Redis pub/sub)."""

    def __init__(self, backplane: Backplane) -> None:
        self.backplane = backplane
        self._channels: dict[str, RelayChannel] = {}
        backplane.handlers["c"] = self._arrived

    def channel(self, name: str) -> RelayChannel:
        found = self._channels.get(name)
        if found is None:
            found = self._channels[name] = RelayChannel(name, self.backplane)
        return found

    def forget(self, name: str) -> None:
        self._channels.pop(name, None)

    def _arrived(self, envelope: dict[str, Any]) -> None:
        found = self._channels.get(envelope.get("ch", ""))
        if found is not None:
            found.arrived(envelope)
