"""Phones that were offline: queued taps merged in time order, as a physical clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.game import Phase
from app.domain.merge import MergeRefused
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.offline import Gap
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

MIN = 60_000
P1, P2 = Side.P1, Side.P2


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[TableHub, TableRoom, FakeTime]]:
    store = Store(f"sqlite:///{tmp_path / 'offline.db'}")
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_minutes=60, scenario="bunkers"))
    await room.apply(P1, "phone-1", 1, c.StartClock())
    yield hub, room, time
    await hub.close()
    store.close()


def tap(side: Side) -> c.PassTurn:
    return c.PassTurn(expect=side)


def heard(room: TableRoom, *devices: str) -> None:
    """The phones' last words before the venue network went down."""
    for device in devices:
        room.heard(device)


def back(room: TableRoom, device: str) -> Gap:
    gap = room.arrive(device)
    assert gap is not None
    return gap


async def test_both_phones_queue_taps_and_converge_whatever_order_they_return(
    table: tuple[TableHub, TableRoom, FakeTime],
) -> None:
    _hub, room, time = table
    base, t0 = room.version, time.now_ms()
    heard(room, "p1:phone-1", "p2:phone-2")
    time.advance(5 * MIN)  # the venue network is down for five minutes
    # P1 ended deployment at +60 s on their phone; P2 ended theirs at +150 s on theirs.
    p2_queue = [(1, t0 + 150_000, tap(P2))]
    p1_queue = [(2, t0 + 60_000, tap(P1))]
    p1_gap, p2_gap = back(room, "p1:phone-1"), back(room, "p2:phone-2")
    await room.merge_offline(P2, "phone-2", p2_gap, base, p2_queue)
    # Alone, P2's tap came while (as far as the server knew) P1 still ran: it does nothing yet.
    assert room.game.clock.running is P1
    await room.merge_offline(P1, "phone-1", p1_gap, base, p1_queue)
    game = room.game
    assert game.phase is Phase.ADVANCE_DEPLOYMENT and game.active is P1
    # Exactly as a physical clock: P1 ran 60 s, P2 ran 90 s, P1 runs since +150 s.
    now = time.now_ms()
    assert game.remaining(P1, now) == 60 * MIN - 60_000 - (now - (t0 + 150_000))
    assert game.remaining(P2, now) == 60 * MIN - 90_000

    # The other order of return gives the same game, and so does a restart.
    again = TableHub(room.store, time)
    again.load()
    assert again.rooms[room.table_id].game == game
    dup = await room.merge_offline(P1, "phone-1", p1_gap, base, p1_queue)
    assert dup.duplicate and room.game == game
    await again.close()


async def test_merge_order_does_not_matter(table: tuple[TableHub, TableRoom, FakeTime]) -> None:
    hub, room, time = table
    other = hub.create(QuickGame(clock_minutes=60, scenario="bunkers"))
    await other.apply(P1, "phone-1", 1, c.StartClock())
    base, t0 = room.version, time.now_ms()
    heard(room, "p1:phone-1", "p2:phone-2")
    heard(other, "p1:phone-1", "p2:phone-2")
    time.advance(5 * MIN)
    queues = {
        P1: [(2, t0 + 60_000, tap(P1)), (3, t0 + 200_000, tap(P1))],
        P2: [(1, t0 + 150_000, tap(P2))],
    }
    gaps = {t: (back(t, "p1:phone-1"), back(t, "p2:phone-2")) for t in (room, other)}
    await room.merge_offline(P1, "phone-1", gaps[room][0], base, queues[P1])
    await room.merge_offline(P2, "phone-2", gaps[room][1], base, queues[P2])
    await other.merge_offline(P2, "phone-2", gaps[other][1], base, queues[P2])
    await other.merge_offline(P1, "phone-1", gaps[other][0], base, queues[P1])
    now = time.now_ms()
    for game in (room.game, other.game):
        assert (game.phase, game.active) == (Phase.ADVANCE_DEPLOYMENT, P2)
        assert game.remaining(P1, now) == 60 * MIN - 60_000 - 50_000
    assert room.game.clock == other.game.clock


async def test_a_queue_that_contradicts_itself_is_refused_to_its_phone_alone__DC6(
    table: tuple[TableHub, TableRoom, FakeTime],
) -> None:
    _hub, room, time = table
    base, t0 = room.version, time.now_ms()
    heard(room, "p1:phone-1", "p2:phone-2")
    time.advance(2 * MIN)
    # Both phones were offline; P1's queue ended P1's deployment at +30 s, P2's ended
    # P2's at +100 s; then P1's switches the clock to P2 at +110 s for an interrupt,
    # which only a turn allows (DC6): no turn in P1's own queue allows it, whatever P2
    # did. Refused to P1's phone; nothing for the EO to decide.
    p1_gap, p2_gap = back(room, "p1:phone-1"), back(room, "p2:phone-2")
    await room.merge_offline(P1, "phone-1", p1_gap, base, [(2, t0 + 30_000, tap(P1))])
    await room.merge_offline(P2, "phone-2", p2_gap, base, [(1, t0 + 100_000, tap(P2))])
    version, game = room.version, room.game
    with pytest.raises(RuleError, match="as this phone had it") as refused:
        await room.merge_offline(
            P1, "phone-1", p1_gap, base, [(3, t0 + 110_000, c.SwitchClock(to=P2))]
        )
    assert not isinstance(refused.value, MergeRefused)
    assert room.version == version and room.game == game
    assert not room.merge_refused


