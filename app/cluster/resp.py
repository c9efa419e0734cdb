"""A Redis connection for the backplane: commands written at once, replies parsed as they
come (hiredis), and pushed messages handed on in the same callback.

The backplane needs three things of Redis: PUBLISH, (P)SUBSCRIBE and PING. redis-py's
asyncio client does each as a coroutine that waits for its reply before the next command
may go (a pipeline too waits for all of its replies), and reads a subscription's messages
one awaited call at a time. Every forwarded command and its reply crossed that twice
(written by a task woken for it, read by another). At 5,000 tables on two workers, timed
in the worker from the command's arrival to its ack: a forwarded tap took 8 to 13 ms at the
median against 4.4 ms for one applied where it came in; with this connection, 4.2 to 5.0
against 2.5 to 3.1 ms, and the server's CPU per tap fell from 0.71-0.74 to 0.63-0.64 ms
(bench.table_latency; redis-py's own code had been about a tenth of a worker's samples).

Here a command is one `transport.write` (in order, without waiting for the replies
before it: Redis answers in order), and a subscription's messages are parsed by hiredis
and dispatched within `data_received`. The connection is watched as redis-py's was: a
PING when nothing was heard for a while, and trouble once `silent_s` pass without a
byte from Redis while a reply is owed.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Callable
from typing import Any, cast

Push = Callable[[list[Any]], None]


class RedisTrouble(Exception):
    """Redis refused a command, stopped answering, or went away."""


def encode(*parts: bytes | str) -> bytes:
    """One command in RESP: an array of bulk strings."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


PING = encode(b"PING")


class RespConnection(asyncio.Protocol):
    """One connection to Redis. Replies to commands are counted and checked; arrays
    pushed by a subscription (`message`, `pmessage`) go to `push` as they are parsed."""

    def __init__(self, push: Push | None = None, clock: Callable[[], float] = time.monotonic):
        import hiredis  # the redis extra's: read only by a worker of several

        self._push = push
        self._clock = clock
        self._reader = hiredis.Reader()
        self._unreadable, self._refused = hiredis.ProtocolError, hiredis.ReplyError
        self._transport: asyncio.Transport | None = None
        self._owed = 0  # replies not yet read
        self._answers: list[asyncio.Future[Any]] = []  # replies somebody awaits, in order
        self.heard_at = self.owed_since = clock()
        self.trouble: str | None = None
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # -- asyncio's side ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)

    def data_received(self, data: bytes) -> None:
        self.heard_at = self._clock()
        self._reader.feed(data)
        while True:
            try:
                reply = self._reader.gets()
            except self._unreadable as exc:
                self.fail(f"unreadable reply: {exc}")
                return
            if reply is False:
                return
            self._replied(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        self.fail(str(exc) if exc else "connection closed")

    # -- ours -------------------------------------------------------------------------

    def _replied(self, reply: Any) -> None:
        if isinstance(reply, list) and reply and reply[0] in (b"message", b"pmessage"):
            if self._push is not None:
                self._push(reply)
            return
        if self._owed == 0:
            return  # nothing owed: not an answer of ours (cannot happen in RESP2)
        self._owed -= 1
        if isinstance(reply, self._refused):
            self.fail(f"Redis refused a command: {reply}")
            return
        if self._answers:
            answer = self._answers.pop(0)
            if not answer.done():
                answer.set_result(reply)

    def send(self, *commands: bytes) -> None:
        """Write encoded commands at once, in order; their replies are read later."""
        if self._transport is None or self.trouble is not None:
            raise RedisTrouble(self.trouble or "not connected")
        if not self._owed:
            self.owed_since = self._clock()
        self._owed += len(commands)
        self._transport.write(b"".join(commands))

    async def call(self, *parts: bytes | str) -> Any:
        """Send one command and wait for its reply (connecting, subscribing)."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self._owed:
            raise RedisTrouble("a reply awaited behind others")  # only at the start
        self.send(encode(*parts))
        self._answers.append(answer)
        try:
            done, _ = await asyncio.wait((answer, self.closed), return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not answer.done():  # given up on (a timeout): nobody reads what comes of it
                answer.cancel()
        if answer not in done:
            raise RedisTrouble(self.trouble or "connection closed")
        return answer.result()

    def check(self, silent_s: float) -> None:
        """Called now and then: a PING if nothing was heard lately, trouble if a reply is
        owed and nothing came for `silent_s`."""
        now = self._clock()
        quiet = now - self.heard_at
        waited = now - max(self.heard_at, self.owed_since)
        if self._owed and waited >= silent_s:
            self.fail(f"no answer for {waited:.1f} s")
        elif not self._owed and quiet >= silent_s / 4:
            self.send(PING)

    def fail(self, why: str) -> None:
        if self.trouble is None:
            self.trouble = why
        for answer in self._answers:
            if not answer.done():
                answer.set_exception(RedisTrouble(why))
        self._answers.clear()
        if self._transport is not None:
            self._transport.abort()
        if not self.closed.done():
            self.closed.set_result(None)


async def connect(url: str, push: Push | None = None, timeout_s: float = 1.0) -> RespConnection:
    """A connection to the Redis at `url` (redis://, rediss://, unix://), authenticated
    when the URL has a password."""
    from redis.connection import parse_url

    options = parse_url(url)  # type: ignore[no-untyped-call]
    loop = asyncio.get_running_loop()
    made = RespConnection(push)
    context = ssl.create_default_context() if url.startswith("rediss://") else None

    async def opened() -> None:
        if "path" in options:
            await loop.create_unix_connection(lambda: made, options["path"])
        else:
            host, port = options.get("host", "localhost"), options.get("port", 6379)
            await loop.create_connection(lambda: made, host, port, ssl=context)
        if options.get("password"):
            user = options.get("username")
            auth = ("AUTH", user, options["password"]) if user else ("AUTH", options["password"])
            await made.call(*auth)

    try:
        await asyncio.wait_for(opened(), timeout_s)
    except (OSError, TimeoutError) as exc:
        made.fail(str(exc) or type(exc).__name__)
        raise RedisTrouble(str(exc) or type(exc).__name__) from exc
    except RedisTrouble:
        made.fail("refused")
        raise
    return made
