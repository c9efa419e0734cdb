"""Redis between the workers: the fan-out backend for several processes.

Every message is a JSON envelope published on `<prefix>:<channel>`. One connection
publishes: what was queued during a turn of the event loop is written at its end, in
order, without waiting for the replies to what went before. One connection subscribes,
and its messages are handled as they are read (`app.cluster.resp`, which says why not
redis-py's client). `RedisBroadcast` stands behind the same `Broadcast` interface as
`MemoryBroadcast`: a channel's `publish` reaches its subscribers on this worker at once
and on every other worker through Redis.

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
from typing import Any

import orjson

from app.cluster import resp
from app.cluster.resp import RedisTrouble, RespConnection
from app.tables.fanout import Channel, Subscriber

log = logging.getLogger(__name__)

RETRY_S = 0.25  # between reconnection attempts
PING_S = 0.5  # how often the connections are checked
SILENT_S = 2.0  # a reply owed for so long: Redis is in trouble

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
        self._flush_due = False
        self._batches = self.channel_name("c:@").encode()
        self._my_batches = self._batches + worker_id.encode()
        self._tasks: list[asyncio.Task[None]] = []
        self._publisher: RespConnection | None = None
        self._listener: RespConnection | None = None
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
        self._tasks = [asyncio.create_task(self._run_forever())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), wait_s)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._disconnect()

    def _disconnect(self) -> None:
        for conn in (self._listener, self._publisher):
            if conn is not None:
                conn.fail("closed")
        self._listener = self._publisher = None

    def _down(self, why: str) -> None:
        if self.healthy or (not self._ever_up and self.trouble == "not connected yet"):
            log.error("Redis is unavailable (%s): commands are refused until it returns", why)
        self.healthy = False
        self.trouble = f"Redis is unavailable: {why}"
        self._connected.clear()
        self._outbox.clear()  # what could not go out is read back from the store later

    async def _connect(self) -> tuple[RespConnection, RespConnection]:
        listener = await resp.connect(self.url, self._pushed)
        self._listener = listener
        await listener.call("PSUBSCRIBE", self.channel_name("c:*"))
        for channel in (self.inbox, "all"):
            await listener.call("SUBSCRIBE", self.channel_name(channel))
        publisher = await resp.connect(self.url)
        self._publisher = publisher
        await publisher.call("PING")
        return listener, publisher

    async def _run_forever(self) -> None:
        while True:
            try:
                try:
                    connections = await asyncio.wait_for(self._connect(), SILENT_S)
                except TimeoutError:
                    raise RedisTrouble(f"no answer for {SILENT_S:g} s") from None
                if self._ever_up:
                    log.warning("Redis is back: taking commands again")
                self.healthy, self.trouble, self._ever_up = True, None, True
                self.epoch += 1
                self._connected.set()
                for recover in tuple(self.on_recover):
                    await recover()
                await self._watch(connections)
            except asyncio.CancelledError:
                raise
            except RedisTrouble as exc:
                self._down(str(exc) or type(exc).__name__)
            self._disconnect()
            await asyncio.sleep(RETRY_S)

    async def _watch(self, connections: tuple[RespConnection, ...]) -> None:
        """Until a connection fails: each is checked every `PING_S` (a PING when quiet)."""
        closed = {conn.closed for conn in connections}
        while True:
            done, _ = await asyncio.wait(closed, timeout=PING_S)
            for conn in connections:
                if conn.closed in done:
                    raise RedisTrouble(conn.trouble or "connection closed")
                conn.check(SILENT_S)

    def _pushed(self, message: list[Any]) -> None:
        """A message of a subscription, in the connection's own callback."""
        try:
            if message[0] == b"pmessage":
                if message[2].startswith(self._batches):
                    if message[2] != self._my_batches:  # our own were delivered here already
                        for envelope in orjson.loads(message[3]):
                            self._handle(envelope)
                    return
                data = message[3]
            else:
                data = message[2]
            envelope = orjson.loads(data)
        except (orjson.JSONDecodeError, IndexError, TypeError, AttributeError):
            log.exception("an unreadable message came through Redis")
            return
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

    # -- sending ----------------------------------------------------------------------

    def send(self, channel: str, envelope: dict[str, Any]) -> bool:
        """Queue `envelope` for `channel` (sent in order); False: Redis is down."""
        if not self.healthy:
            return False
        envelope["w"] = self.worker_id
        to_all = channel == "all" or channel.startswith("c:")
        name = None if to_all else self.channel_name(channel)
        self._outbox.append((name, orjson.dumps(envelope)))
        if not self._flush_due:  # once the callbacks of this turn of the loop have run
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)
        return True

    def _flush(self) -> None:
        """What was queued, written at once: the envelopes to every worker as one message
        (in order with those to one worker), without waiting for earlier replies."""
        self._flush_due = False
        batch, self._outbox = self._outbox, []
        publisher = self._publisher
        if publisher is None or not self.healthy or not batch:
            return
        commands: list[bytes] = []
        together: list[bytes] = []
        for channel, data in batch:
            if channel is None:
                together.append(data)
                continue
            if together:  # what was queued before it goes before it
                commands.append(resp.encode(b"PUBLISH", self._my_batches, _array(together)))
                together = []
            commands.append(resp.encode(b"PUBLISH", channel, data))
        if together:
            commands.append(resp.encode(b"PUBLISH", self._my_batches, _array(together)))
        try:
            publisher.send(*commands)
        except RedisTrouble as exc:
            publisher.fail(str(exc))  # the watch sees it: down, and back when it can


def _array(envelopes: list[bytes]) -> bytes:
    return b"[%s]" % b",".join(envelopes)


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
