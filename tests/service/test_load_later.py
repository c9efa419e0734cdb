"""A restart answers before every quick game is read: the event tables are read at once,
the quick games in play right after (`load_later`), and a socket or a request for one
not read yet reads it at once. Flags still fall at their exact moment (DC7)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.room import TableMeta, TableRoom
from app.tables.timesource import FakeTime


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    yield store
    store.close()


async def _tables(store: Store, time: FakeTime) -> tuple[TableRoom, TableRoom, TableRoom]:
    """A running quick game (30 s clock), a quick game that is over, an event table."""
    hub = TableHub(store, time, random.Random(5))
    running = hub.create(QuickGame(clock_seconds=30, scenario="bunkers"))
    await running.apply(Side.P1, "d1", 1, c.StartClock())
    time.advance(4_000)
    await running.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    over = hub.create(QuickGame(points=75, scenario="bunkers"))
    await over.apply(Side.P1, "d1", 1, c.StartClock())
    await over.apply(Side.P1, "d1", 2, c.Concede())
    meta = TableMeta("ev1", round_number=1, table_no=1, p1_player="a", p2_player="b")
    event = hub.open_table(QuickGame(points=75, scenario="bunkers").setup(random.Random()), meta)
    await hub.close()
    return running, over, event


def _started_again(store: Store, time: FakeTime) -> TableHub:
    """The next server on the stored tables: the event tables read, the quick games left
    to be read later."""
    hub = TableHub(store, time)
    hub.load(later=True)
    return hub


async def _stored_and_started_again(
    store: Store, time: FakeTime, tables: int
) -> tuple[list[TableRoom], TableHub]:
    """`tables` quick games stored by one server, and the next one started on them (its
    quick games left to be read later)."""
    hub = TableHub(store, time)
    rooms = [hub.create(QuickGame(clock_minutes=60, scenario="bunkers")) for _ in range(tables)]
    await hub.close()
    return rooms, _started_again(store, time)


async def test_a_start_reads_the_event_tables_and_leaves_the_quick_games_for_later(
    store: Store,
) -> None:
    time = FakeTime()
    running, _over, event = await _tables(store, time)
    hub = TableHub(store, time)
    assert hub.load(later=True) == 1
    assert set(hub.rooms) == {event.table_id}  # the dashboards' tables are there at once
    assert hub.event_tables("ev1") == [hub.rooms[event.table_id]]
    assert hub.later == {running.table_id}  # a game that is over waits for its opener
    assert await hub.load_later() == 1
    assert hub.later == set()
    back = hub.rooms[running.table_id]
    assert back.version == running.version == 2 and back.game == running.game
    assert set(hub.rooms) == {event.table_id, running.table_id}  # as `load()` reads them
    await hub.close()


async def test_a_table_not_read_yet_is_served_by_its_first_socket(store: Store) -> None:
    time = FakeTime()
    running, _over, _event = await _tables(store, time)
    hub = _started_again(store, time)
    assert running.table_id not in hub.rooms
    opened = await hub.open(running.table_id)
    assert opened is not None and opened.version == 2 and opened.game == running.game
    assert hub.later == set()
    dup = await opened.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))  # re-sent
    assert dup.duplicate and dup.version == 2
    await opened.apply(Side.P2, "d2", 1, c.PassTurn(expect=Side.P2))
    assert await hub.load_later() == 0  # not read again: the socket's table stays
    assert hub.rooms[running.table_id] is opened and opened.version == 3
    await hub.close()


async def test_a_table_read_while_the_rest_load_is_not_replaced(store: Store) -> None:
    time = FakeTime()
    rooms, again = await _stored_and_started_again(store, time, 5)
    loading = asyncio.create_task(again.load_later(batch=2))
    got = again.get(rooms[4].table_id)  # a request meanwhile (REST reads it at once)
    assert got is not None
    assert await loading == 4
    assert again.rooms[rooms[4].table_id] is got
    assert set(again.rooms) == {room.table_id for room in rooms}
    await again.close()


async def test_a_quick_game_read_later_flags_at_its_exact_moment__DC7(store: Store) -> None:
    time = FakeTime()
    running, _over, _event = await _tables(store, time)
    flag_at = time.now_ms() + 30_000  # P2 runs since the pass, with all of its 30 s
    time.advance(10_000)  # the restart
    hub = _started_again(store, time)
    await hub.load_later()
    room = hub.rooms[running.table_id]
    time.advance(19_999)
    await asyncio.sleep(0)
    assert room.game.flagged is None
    time.advance(1)
    for _ in range(5):
        await asyncio.sleep(0)
    assert room.game.flagged is Side.P2
    flag = store.log(running.table_id)[-1]
    assert flag.command_json == '{"c":"flag"}' and flag.at_ms == flag_at
    await hub.close()


async def test_a_clock_that_ran_out_while_down_flags_once_read_later__DC7(store: Store) -> None:
    time = FakeTime()
    running, _over, _event = await _tables(store, time)
    flag_at = time.now_ms() + 30_000
    time.advance(60_000)  # down longer than the clock had left
    hub = _started_again(store, time)
    await hub.load_later()
    room = hub.rooms[running.table_id]
    for _ in range(5):
        await asyncio.sleep(0)
    assert room.game.flagged is Side.P2
    log = store.log(running.table_id)
    assert [e.command_json for e in log].count('{"c":"flag"}') == 1
    assert log[-1].at_ms == flag_at
    await hub.close()


async def test_a_socket_waiting_for_a_table_not_read_yet_gets_it_in_the_next_batch(
    store: Store,
) -> None:
    time = FakeTime()
    rooms, again = await _stored_and_started_again(store, time, 10)
    loader = asyncio.create_task(again.load_later(batch=1))
    await asyncio.sleep(0)  # the first batch is read
    wanted = next(room.table_id for room in rooms if room.table_id in again.later)
    opened = await again.open(wanted)
    assert opened is not None and again.rooms[wanted] is opened
    assert len(again.rooms) <= 3  # read before the tables nobody is waiting for
    assert await loader == 10
    assert set(again.rooms) == {room.table_id for room in rooms}
    await again.close()


async def test_a_socket_for_a_table_not_read_yet_reads_it_itself_if_nothing_loads(
    store: Store,
) -> None:
    time = FakeTime()
    running, _over, _event = await _tables(store, time)
    hub = _started_again(store, time)
    loader = asyncio.create_task(hub.load_later(batch=1))
    loader.cancel()  # a server stopping at once: the socket does not wait for it
    opened = await hub.open(running.table_id)
    assert opened is not None and opened.version == 2
    await hub.close()
