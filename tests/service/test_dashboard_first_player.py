"""The dashboard's row of a table says which of its players goes first only once the
table decided it; its names follow the order of play, so the second seat's player who
chose to go first is named first, against "first"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.events.dashboard import summary
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[TableRoom]:
    store = Store(f"sqlite:///{tmp_path / 'first.db'}")
    hub = TableHub(store, FakeTime())
    yield hub.create(QuickGame(clock_minutes=30, scenario="bunkers", p1_name="Ann", p2_name="Bo"))
    await hub.close()
    store.close()


async def test_the_row_names_the_first_player_once_the_roll_and_the_choice_decide__DC3(
    room: TableRoom,
) -> None:
    def row() -> dict[str, object]:
        return summary(room, 0)

    assert row()["first"] == "p1"  # no pre-game: the first seat's player goes first
    await room.apply(c.Role.SYSTEM, "", 0, c.OpenPregame())
    assert row()["first"] is None  # nothing said of an order before the pre-game decides
    await room.apply(Side.P1, "a", 1, c.ChooseList("Haley"))
    await room.apply(Side.P2, "b", 1, c.ChooseList("Kreoss"))
    await room.apply(Side.P1, "a", 2, c.ChooseObjective("Armory"))
    await room.apply(Side.P2, "b", 2, c.ChooseObjective("Dugout"))
    await room.apply(Side.P1, "a", 3, c.StartingRoll(at_table=(6, 1)))
    assert row()["first"] is None  # Ann won the roll, but has not chosen yet
    await room.apply(Side.P1, "a", 4, c.ChooseOrder(first=False))
    assert (row()["names"], row()["first"]) == (["Bo", "Ann"], "p1")
