"""A phone that stops reading never delays the others: bounded queue, then dropped."""

from __future__ import annotations

from pathlib import Path

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
