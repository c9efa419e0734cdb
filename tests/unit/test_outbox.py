"""A socket's outbox (app.tables.fanout.Outbox): the bounded queue its writer waits on,
in order, holding nothing while it is empty (a hall's thousands of sockets mostly are)."""

from __future__ import annotations

import asyncio
import sys

import pytest

from app.tables.fanout import Outbox, Subscriber


def test_messages_leave_in_order_and_the_bound_holds() -> None:
    box = Outbox(2)
    assert box.empty() and box.qsize() == 0 and box.maxsize == 2
    box.put_nowait("event-1")
    box.put_nowait("ack-1")
    with pytest.raises(asyncio.QueueFull):
        box.put_nowait("event-2")
    assert box.qsize() == 2
    assert [box.get_nowait(), box.get_nowait()] == ["event-1", "ack-1"]
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()
    unbounded = Outbox(0)
    for n in range(300):
        unbounded.put_nowait(str(n))
    assert unbounded.qsize() == 300


async def test_the_writer_waits_for_the_next_message_and_takes_it() -> None:
    box = Outbox(4)
    writer = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert not writer.done()  # nothing to write: it waits
    box.put_nowait("event-1")
    box.put_nowait("event-2")
    assert await writer == "event-1"
    assert await box.get() == "event-2"  # there already: no wait


async def test_a_writer_stopped_while_waiting_leaves_nothing_behind() -> None:
    box = Outbox(4)
    writer = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writer
    box.put_nowait("event-1")  # no waiter to wake, and the message is kept
    assert await asyncio.wait_for(box.get(), 1) == "event-1"


def test_an_empty_outbox_holds_no_queue_of_its_own() -> None:
    box, queue = Outbox(256), asyncio.Queue[str](maxsize=256)
    held = sys.getsizeof(box)
    assert held < sys.getsizeof(queue._queue)  # type: ignore[attr-defined]
    box.put_nowait("event-1")
    box.get_nowait()
    assert box.empty() and box._items is None  # the deque went with its last message


def test_a_subscriber_overflowing_its_outbox_is_dropped_to_resync() -> None:
    sub = Subscriber("p1", limit=2)
    assert sub.offer_all(("event-1", "event-2"))  # no socket yet: both wait
    assert not sub.offer("event-3")
    assert sub.overflowed and sub.queue.qsize() == 2
