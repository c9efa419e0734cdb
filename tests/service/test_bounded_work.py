"""No request costs the loop time or memory in proportion to a table's whole history."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.store.log_entry import LogEntry
from app.store.log_rows import log_rows
from app.store.repository import Store
from app.tables.fanout import RESYNC, Subscriber
from app.tables.hub import TableHub
from app.tables.log_page import LOG_PAGE, LogPages
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

P1, P2 = Side.P1, Side.P2


class CountingStore(Store):
    """The real store, counting the log entries each read hands back."""

    reads: list[int]

    def log(self, table_id: str, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        entries = super().log(table_id, after, limit)
        self.reads.append(len(entries))
        return entries


@pytest.fixture
async def long_table(tmp_path: Path) -> AsyncIterator[tuple[CountingStore, TableRoom, FakeTime]]:
    store = CountingStore(f"sqlite:///{tmp_path / 'long.db'}")
    store.reads = []
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_minutes=300, scenario="bunkers"))
    await room.apply(P1, "phone-1", 1, c.StartClock())
    for seq, (side, device) in enumerate([(P1, "phone-1"), (P2, "phone-2")] * 2, start=2):
        await room.apply(side, device, seq, c.PassTurn(expect=side))
    for seq in range(10, 1010):  # a long game: 2000 interrupt switches in P1's turn 1
        time.advance(100)
        await room.apply(P1, "phone-1", seq, c.SwitchClock(to=P2))
        await room.apply(P2, "phone-2", seq, c.SwitchClock(to=P1))
    yield store, room, time
    await hub.close()
    store.close()


async def test_a_merge_replays_only_what_came_after_the_phone_left(
    long_table: tuple[CountingStore, TableRoom, FakeTime],
) -> None:
    store, room, time = long_table
    assert room.version == 2005
    room.heard("p2:phone-2")
    time.advance(1_000)
    for seq in (2000, 2001):  # P1 plays on online while P2's phone is away
        time.advance(1_000)
        command = c.SwitchClock(to=P2) if seq % 2 == 0 else c.SwitchClock(to=P1)
        await room.apply(P1 if seq % 2 == 0 else P2, "phone-1", seq, command)
    gap = room.arrive("p2:phone-2")
    store.reads.clear()
    await room.merge_offline(
        P2, "phone-2", gap, gap.version if gap else 0, [(3000, time.now_ms(), c.Concede())]
    )
    # At most the two commands since P2's phone left (none: the concession comes after
    # everything the table counted), never the 2007 before.
    assert sum(store.reads) <= 2
    assert room.game.ending is not None and room.game.ending.winner is P1


async def test_the_log_is_read_a_page_at_a_time(
    long_table: tuple[CountingStore, TableRoom, FakeTime],
) -> None:
    store, room, _time = long_table
    reads: list[tuple[int, int]] = []

    def read(table_id: str, after: int, limit: int) -> list[LogEntry]:
        entries = log_rows(store.engine, table_id, after, limit)
        reads.append((after, len(entries)))
        return entries

    pages = LogPages(read)
    page = json.loads(await pages.page(room.table_id, room.version, after=1000))
    assert [row["v"] for row in page["entries"]] == list(range(1001, 1001 + LOG_PAGE))
    assert page["next"] == 1000 + LOG_PAGE and reads == [(1000, LOG_PAGE)]
    assert all(row["turn"] == "P1's turn 1" for row in page["entries"])
    # Asked again, or from any version in the stretch read, it costs the store nothing.
    assert pages.cached(room.table_id, room.version, after=1000) is not None
    pages.close()


def test_a_screens_queue_is_bounded_in_bytes() -> None:
    screen = Subscriber("watch", limit=256, limit_bytes=1_000)
    assert screen.offer("x" * 400) and screen.offer("y" * 400)
    # Two messages wait; a third would pass the bound: the screen is dropped (it resyncs).
    assert not screen.offer("z" * 400)
    assert screen.dropped == (RESYNC, "resync")
    assert screen.queued_bytes == 800


async def test_a_table_comes_back_from_its_snapshot_and_the_logs_tail(
    long_table: tuple[CountingStore, TableRoom, FakeTime],
) -> None:
    store, room, time = long_table
    await room.apply(P2, "phone-2", 5000, c.Concede())
    hub = TableHub(store, time)
    store.reads.clear()
    back = hub.get(room.table_id)
    assert back is not None and back is not room
    assert back.game == room.game and back.version == room.version == 2006
    assert store.reads == [2006 - 1792]  # the tail after the snapshot at version 1792
    # A command sent again from before the snapshot is still a duplicate, nothing more.
    again = await back.apply(P1, "phone-1", 500, c.SwitchClock(to=P2))
    assert again.duplicate and back.version == 2006
    # The whole log, replayed, gives the same game.
    whole = TableHub(store, time)
    store.save_snapshot = lambda snapshot: None  # type: ignore[method-assign]
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM table_snapshot")
    assert (replayed := whole.get(room.table_id)) is not None and replayed.game == room.game