async def test_offline_commands_from_the_future_are_brought_back_to_the_return(
    table: tuple[TableHub, TableRoom, FakeTime],
) -> None:
    _hub, room, time = table
    heard(room, "p1:phone-1")
    time.advance(MIN)
    gap = back(room, "p1:phone-1")
    await room.merge_offline(P1, "phone-1", gap, room.version, [(9, time.now_ms() + MIN, tap(P1))])
    # The tap counts at the phone's return, not a minute later than anything happened.
    assert room.game.clock.running is P2 and room.game.clock.since_ms == gap.back_ms


# -- Classic Turn Timing (DC10): the turn timer's presses merged as the clock's taps --


@pytest.fixture
async def classic(tmp_path: Path) -> AsyncIterator[tuple[TableRoom, FakeTime, int]]:
    """A Classic Turn Timing game at 75 points (100-minute round, 10-minute turns) in
    P1's turn 1, with P1's turn timer started; also the moment it started."""
    store = Store(f"sqlite:///{tmp_path / 'classic.db'}")
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(
        QuickGame(points=75, scenario="king-of-the-hill", variants=("classic_turn_timing",))
    )
    await room.apply(P1, "phone-1", 1, c.StartClock())
    for seq, side in enumerate((P1, P2, P1, P2), start=2):
        time.advance(MIN)
        await room.apply(side, f"phone-{side.value + 1}", seq, tap(side))
    assert room.game.phase is Phase.TURN and room.game.active is P1
    started = time.now_ms()
    await room.apply(P1, "phone-1", 10, c.StartTurnTimer())
    yield room, time, started
    await hub.close()
    store.close()


@pytest.mark.parametrize(("claimed", "booked"), [(-5 * MIN, 0), (10 * MIN, 2 * MIN)],
                         ids=["before-it-was-gone", "after-its-return"])  # fmt: skip
async def test_offline_timer_stop_is_bounded_to_the_phones_time_away__DC10(
    classic: tuple[TableRoom, FakeTime, int], claimed: int, booked: int
) -> None:
    room, time, started = classic
    time.advance(30_000)
    heard(room, "p1:phone-1")  # the last the server heard of P1's phone: 30 s in
    since = time.now_ms()
    time.advance(2 * MIN)
    gap = back(room, "p1:phone-1")
    stop = c.StopTurnTimer()
    await room.merge_offline(P1, "phone-1", gap, room.version, [(11, since + claimed, stop)])
    # The phone's time is not trusted: the stop counts within its time away, as a tap would.
    timer = room.game.timer
    assert timer is not None and not timer.running
    assert timer.left(time.now_ms()) == 10 * MIN - (since + booked - started)


async def test_offline_timer_presses_that_change_nothing_do_nothing__DC10(
    classic: tuple[TableRoom, FakeTime, int],
) -> None:
    room, time, started = classic
    heard(room, "p1:phone-1")
    time.advance(2 * MIN)
    gap = back(room, "p1:phone-1")
    # Stop twice, start twice (a double press on a physical timer): the second of each is nothing.
    queue = [
        (11, started + 10_000, c.StopTurnTimer()),
        (12, started + 20_000, c.StopTurnTimer()),
        (13, started + 30_000, c.StartTurnTimer()),
        (14, started + 40_000, c.StartTurnTimer()),
    ]
    await room.merge_offline(P1, "phone-1", gap, room.version, queue)
    assert not room.merge_refused
    timer = room.game.timer
    now = time.now_ms()
    assert timer is not None and timer.running
    assert timer.left(now) == 10 * MIN - 10_000 - (now - (started + 30_000))
    entry = room.store.log(room.table_id, after=room.version - 1)[-1]
    wire = json.loads(entry.command_json)
    assert [sub["seq"] for sub in wire["entries"] if sub["offline"]] == [11, 13]
    assert [sub["seq"] for sub in wire["dropped"]] == [12, 14]


async def test_offline_timer_stop_after_dice_down_at_the_round_time_does_nothing__DC10(
    classic: tuple[TableRoom, FakeTime, int],
) -> None:
    room, time, _ = classic
    timer = room.game.timer
    assert timer is not None
    heard(room, "p1:phone-1")
    time.advance(timer.round_end_ms - time.now_ms() + 5 * MIN)
    gap = back(room, "p1:phone-1")
    await room.merge_offline(
        P1, "phone-1", gap, room.version, [(11, timer.round_end_ms + MIN, c.StopTurnTimer())]
    )
    game = room.game
    assert game.phase is Phase.OVER and game.ending is not None
    assert game.ending.at_ms == timer.round_end_ms  # dice down at the round time stands
    assert game.timer is not None and game.timer.called and not room.merge_refused


async def test_offline_turn_extension_while_the_eo_paused_is_refused__DC10(
    classic: tuple[TableRoom, FakeTime, int],
) -> None:
    room, time, started = classic
    heard(room, "p1:phone-1")
    time.advance(MIN)
    await room.apply(c.Role.EO, "", 1, c.PauseClock())
    time.advance(MIN)
    version, game = room.version, room.game
    gap = back(room, "p1:phone-1")
    with pytest.raises(MergeRefused, match=r"offline turn extension .*paused.*EO decides"):
        await room.merge_offline(
            P1, "phone-1", gap, version, [(11, started + 30_000, c.TakeExtension())]
        )
    assert room.version == version and room.game == game and room.merge_refused
