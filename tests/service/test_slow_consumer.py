"""A phone that stops reading never delays the others: bounded queue, then dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from app.api.guard import _write, send_each_now
from app.domain import commands as c
from app.domain.clock import Side
from app.store.repository import Store
from app.tables.fanout import Channel, Subscriber
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime


async def test_a_stalled_phone_is_dropped_and_the_others_get_everything(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'slow.db'}")
    hub = TableHub(store, FakeTime())
    room = hub.create(QuickGame(clock_minutes=60))
    stalled = Subscriber("watch", limit=8)  # nobody ever reads this one
    reading = Subscriber("p2", limit=8)
    room.join(stalled, None)
    room.join(reading, None)
    received = []
    for n in range(50):
        ack = await room.apply(c.Role.EO, "eo", n, c.AdjustClock(Side.P1, 60_000 + n))
        assert ack.version == n + 1  # never blocked by the stalled phone
        while not reading.queue.empty():
            received.append(reading.queue.get_nowait())
    assert len(received) == 51  # the snapshot and every event
    assert stalled.overflowed
    assert stalled not in room.channel.subscribers and reading in room.channel.subscribers
    # Back again, the stalled phone asks from its last version: too far behind → snapshot.
    again = Subscriber("watch", limit=8)
    room.join(again, 0)
    assert again.queue.qsize() == 1 and '"t":"state"' in again.queue.get_nowait()
    await hub.close()
    store.close()


class _Socket:
    """Records what is sent; `stalled` makes a send wait, as a full TCP buffer does."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.stalled: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
        if self.stalled is not None:
            await self.stalled.wait()
        self.sent.append(text)


def _direct(sub: Subscriber, socket: _Socket) -> None:
    sub.direct = lambda texts: send_each_now(socket, texts)  # type: ignore[arg-type]


async def test_a_message_goes_straight_out_only_when_nothing_waits_before_it() -> None:
    socket, sub = _Socket(), Subscriber("p1")
    _direct(sub, socket)
    assert sub.offer("event-1")
    assert socket.sent == ["event-1"] and sub.queue.empty()  # idle: straight out
    socket.stalled = asyncio.Event()  # the phone's buffer is full
    assert sub.offer("event-2")
    assert socket.sent == ["event-1"]  # the send would wait: abandoned, nothing written
    assert sub.offer("ack-3")  # behind event 2, never ahead of it
    assert [sub.queue.get_nowait(), sub.queue.get_nowait()] == ["event-2", "ack-3"]
    writer = asyncio.create_task(_write(socket, sub))  # type: ignore[arg-type]
    sub.offer("event-4")
    sub.offer("ack-5")
    await asyncio.sleep(0)
    assert sub.writing  # the writer is stuck mid-send ...
    sub.offer("pong-6")
    assert sub.queue.qsize() == 2  # ... so nothing jumps the queue
    socket.stalled.set()
    socket.stalled = None
    for _ in range(10):
        await asyncio.sleep(0)
    assert socket.sent == ["event-1", "event-4", "ack-5", "pong-6"]
    assert sub.offer("event-7") and socket.sent[-1] == "event-7"  # idle again
    writer.cancel()


async def test_a_gone_socket_drops_its_subscriber_and_the_others_carry_on() -> None:
    class Gone(_Socket):
        async def send_text(self, text: str) -> None:
            raise RuntimeError('Cannot call "send" once a close message has been sent.')

    gone, fine = Subscriber("p1"), Subscriber("p2")
    _direct(gone, Gone())
    socket = _Socket()
    _direct(fine, socket)
    channel = Channel()
    channel.join(gone)
    channel.join(fine)
    channel.publish("event-1")
    assert gone.dropped is not None and gone not in channel.subscribers
    assert socket.sent == ["event-1"]


async def test_the_other_screens_get_a_tap_before_the_sender(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'order.db'}")
    hub = TableHub(store, FakeTime())
    room = hub.create(QuickGame(clock_minutes=60))
    sent: list[str] = []
    sender, other = Subscriber("p1"), Subscriber("p2")
    for sub in (sender, other):
        room.join(sub, None)
        sub.queue.get_nowait()  # the snapshot
        sub.direct = lambda texts, role=sub.role: sent.append(role) or len(texts)
    ack = await room.apply(Side.P1, "d1", 1, c.StartClock(), origin=sender)
    assert sent == ["p2"]  # the sender's own event comes with its ack (app.api.ws)
    assert len(ack.before) == 1 and '"t":"event"' in ack.before[0] and '"v":1' in ack.before[0]
    await hub.close()
    store.close()


async def test_messages_offered_together_go_out_together_and_in_order_if_it_stalls() -> None:
    """A tap's event and its ack leave in one write; if the socket takes only some of them
    without waiting, the rest wait in the queue, in order, ahead of anything later."""
    writes: list[list[str]] = []
    room_for = [2]  # how many messages the socket takes before its buffer is full

    def direct(texts: Sequence[str]) -> int:
        taken = list(texts[: room_for[0]])
        room_for[0] -= len(taken)
        if taken:
            writes.append(taken)
        return len(taken)

    sub = Subscriber("p1")
    sub.direct = direct
    assert sub.offer_all(("event-1", "ack-1"))
    assert writes == [["event-1", "ack-1"]] and sub.queue.empty()  # one write
    room_for[0] = 1
    assert sub.offer_all(("event-2", "snapshot-2", "ack-2"))
    assert writes[-1] == ["event-2"]
    assert sub.offer("pong-3")  # behind what waits
    assert [sub.queue.get_nowait() for _ in range(3)] == ["snapshot-2", "ack-2", "pong-3"]
    assert sub.queued_bytes == len("snapshot-2") + len("ack-2") + len("pong-3")


async def test_a_socket_gone_while_offered_several_messages_drops_its_subscriber() -> None:
    def gone(texts: Sequence[str]) -> int:
        raise RuntimeError("the socket is closed")

    sub = Subscriber("p1")
    sub.direct = gone
    assert not sub.offer_all(("event-1", "ack-1"))
    assert sub.overflowed and sub.queue.empty()
    assert not sub.offer("pong-2")
