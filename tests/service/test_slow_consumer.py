"""A phone that stops reading never delays the others: bounded queue, then dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.api.guard import _write, reply
from app.domain import commands as c
from app.domain.clock import Side
from app.store.repository import Store
from app.tables.fanout import Subscriber
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
    """Records what is sent; `stalled` makes a send wait as a full TCP buffer does."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.stalled: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
        if self.stalled is not None:
            await self.stalled.wait()
        self.sent.append(text)


async def test_a_screens_own_answers_go_out_directly_and_never_ahead_of_its_queue() -> None:
    socket = _Socket()
    sub = Subscriber("p1")
    await reply(socket, sub, "pong-1")  # type: ignore[arg-type]
    assert socket.sent == ["pong-1"] and sub.queue.empty()  # idle: straight out
    sub.offer("event-5")  # an event from the other phone, not yet written
    await reply(socket, sub, "ack-6")  # type: ignore[arg-type]
    assert socket.sent == ["pong-1"]  # queued behind event 5, not ahead of it
    assert [sub.queue.get_nowait(), sub.queue.get_nowait()] == ["event-5", "ack-6"]
    socket.stalled = asyncio.Event()
    writer = asyncio.create_task(_write(socket, sub))  # type: ignore[arg-type]
    sub.offer("event-7")
    await asyncio.sleep(0)
    assert sub.writing and sub.queue.empty()  # the writer is stuck mid-send
    await reply(socket, sub, "ack-8")  # type: ignore[arg-type]
    assert sub.queue.qsize() == 1  # so the answer waits its turn
    socket.stalled.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert socket.sent == ["pong-1", "event-7", "ack-8"]
    writer.cancel()


async def test_the_other_screens_get_a_tap_before_the_sender(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'order.db'}")
    hub = TableHub(store, FakeTime())
    room = hub.create(QuickGame(clock_minutes=60))
    sender, other = Subscriber("p1"), Subscriber("p2")
    room.join(sender, None)
    room.join(other, None)
    for sub in (sender, other):
        sub.queue.get_nowait()  # the snapshots
    ack = await room.execute(Side.P1, "d1", 1, c.StartClock(), origin=sender)
    assert sender.queue.empty()  # the sender's copy comes back with the ack
    assert other.queue.get_nowait() == ack.event
    assert ack.event is not None and '"v":1' in ack.event
    await hub.close()
    store.close()
