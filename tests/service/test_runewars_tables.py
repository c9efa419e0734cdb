"""Runewars tables in the table service: opened by format, on their own engine, stored,
rebuilt from their log, timed by the round timer (DC11, TS11, ST5)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import BadInput
from app.domain.runewars import commands as rc
from app.domain.runewars.state import Phase, RwGame
from app.domain.status import TableStatus
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime

MINUTE = 60_000


def rw(**changes: object) -> QuickGame:
    base: dict[str, object] = dict(
        format_id="runewars2017", p1_name="Ann", p2_name="Bob", p1_army=196, p2_army=200
    )
    base.update(changes)
    return QuickGame(**base)  # type: ignore[arg-type]


async def test_a_runewars_table_is_rebuilt_from_its_log__TS11(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rw.db'}")
    time = FakeTime()
    hub = TableHub(store, time, random.Random(1))
    room = hub.create(rw())
    assert room.engine.name == "runewars" and isinstance(room.game, RwGame)
    assert room.game.chooser is Side.P1  # 196 < 200
    await room.apply(Side.P1, "d1", 1, rc.ChooseFirstPlayer(Side.P2))
    await room.apply(Side.P1, "d1", 2, rc.ChooseArea("blue"))  # P1 is second player
    await room.apply(Role.EO, "", 0, rc.StartRound())
    for n in (1, 2, 3):
        time.advance(10 * MINUTE)
        await room.apply(Side.P2, "d2", n, rc.EndGameRound(n))
    assert room.engine.status(room.game) is TableStatus.PLAYING
    await hub.close()

    again = TableHub(store, time)
    assert again.load() == 1
    rebuilt = again.rooms[room.table_id]
    assert isinstance(rebuilt.game, RwGame)
    assert rebuilt.game.game_round == 4 and rebuilt.game.area_of(Side.P1) == "blue"
    assert rebuilt.version == room.version
    await again.close()
    store.close()


async def test_equal_armies_the_coin_is_kept_with_the_table__TS11(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rw.db'}")
    time = FakeTime()
    choosers = set()
    for seed in range(8):
        hub = TableHub(store, time, random.Random(seed))
        room = hub.create(rw(p1_army=200, p2_army=200))
        assert room.game.chooser_by_chance
        choosers.add(room.game.chooser)
        await hub.close()
        again = TableHub(store, time, random.Random(99))
        back = again.get(room.table_id)
        assert back is not None and back.game.chooser is room.game.chooser
        await again.close()
    assert choosers == {Side.P1, Side.P2}
    store.close()


async def test_the_round_timer_calls_time_on_the_table__DC11(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rw.db'}")
    time = FakeTime()
    hub = TableHub(store, time, random.Random(1))
    room = hub.create(rw(clock_minutes=90))
    await room.apply(Side.P1, "d1", 1, rc.ChooseFirstPlayer(Side.P1))
    await room.apply(Side.P2, "d2", 1, rc.ChooseArea("red"))
    await room.apply(Side.P1, "d1", 2, rc.StartRound())
    room.schedule_flag()
    time.advance(90 * MINUTE)
    for _ in range(5):
        await asyncio.sleep(0)
    assert room.game.time_called and room.game.phase is Phase.PLAYING
    log = store.log(room.table_id)
    assert log[-1].actor == "system" and '"call_time"' in log[-1].command_json
    await room.apply(Side.P1, "d1", 3, rc.EndGameRound(1))
    assert room.game.phase is Phase.SCORING
    await room.apply(Side.P1, "d1", 4, rc.EnterScore(80, 10))
    await room.apply(Side.P2, "d2", 2, rc.EnterScore(90, 0))
    assert room.game.phase is Phase.FINAL_FLURRY
    await room.apply(Side.P2, "d2", 3, rc.FlurryHits(1))
    await room.apply(Side.P1, "d1", 5, rc.FlurryHits(1))
    assert room.game.phase is Phase.FINAL_FLURRY and room.game.flurry_tie == 1  # again
    await room.apply(Side.P2, "d2", 4, rc.FlurryHits(1))
    await room.apply(Side.P1, "d1", 6, rc.FlurryHits(3))
    assert room.game.outcome is not None and room.game.outcome.winner is Side.P1
    assert room.engine.status(room.game) is TableStatus.AWAITING_CONFIRMATION
    await room.apply(Side.P1, "d1", 7, rc.ConfirmResult())
    await room.apply(Side.P2, "d2", 5, rc.ConfirmResult())
    assert room.engine.status(room.game) is TableStatus.CONFIRMED
    await hub.close()
    store.close()


def test_a_runewars_table_refuses_a_bad_setup__TS11(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rw.db'}")
    hub = TableHub(store, FakeTime(), random.Random(1))
    with pytest.raises(BadInput, match="1 to 200"):
        hub.create(rw(p1_army=250))
    with pytest.raises(BadInput, match="whole minutes"):
        hub.create(rw(clock_minutes=12.5))
    store.close()
