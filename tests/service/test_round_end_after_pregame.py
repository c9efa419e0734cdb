"""With the pre-game on the phones, each table's clocks start when it begins deployment:
the round's expected end counts from the last table's start (both player clocks after
it), and the round's end judges no game for time it spent in its pre-game."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.game import Phase
from app.events.base import EventSpec
from app.events.service import EventService
from app.tables.hub import TableHub
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from tests.first_player import first_seat_goes_first

MIN = 60_000
ROUND_MS = 2 * 60 * MIN  # 75 points: two 60-minute player clocks


class _Loaded:
    """The server's dice, loaded: these faces in order."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def randint(self, _a: int, _b: int) -> int:
        return self.faces.pop(0)


def _event(service: EventService) -> str:
    spec = EventSpec(name="Pre-game night", points=75, pregame=True)
    event = service.registration.create_event(spec)
    for name in ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"):
        service.registration.add_player(event.id, name, "Khador")
    return event.id


async def _pregame(room: TableRoom) -> None:
    """Lists, the starting roll (the first seat wins and goes first) and the table edge,
    on the players' phones; the clocks have not started."""
    await room.apply(Side.P1, "a", 1, c.ChooseList("Butcher 3"))
    await room.apply(Side.P2, "b", 1, c.ChooseList("Haley 2"))
    room.dice = _Loaded([5, 2])  # type: ignore[assignment]
    await room.apply(Side.P1, "a", 2, c.StartingRoll())
    await room.apply(Side.P2, "b", 2, c.StartingRoll())
    await room.apply(Side.P1, "a", 3, c.ChooseOrder(first=True))
    await room.apply(Side.P2, "b", 3, c.ChooseEdge(swap=False))
    assert room.game.phase is Phase.READY and room.game.clock.running is None


async def _deploy(room: TableRoom) -> None:
    """P1 starts the clock: deployment begins."""
    await room.apply(Side.P1, "a", 4, c.StartClock())
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn


async def _at(time: FakeTime, start: int, minutes: float) -> None:
    """Move the clock to `minutes` after the round's start."""
    time.advance(start + round(minutes * MIN) - time.now_ms())
    await asyncio.sleep(0)


async def test_the_round_ends_both_clocks_after_the_last_table_begins__DC4_DC8(
    service: EventService,
) -> None:
    time: FakeTime = service.time  # type: ignore[assignment]
    eid = _event(service)
    service.rounds.pair_next(eid, "spread-the-net")
    entry = await service.rounds.start(eid)
    t0 = time.now_ms()
    assert entry.started_ms == t0
    assert entry.expected_end_ms is None  # every table is in its pre-game
    first, middle, last = service.tables.rooms(eid)
    assert all(r.game.in_pregame for r in (first, middle, last))

    for room in (first, middle, last):
        await _pregame(room)
    await _at(time, t0, 1.5)
    await _deploy(first)
    await _at(time, t0, 3)
    await _deploy(middle)
    assert first.game.deployed_ms == t0 + 90_000 and middle.game.deployed_ms == t0 + 3 * MIN
    assert service.book.rounds(eid)[-1].expected_end_ms is None  # one table has not begun
    with pytest.raises(RuleError, match="1 table has not begun deployment"):
        await service.round_clock.call_end(eid)
    view = service.read_models.dashboard_snapshot(eid, "eo")
    assert view["round"]["started_ms"] == t0 and view["round"]["expected_end_ms"] is None

    await _at(time, t0, 4)  # four minutes in its pre-game: the last table begins
    await _deploy(last)
    end = t0 + 4 * MIN + ROUND_MS
    assert service.book.rounds(eid)[-1].expected_end_ms == end
    view = service.read_models.dashboard_snapshot(eid, "eo")
    assert view["round"]["expected_end_ms"] == end

    # The first table's game ends; the middle one has a rules call (the EO pauses it for
    # ten minutes); the last one gets two minutes back from the EO.
    await _at(time, t0, 30)
    await first.apply(Side.P1, "a", 5, c.PassTurn(expect=Side.P1))
    await _at(time, t0, 58)
    await middle.apply(Side.P1, "a", 5, c.PassTurn(expect=Side.P1))
    await _at(time, t0, 60)
    await first.apply(Side.P2, "b", 5, c.Concede())
    await middle.apply(c.Role.EO, "", 0, c.PauseClock())
    await _at(time, t0, 63)
    await last.apply(Side.P1, "a", 5, c.PassTurn(expect=Side.P1))
    await _at(time, t0, 70)
    await middle.apply(c.Role.EO, "", 0, c.ResumeClock())
    assert last.game.remaining(Side.P2, time.now_ms()) == 53 * MIN
    await last.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P2, 55 * MIN))

    # Two hours after the EO started the round, nothing is called: the last table has
    # six minutes on its clocks, four of them the time its pre-game took.
    await _at(time, t0, 120)
    now = time.now_ms()
    assert last.game.remaining(Side.P1, now) + last.game.remaining(Side.P2, now) == 6 * MIN
    assert service.book.rounds(eid)[-1].end_calls_json is None
    assert last.game.phase is Phase.DEPLOYMENT

    await _at(time, t0, 124)  # the round's end: the last table has two minutes left
    await service.round_ends.timers[eid]
    called = service.book.rounds(eid)[-1].end_calls_json
    assert called is not None
    assert json.loads(called) == {
        middle.table_id: "play_on",  # nine minutes left, but the EO paused it
        last.table_id: "play_on",  # under five minutes combined: it plays to the end
    }
    assert last.game.phase is Phase.DEPLOYMENT and last.game.ending is None  # not a tie


