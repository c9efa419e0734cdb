"""Redis between workers: what goes to every worker leaves in one message per write (the
envelopes queued meanwhile), in order with the messages to one worker; the others read
each envelope of it, and the sender skips its own batch by the channel's name alone."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from redis.asyncio import Redis

from app.cluster.backplane import Backplane
from tests.integration.workers_support import REDIS_URL, need_services


async def test_a_writes_broadcasts_go_as_one_message_in_order_with_the_rest() -> None:
    need_services()
    prefix = f"dctest-{secrets.token_hex(4)}"
    one, two = Backplane(REDIS_URL, prefix, "one"), Backplane(REDIS_URL, prefix, "two")
    heard: dict[str, list[Any]] = {"one": [], "two": []}
    for name, backplane in (("one", one), ("two", two)):
        for kind in ("c", "open", "cmd"):
            backplane.handlers[kind] = lambda envelope, name=name: heard[name].append(
                (envelope["k"], envelope.get("n"))
            )
    raw = Redis.from_url(REDIS_URL)
    wire = raw.pubsub(ignore_subscribe_messages=True)
    await wire.psubscribe(f"{prefix}:*")
    await one.start()
    await two.start()
    try:
        for n in range(5):  # queued before the writer wakes: one write
            one.send(f"c:table:{n}", {"k": "c", "n": n})
        one.send("w:two", {"k": "cmd", "n": 5})  # to one worker: on its own
        one.send("all", {"k": "open", "n": 6})
        one.send("c:table:7", {"k": "c", "n": 7})
        messages: list[str] = []
        deadline = asyncio.get_running_loop().time() + 5
        while len(messages) < 3:  # (None: nothing yet, or a subscription's confirmation)
            assert asyncio.get_running_loop().time() < deadline, f"on the wire: {messages}"
            message = await wire.get_message(timeout=1.0)
            if message is not None:
                messages.append(message["channel"].decode())
        assert messages == [f"{prefix}:c:@one", f"{prefix}:w:two", f"{prefix}:c:@one"]
        expected = [("c", n) for n in range(5)] + [("cmd", 5), ("open", 6), ("c", 7)]
        for _ in range(100):
            if len(heard["two"]) == len(expected):
                break
            await asyncio.sleep(0.02)
        assert heard["two"] == expected  # every envelope, in the order sent
        assert heard["one"] == []  # its own are not read back
    finally:
        await wire.aclose()  # type: ignore[no-untyped-call]
        await raw.aclose()
        await one.close()
        await two.close()
