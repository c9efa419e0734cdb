"""Socket housekeeping: origin check, and a socket's life within its limits
(app.api.limits)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import Awaitable, Callable, Sequence
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from starlette.requests import HTTPConnection

from app.api.limits import ClientLimits, Heartbeats, RateLimit
from app.domain.errors import RuleError
from app.sockets import ANSWER, WRITE
from app.tables import protocol
from app.tables.fanout import REPLACED, Subscriber

SOCKETS_PER_TABLE = 16


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


def heard_within_rate(subscriber: Subscriber, heartbeats: Heartbeats, rate: RateLimit) -> bool:
    """A message came: the socket is alive (its heartbeat), and the message is within the
    socket's rate, or it is refused with an error (False)."""
    heartbeats.seen(subscriber)
    if rate.allow():
        return True
    subscriber.offer(error_message("rate_limited", "too many messages: slow down"))
    return False


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
        if heard_within_rate(subscriber, heartbeats, rate):
            pong(msg)
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
                if not heard_within_rate(subscriber, heartbeats, rate):
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