async def test_a_restart_during_the_pregames_still_sets_the_rounds_end__DC4(
    service: EventService,
) -> None:
    """A worker started while tables are in their pre-game (a restart, or a second
    worker) watches them too, and sets the round's end when the last one begins."""
    time: FakeTime = service.time  # type: ignore[assignment]
    eid = _event(service)
    service.rounds.pair_next(eid, "spread-the-net")
    await service.rounds.start(eid)
    t0 = time.now_ms()
    for room in service.tables.rooms(eid)[:2]:
        await _pregame(room)
        await _deploy(room)
    await _at(time, t0, 2)

    hub = TableHub(service.store, time)
    hub.load()
    again = EventService(service.store, hub, time)
    again.round_clock.start_timers()
    try:
        last = again.tables.rooms(eid)[2]
        await _pregame(last)
        await _at(time, t0, 7)
        await _deploy(last)
        assert again.book.rounds(eid)[-1].expected_end_ms == t0 + 7 * MIN + ROUND_MS
        assert eid in again.round_ends.timers  # its timer calls the round's end
    finally:
        await again.close()
        await hub.close()


async def test_an_event_without_the_phone_pregame_counts_from_its_tables_too__DC4(
    service: EventService,
) -> None:
    """Without the pre-game on the phones, a table still settles who goes first off the
    clock (the starting roll, then its winner's choice): its clocks and the round's end
    count from its deployment start, not from the EO's start."""
    time: FakeTime = service.time  # type: ignore[assignment]
    event = service.registration.create_event(EventSpec(name="Classic night", points=75))
    for name in ("Ann", "Bob"):
        service.registration.add_player(event.id, name, "Khador")
    service.rounds.pair_next(event.id)
    entry = await service.rounds.start(event.id)
    assert entry.expected_end_ms is None
    (room,) = service.tables.rooms(event.id)
    assert room.game.pregame is not None
    assert [str(s) for s in room.game.pregame.steps] == ["roll", "order"]
    assert room.game.clock.running is None and room.game.deployed_ms is None
    time.advance(6 * MIN)  # the roll and the choice, at the table
    await first_seat_goes_first(room)
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
    assert room.game.deployed_ms == time.now_ms()
    assert service.book.rounds(event.id)[-1].expected_end_ms == time.now_ms() + ROUND_MS
