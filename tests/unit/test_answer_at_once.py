"""A phone's heartbeat answered as the server reads it (app.sockets `deathclock.answer`,
app.api.guard `answer_at_once`): the pong leaves in the turn of the loop that read the
ping, heard and within the rate as the reader would have it; everything else, and a ping
behind a message the app has not read yet, goes to the app in order."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.api.guard import answer_at_once
from app.api.limits import Heartbeats, RateLimit
from app.sockets import ANSWER, ServerSockets
from app.tables import protocol
from app.tables.fanout import Subscriber
from tests.unit.test_server_sockets import Phone, Transport, open_socket


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000

    def now_ms(self) -> int:
        return self.ms


Served = tuple[ServerSockets, Transport, Phone, dict[str, Any], asyncio.Queue[Any], asyncio.Event]


async def _served() -> Served:
    """A socket through its handshake; what the app reads, once `reading` is set, goes to
    the queue returned."""
    accepted = asyncio.Event()
    scopes: dict[str, Any] = {}
    read: asyncio.Queue[Any] = asyncio.Queue()
    reading = asyncio.Event()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scopes["scope"] = scope
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        accepted.set()
        while True:
            await reading.wait()
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            read.put_nowait(message.get("text"))

    sockets, transport, phone = await open_socket(app, accepted)
    return sockets, transport, phone, scopes["scope"], read, reading


def _frame(phone: Phone, text: str) -> bytes:
    phone.conn.send_text(text.encode())
    return b"".join(phone.conn.data_to_send())


def _answer(clock: Clock, rate: RateLimit | None = None) -> tuple[Any, Subscriber, Heartbeats]:
    subscriber = Subscriber("p1")
    sent: list[str] = []
    subscriber.direct = lambda texts: sent.extend(texts) or len(texts)
    heartbeats = Heartbeats(clock)  # type: ignore[arg-type]
    heartbeats.join(subscriber)
    limit = rate or RateLimit(clock, per_s=15.0, burst=40.0)  # type: ignore[arg-type]

    def pong(msg: protocol.Ping) -> None:
        subscriber.offer(protocol.pong(msg, clock.now_ms()))

    answer = answer_at_once(subscriber, heartbeats, limit, pong)
    answer.sent = sent  # type: ignore[attr-defined]
    return answer, subscriber, heartbeats


async def test_a_ping_is_answered_as_it_is_read_and_never_reaches_the_app() -> None:
    sockets, transport, phone, scope, read, reading = await _served()
    answered: list[bytes] = []

    def answer(data: bytes) -> bool:
        answered.append(data)
        if b'"ping"' not in data:
            return False
        sockets.write_now(['{"t":"pong","id":7}'])
        return True

    scope["extensions"][ANSWER]["set"](answer)
    sockets.data_received(_frame(phone, '{"t":"ping","id":7,"client_ms":5}'))
    # Answered in the same call, before the loop turns: nothing for the app to read.
    assert phone.read(transport.writes.pop()) == ['{"t":"pong","id":7}']
    assert sockets.queue.empty()
    sockets.data_received(_frame(phone, '{"t":"cmd","seq":1}'))
    assert answered[-1] == b'{"t":"cmd","seq":1}'
    reading.set()
    assert await read.get() == '{"t":"cmd","seq":1}'  # anything else: the app's, as before
    sockets.connection_lost(None)
    assert sockets.answer is None and ANSWER not in scope["extensions"]


async def test_a_ping_behind_a_message_the_app_has_not_read_waits_its_turn() -> None:
    sockets, transport, phone, scope, read, reading = await _served()
    scope["extensions"][ANSWER]["set"](lambda data: b'"ping"' in data)
    sockets.data_received(_frame(phone, '{"t":"cmd","seq":1}'))  # the app is not reading
    sockets.data_received(_frame(phone, '{"t":"ping","id":1,"client_ms":5}'))
    reading.set()
    assert await read.get() == '{"t":"cmd","seq":1}'
    assert await read.get() == '{"t":"ping","id":1,"client_ms":5}'  # in order, by the app
    assert transport.writes == []
    sockets.connection_lost(None)


async def test_the_answer_hears_the_phone_and_answers_with_the_servers_time() -> None:
    clock = Clock()
    answer, subscriber, heartbeats = _answer(clock)
    clock.ms = 9_000
    assert answer(b'{"t":"ping","id":3,"client_ms":12.5}') is True
    assert heartbeats.heard[subscriber] == 9_000  # counts as the phone's heartbeat
    (pong,) = answer.sent
    assert json.loads(pong) == {"t": "pong", "id": 3, "client_ms": 12.5, "server_ms": 9_000}


async def test_anything_but_a_ping_is_left_to_the_reader_uncounted() -> None:
    clock = Clock()
    rate = RateLimit(clock, per_s=1.0, burst=1.0)  # type: ignore[arg-type]
    answer, subscriber, heartbeats = _answer(clock, rate)
    clock.ms = 5_000
    for text in (b'{"t":"cmd","seq":1,"ping":"ping"}', b'{"t":"ping"', b'\xff"ping"', b"[]"):
        assert answer(text) is False
    assert heartbeats.heard[subscriber] == 1_000  # not heard here: the reader hears it
    assert rate.allow()  # and the reader counts it: the rate was not spent here
    assert answer.sent == []


async def test_a_ping_beyond_the_rate_gets_the_readers_refusal_not_a_pong() -> None:
    clock = Clock()
    rate = RateLimit(clock, per_s=1.0, burst=1.0)  # type: ignore[arg-type]
    answer, _subscriber, _heartbeats = _answer(clock, rate)
    assert answer(b'{"t":"ping","id":1,"client_ms":1}') is True
    assert answer(b'{"t":"ping","id":2,"client_ms":2}') is True
    first, second = (json.loads(text) for text in answer.sent)
    assert first["t"] == "pong" and first["id"] == 1
    assert second["t"] == "error" and second["code"] == "rate_limited"
