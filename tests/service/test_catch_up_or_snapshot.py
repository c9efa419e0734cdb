"""A phone back at its table gets the events it missed while the table still keeps them
(`HISTORY`), else the whole table: past a few events one snapshot is fewer bytes, and a
hall's tables keep a few events each, not a long tail of them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.game import Phase
from app.store.repository import Store
from app.tables.fanout import Subscriber
from app.tables.history import HISTORY
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[TableRoom]:
    store = Store(f"sqlite:///{tmp_path / 'catch_up.db'}")
    hub = TableHub(store, FakeTime())
    table = hub.create(QuickGame(clock_minutes=60, scenario="bunkers"))
    await table.apply(Side.P1, "phone-1", 1, c.StartClock())
    while table.game.phase is not Phase.TURN:  # deployment: into the first turn
        side = table.game.clock.running
        await table.apply(side, f"phone-{side.value + 1}", table.version + 1, c.PassTurn(side))
    yield table
    await hub.close()
    store.close()


async def _switches(room: TableRoom, count: int) -> None:
    """Interrupts: the clock to the other side and back, `count` times in all."""
    for _ in range(count):
        to = room.game.clock.running.other
        await room.apply(room.game.active, "phone-1", 100 + room.version, c.SwitchClock(to=to))


def _back(room: TableRoom, last_version: int) -> list[dict[str, object]]:
    phone = Subscriber("p2")
    room.join(phone, last_version, "phone-2")
    texts = []
    while not phone.queue.empty():
        texts.append(phone.queue.get_nowait())
    room.leave(phone)
    return [json.loads(text) for text in texts if '"t":"presence"' not in text]


async def test_a_phone_that_missed_a_few_events_gets_those_events(room: TableRoom) -> None:
    away_at = room.version
    await _switches(room, HISTORY)
    got = _back(room, away_at)
    assert [m["t"] for m in got] == ["event"] * HISTORY
    assert [m["v"] for m in got] == list(range(away_at + 1, room.version + 1))


async def test_a_phone_that_missed_more_gets_the_table_in_fewer_bytes(room: TableRoom) -> None:
    away_at = room.version
    await _switches(room, HISTORY + 1)
    (state,) = _back(room, away_at)
    assert state["t"] == "state" and state["v"] == room.version
    kept = _back(room, away_at + 1)  # what the events it missed would have been
    assert len(kept) == HISTORY
    assert len(json.dumps(state)) < sum(len(json.dumps(event)) for event in kept)
