"""The backplane's Redis connection (app.cluster.resp): commands are written at once and in
order without waiting for earlier replies; replies are read as they come, in any chunks;
a subscription's messages are handed on in the same callback; a refusal, a silence while
a reply is owed, or a lost connection is trouble, said once and clearly."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.cluster.resp import RedisTrouble, RespConnection, encode


class Wire:
    """A transport that records what is written."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def abort(self) -> None:
        self.aborted = True

    def get_write_buffer_size(self) -> int:
        return 0


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def connected(push: Any = None) -> tuple[RespConnection, Wire, Clock]:
    clock = Clock()
    conn = RespConnection(push, clock)
    wire = Wire()
    conn.connection_made(wire)  # type: ignore[arg-type]
    return conn, wire, clock


def test_a_command_is_an_array_of_bulk_strings_byte_for_byte() -> None:
    assert encode(b"PUBLISH", "ch", "é") == b"*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$2\r\n\xc3\xa9\r\n"
    assert encode(b"PING") == b"*1\r\n$4\r\nPING\r\n"
    assert encode(b"SET", b"") == b"*2\r\n$3\r\nSET\r\n$0\r\n\r\n"


async def test_commands_go_in_one_write_in_order_without_waiting_for_replies() -> None:
    conn, wire, _ = connected()
    first, second = encode(b"PUBLISH", b"a", b"1"), encode(b"PUBLISH", b"b", b"2")
    conn.send(first, second)
    conn.send(encode(b"PING"))
    assert wire.writes == [first + second, encode(b"PING")]  # nothing waited for a reply
    conn.data_received(b":1\r\n:0")  # replies in any chunks
    conn.data_received(b"\r\n+PONG\r\n")
    assert conn.trouble is None and not conn.closed.done()


async def test_a_subscriptions_messages_are_handed_on_as_parsed_even_split() -> None:
    pushed: list[list[Any]] = []
    conn, _, _ = connected(pushed.append)
    message = b"*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n"
    pmessage = b"*4\r\n$8\r\npmessage\r\n$3\r\nc:*\r\n$3\r\nc:1\r\n$2\r\n[]\r\n"
    conn.data_received(message[:10])
    assert pushed == []
    conn.data_received(message[10:] + pmessage)
    assert pushed == [[b"message", b"ch", b"hello"], [b"pmessage", b"c:*", b"c:1", b"[]"]]


async def test_a_reply_somebody_waits_for_comes_back_to_them() -> None:
    conn, wire, _ = connected()
    answer = asyncio.ensure_future(conn.call("SUBSCRIBE", "d:all"))
    await asyncio.sleep(0)
    assert wire.writes == [encode(b"SUBSCRIBE", b"d:all")]
    conn.data_received(b"*3\r\n$9\r\nsubscribe\r\n$5\r\nd:all\r\n:1\r\n")
    assert await answer == [b"subscribe", b"d:all", 1]


async def test_a_refused_command_is_trouble_and_the_connection_is_dropped() -> None:
    conn, wire, _ = connected()
    answer = asyncio.ensure_future(conn.call("AUTH", "wrong"))
    await asyncio.sleep(0)
    conn.data_received(b"-WRONGPASS invalid username-password pair\r\n")
    with pytest.raises(RedisTrouble, match="WRONGPASS"):
        await answer
    assert conn.closed.done() and wire.aborted
    assert conn.trouble is not None and "refused" in conn.trouble
    with pytest.raises(RedisTrouble, match="WRONGPASS"):
        conn.send(encode(b"PING"))  # nothing more goes out on it


async def test_unreadable_bytes_are_trouble() -> None:
    conn, wire, _ = connected()
    conn.data_received(b"?what\r\n")
    assert conn.trouble is not None and "unreadable" in conn.trouble and wire.aborted


async def test_a_lost_connection_fails_whoever_waits() -> None:
    conn, _, _ = connected()
    answer = asyncio.ensure_future(conn.call("PING"))
    await asyncio.sleep(0)
    conn.connection_lost(ConnectionResetError("reset by peer"))
    with pytest.raises(RedisTrouble, match="reset by peer"):
        await answer
    assert conn.closed.done()


async def test_a_quiet_connection_is_pinged_and_a_silent_one_owing_a_reply_is_trouble() -> None:
    conn, wire, clock = connected()
    ping = encode(b"PING")
    conn.check(2.0)
    assert wire.writes == []  # heard just now
    clock.now += 0.5
    conn.check(2.0)
    assert wire.writes == [ping]  # quiet for a quarter of the limit: asked
    clock.now += 1.9
    conn.check(2.0)
    assert conn.trouble is None and len(wire.writes) == 1  # owed, not yet too long
    clock.now += 0.2
    conn.check(2.0)
    assert conn.trouble == "no answer for 2.1 s" and wire.aborted and conn.closed.done()


async def test_the_silence_counts_from_the_first_reply_owed_not_from_a_quiet_spell() -> None:
    conn, _, clock = connected()
    clock.now += 60  # a quiet minute, nothing owed
    conn.send(encode(b"PUBLISH", b"a", b"1"))
    clock.now += 1.0
    conn.check(2.0)
    assert conn.trouble is None  # its reply has been owed for 1 s only


async def test_an_answer_resets_the_silence() -> None:
    conn, wire, clock = connected()
    ping = encode(b"PING")
    conn.send(ping)
    clock.now += 1.5
    conn.data_received(b"+PONG\r\n")
    clock.now += 1.5
    conn.check(2.0)
    assert conn.trouble is None  # heard 1.5 s ago, nothing owed: asked again
    assert wire.writes == [ping, ping]


async def test_a_call_given_up_on_leaves_nothing_behind_when_the_connection_fails() -> None:
    conn, _, _ = connected()
    waiting = asyncio.ensure_future(conn.call("PING"))
    await asyncio.sleep(0)
    waiting.cancel()  # a connect that timed out
    with pytest.raises(asyncio.CancelledError):
        await waiting
    answer = conn._answers[0]
    conn.fail("closed")
    assert answer.cancelled()  # no exception set that nobody would read
