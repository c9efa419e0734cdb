"""A phone that stops reading never delays the others: bounded queue, then dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.api.guard import _write, send_now
from app.domain import commands as c
from app.domain.clock import Side
from app.store.repository import Store
from app.tables.fanout import Channel, Subscriber
from app.tables.hub import QuickGame, TableHub
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
        ack = await room.execute(c.Role.EO, "eo", n, c.AdjustClock(Side.P1, 60_000 + n))
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
    sub.direct = lambda text: send_now(socket, text)  # type: ignore[arg-type]


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
        sub.direct = lambda text, role=sub.role: sent.append(role) is None
    await room.execute(Side.P1, "d1", 1, c.StartClock(), origin=sender)
    assert sent == ["p2", "p1"]
    await hub.close()
    store.close()
