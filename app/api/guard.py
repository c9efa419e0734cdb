"""Socket housekeeping: origin check, heartbeat, message rate, and a socket's life."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from starlette.requests import HTTPConnection

from app.domain.errors import RuleError
from app.settings import Settings
from app.sockets import ANSWER, WRITE
from app.tables import protocol
from app.tables.fanout import REPLACED, SILENT, Subscriber
from app.tables.timesource import TimeSource

HEARTBEAT_MS = 10_000
SWEEP_MS = 1_000
SOCKETS_PER_TABLE = 16
RATE_PER_S = 15.0
RATE_BURST = 40.0


def token_matches(given: object, secret: str) -> bool:
    """Whether `given` is `secret`, in time that does not depend on where they differ."""
    if not isinstance(given, str) or not given or not secret:
        return False
    try:
        given_bytes = given.encode()
    except UnicodeEncodeError:  # a lone surrogate escape: never a token
        return False
    return hmac.compare_digest(given_bytes, secret.encode())


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


async def _write(websocket: WebSocket, subscriber: Subscriber) -> None:
    queue = subscriber.queue
    while True:
        text = await queue.get()
        subscriber.taken(text)
        subscriber.writing = True
        try:
            await websocket.send_text(text)
        finally:
            subscriber.writing = False


def send_now(websocket: WebSocket, text: str) -> bool:
    """Send `text` if the socket takes it without waiting; False (nothing sent) if not.

    A send waits only while the phone's TCP buffer is full (the server's transport is
    paused); otherwise it completes in one step. That step is taken here, so a message
    leaves in the same turn of the loop as the tap that made it, with no writer task to
    wake. A send that would wait is abandoned before anything is written, and the
    message goes to the queue instead.
    """
    step = websocket.send_text(text)
    try:
        step.send(None)
    except StopIteration:
        return True
    step.close()
    return False


def send_each_now(websocket: WebSocket, texts: Sequence[str]) -> int:
    """`send_now` each text in turn while the socket takes them: how many it took."""
    for sent, text in enumerate(texts):
        if not send_now(websocket, text):
            return sent
    return len(texts)


def direct_writer(websocket: WebSocket) -> Callable[[Sequence[str]], int]:
    """How a subscriber writes to this socket at once: the server's own write
    (app.sockets: several messages in one write, the framework's send skipped) where it
    offers it, else each message sent as usual."""
    found = websocket.scope.get("extensions", {}).get(WRITE)
    if found is not None:
        write: Callable[[Sequence[str]], int] = found["write"]
        return write
    return lambda texts: send_each_now(websocket, texts)


def answer_at_once(
    subscriber: Subscriber,
    heartbeats: Heartbeats,
    rate: RateLimit,
    pong: Callable[[protocol.Ping], None],
) -> Callable[[bytes], bool]:
    """What answers a phone's heartbeat as the server reads it (app.sockets): heard, within
    the rate, answered by `pong`, just as the reader does. Anything but a ping is left to
    the reader (False), untouched: it is counted there."""

    def answer(data: bytes) -> bool:
        if PING not in data:
            return False
        try:
            msg = protocol.parse(data.decode())
        except (RuleError, UnicodeDecodeError):
            return False
        if not isinstance(msg, protocol.Ping):
            return False
        heartbeats.seen(subscriber)
        if rate.allow():
            pong(msg)
        else:
            subscriber.offer(error_message("rate_limited", "too many messages: slow down"))
        return True

    return answer


PING = b'"ping"'


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        if code == REPLACED:
            await asyncio.wait_for(
                websocket.send_text(
                    error_message(
                        "forbidden", "this link was replaced by the EO; ask for the new one"
                    )
                ),
                timeout=1.0,
            )
        await asyncio.wait_for(websocket.close(code=code, reason=reason), timeout=1.0)


error_message = protocol.error


async def serve(
    websocket: WebSocket,
    subscriber: Subscriber,
    heartbeats: Heartbeats,
    rate: RateLimit,
    handle: Callable[[protocol.ClientMessage], Awaitable[None]],
    read_command: protocol.CommandReader | None = None,
    pong: Callable[[protocol.Ping], None] | None = None,
) -> None:
    """Run a socket until the client leaves or `subscriber` is dropped.

    Every message goes to `handle`, parsed (heard for the heartbeat, within the rate);
    what cannot be parsed gets an `error` back. `pong`: how a ping is answered, where the
    server can answer it as it reads it (`answer_at_once`); `handle` gets the pings
    otherwise.
    Two tasks a socket (its reader and its writer); a drop (queue overflow, replaced
    link, silence) resolves a future instead of waking a watcher task per socket.
    """
    stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def read() -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                heartbeats.seen(subscriber)
                if not rate.allow():
                    subscriber.offer(error_message("rate_limited", "too many messages: slow down"))
                    continue
                text = message.get("text")
                if text is None:
                    subscriber.offer(
                        error_message("bad_input", "binary frames are not accepted; send JSON text")
                    )
                    continue
                try:
                    msg = protocol.parse(text, read_command)
                except RuleError as exc:
                    subscriber.offer(error_message(exc.code, exc.message, exc.seq))
                    continue
                await handle(msg)

    def stopped() -> None:
        if not stop.done():
            stop.set_result(None)

    subscriber.on_drop = stopped
    subscriber.direct = direct_writer(websocket)
    at_once = websocket.scope.get("extensions", {}).get(ANSWER)
    if at_once is not None and pong is not None:
        at_once["set"](answer_at_once(subscriber, heartbeats, rate, pong))
    heartbeats.join(subscriber)
    reader = asyncio.create_task(read())
    writer = asyncio.create_task(_write(websocket, subscriber))
    try:
        await asyncio.wait((reader, stop), return_when=asyncio.FIRST_COMPLETED)
        writer.cancel()
        reader.cancel()
        if subscriber.dropped is not None:
            await _close(websocket, *subscriber.dropped)
    finally:
        if at_once is not None:
            at_once["set"](None)
        heartbeats.forget(subscriber)
        subscriber.on_drop = None
        subscriber.direct = None
        writer.cancel()
        reader.cancel()


def charge_miss(conn: HTTPConnection) -> None:
    """A socket refused for an unknown table or event, or a wrong token: it costs its
    address a token, as a 404 or 403 does."""
    limits: ClientLimits | None = getattr(conn.app.state, "client_limits", None)
    if limits is not None:
        limits.charge(conn.client.host if conn.client else "unknown")


HELLO_TIMEOUT_S = 15.0


async def refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    """Say why, then close: what every socket does with a hello it cannot take."""
    with contextlib.suppress(Exception):
        await websocket.send_text(error_message(code, message))
        await websocket.close(code=close)


async def open_socket(websocket: WebSocket, what: str, found: bool) -> str | None:
    """The start every socket shares: an origin of this server's, then accepted; the
    table or event it names (`found`, else 4404); then its first message, text, within
    HELLO_TIMEOUT_S. The hello's text, or None once the socket is refused and closed."""
    if not origin_allowed(websocket, websocket.app.state.settings.allowed_origins):
        charge_miss(websocket)
        await websocket.close(code=4403)
        return None
    await websocket.accept()
    if not found:
        charge_miss(websocket)
        await refuse(websocket, "not_found", f"no {what}", 4404)
        return None
    try:
        first = await asyncio.wait_for(websocket.receive(), timeout=HELLO_TIMEOUT_S)
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await websocket.close(code=4400)
        return None
    if first["type"] == "websocket.disconnect":
        return None
    text = first.get("text")
    if not isinstance(text, str):
        await refuse(websocket, "bad_input", "binary frames are not accepted; send JSON text", 4400)
        return None
    return text
