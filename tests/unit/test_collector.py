"""The collector's pace: young often, what outlives it frozen, full when cycles pile up."""

from __future__ import annotations

import asyncio
import gc
import weakref
from types import SimpleNamespace

from app.api.limits import Heartbeats
from app.collector import FREEZE, Census, Pace, pace_collector
from app.main import census_of
from app.tables.fanout import Subscriber
from app.tables.timesource import FakeTime


def test_young_every_tick_and_never_the_middle_generation() -> None:
    pace = Pace(now_ms=0)
    gens = [pace.generation(now_ms=50 * n, census=Census()) for n in range(1, 11)]
    assert gens == [0] * 10


def let_go(n: int, held: int = 100) -> Census:
    """`n` tables let go so far while sockets came and went, `held` in memory and open now."""
    return Census(churn=2 * n, released=n, held=held)


def test_a_full_collection_after_enough_let_go_once_the_sockets_stop() -> None:
    pace = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000)
    assert pace.generation(50, let_go(999)) == 0
    assert pace.generation(100, let_go(1000)) != 2  # sockets still coming and going
    assert pace.generation(1050, let_go(1000)) != 2
    assert pace.generation(1100, let_go(1000)) == 2  # a second without a new one
    assert pace.generation(1150, let_go(1999)) != 2  # counted from the last full one
    assert pace.generation(2150, let_go(1999)) != 2
    assert pace.generation(2200, let_go(2000)) != 2
    assert pace.generation(3200, let_go(2000)) == 2


def test_tables_let_go_count_without_a_socket_coming_or_going() -> None:
    pace = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000)
    unloaded = Census(churn=0, released=1000, held=100)  # quick games over, nobody on them
    assert pace.generation(950, unloaded) != 2
    assert pace.generation(1000, unloaded) == 2  # no socket came or went for a second


def test_a_round_that_begins_with_every_phone_joining_costs_no_full_collection() -> None:
    # The round's start: 10,000 phones join over 20 s; a walk of what they hold then
    # took about a second a worker at 5,000 tables, and found next to nothing.
    pace = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000)
    opened = [Census(churn=50 * n, released=0, held=50 * n) for n in range(1, 201)]
    gens = [pace.generation(100 * n, census) for n, census in enumerate(opened, start=1)]
    gens += [pace.generation(20_000 + 50 * n, opened[-1]) for n in range(1, 100)]
    assert 2 not in gens


def test_the_more_the_server_holds_the_more_it_lets_go_before_a_full_collection() -> None:
    # A walk costs what is held: 10,000 sockets and 5,000 tables wait for a quarter of
    # that (3,750) to be let go; a small server for FULL_AFTER_RELEASE (1,000).
    big = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000)
    assert big.generation(2000, Census(churn=3000, released=3000, held=15_000)) != 2
    assert big.generation(4000, Census(churn=3749, released=3749, held=15_000)) != 2
    assert big.generation(6000, Census(churn=3750, released=3750, held=15_000)) != 2
    assert big.generation(7000, Census(churn=3750, released=3750, held=15_000)) == 2
    small = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000)
    assert small.generation(2000, Census(churn=999, released=999, held=400)) != 2
    assert small.generation(4000, Census(churn=1000, released=1000, held=400)) != 2
    assert small.generation(5000, Census(churn=1000, released=1000, held=400)) == 2


def test_a_hall_coming_back_after_tables_were_let_go_costs_one_full_collection() -> None:
    # 2000 tables were let go; 2000 phones drop together and come back over a second.
    pace = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000)
    back = [Census(churn=2000 + 100 * n, released=2000, held=100 * n) for n in range(1, 21)]
    censuses = [Census(churn=2000, released=2000, held=0), *back] + [back[-1]] * 40
    gens = [pace.generation(50 * (n + 1), c) for n, c in enumerate(censuses)]
    assert gens.count(2) == 1
    assert gens.index(2) == 20 + 20  # the second after the last phone came back


def test_a_steady_trickle_of_sockets_puts_the_full_collection_off_only_so_long() -> None:
    pace = Pace(now_ms=0, full_after_release=1000, quiet_ms=1000, max_defer_ms=30_000)
    fulls = [t for t in range(50, 40_000, 50) if pace.generation(t, let_go(1000 + t)) == 2]
    assert fulls == [30_050]  # the threshold crossed at once; then 30 s at most


def test_a_full_collection_at_least_every_half_hour() -> None:
    pace = Pace(now_ms=0)
    assert pace.generation(1_799_999, Census()) != 2
    assert pace.generation(1_800_000, Census()) == 2
    assert pace.generation(1_800_050, Census()) != 2


async def test_the_pacer_turns_the_automatic_collector_off_while_it_runs() -> None:
    assert gc.isenabled()
    ticks = 0

    async def tick(_seconds: float) -> None:
        nonlocal ticks
        ticks += 1
        await asyncio.sleep(0)  # a tick passes; no real time is waited for

    before = gc.get_stats()[0]["collections"]
    task = asyncio.create_task(pace_collector(lambda: 0, Census, sleep=tick))
    while ticks < 4:
        await asyncio.sleep(0)
        assert not gc.isenabled()
    assert gc.get_stats()[0]["collections"] >= before + 3
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert gc.isenabled()


def test_young_collections_wait_while_a_crowd_of_sockets_comes_in_then_freeze_it() -> None:
    # The hall's phones come back after a restart: 100 sockets a tick for half a second.
    pace = Pace(now_ms=-60_000, crowd=20, crowd_defer_ms=2000)
    assert pace.generation(50, Census(churn=5)) == 0  # a few sockets: as ever
    gens = [pace.generation(100 + 50 * n, Census(churn=5 + 100 * (n + 1))) for n in range(10)]
    assert gens == [None] * 10  # nothing walks the new sockets while they come
    # The last crowded tick was at 550: quiet ticks wait CROWD_CALM_MS (500 ms) for more.
    calm = [pace.generation(600 + 50 * n, Census(churn=1005)) for n in range(9)]
    assert calm == [None] * 9
    # In: frozen, not walked (its sockets are alive; a handshake leaves no cycle).
    assert pace.generation(1050, Census(churn=1005)) == FREEZE
    assert pace.generation(1100, Census(churn=1006)) == 0  # then as ever


def test_a_crowd_counted_in_bursts_is_one_crowd__the_quiet_ticks_between_walk_nothing() -> None:
    # A busy server counts the sockets it took in bursts: 0, 43, 16, 0, 63, 0, 0, 168, ...
    # (one worker's ticks while 1,000 phones came back to it). Each quiet tick's middle
    # collection walked every socket come in so far, a pause of 30-140 ms each time.
    pace = Pace(now_ms=-60_000, crowd=20, crowd_defer_ms=2000)
    bursts = [626, 1, 43, 16, 0, 63, 73, 0, 0, 96, 168, 31, 0, 0, 0, 77, 0, 0, 205, 228]
    churn, gens = 0, []
    for n, burst in enumerate(bursts):
        churn += burst
        gens.append(pace.generation(50 * (n + 1), Census(churn=churn)))
    assert gens == [None] * len(bursts)
    after = [pace.generation(1000 + 50 * (n + 1), Census(churn=churn)) for n in range(10)]
    assert after == [None] * 9 + [FREEZE]  # no crowded tick for 500 ms: frozen, no walk


def test_a_crowd_that_keeps_coming_is_frozen_every_two_seconds_never_walked() -> None:
    pace = Pace(now_ms=-60_000, crowd=20, crowd_defer_ms=2000, full_after_release=10**9)
    gens = [pace.generation(50 * n, Census(churn=100 * n)) for n in range(1, 101)]
    frozen = [n for n, gen in enumerate(gens, start=1) if gen == FREEZE]
    assert frozen == [41, 81]  # what it brought waits 2 s at most, then is frozen
    assert set(gens) == {None, FREEZE}  # no young collection walks it meanwhile
    calm = [pace.generation(5000 + 50 * n, Census(churn=10_000)) for n in range(1, 12)]
    assert calm == [None] * 9 + [FREEZE, 0]  # in at last: frozen, then as ever


def test_a_start_is_a_crowd__the_young_collections_wait_then_it_is_frozen() -> None:
    # The server starts: its tables are read, and every phone that lost it comes back.
    pace = Pace(now_ms=0, crowd=20, crowd_defer_ms=2000)
    gens = [pace.generation(50 * n, Census(churn=n)) for n in range(1, 40)]
    assert gens == [None] * 39  # a trickle, but the first 2 s after the start
    # The crowd began at the first tick (50 ms): it waits 2 s from then at the most.
    assert pace.generation(2000, Census(churn=40)) is None
    assert pace.generation(2050, Census(churn=40)) == FREEZE
    after = [pace.generation(2050 + 50 * n, Census(churn=40)) for n in range(1, 11)]
    assert after == [None] * 7 + [FREEZE, 0, 0]  # no crowded tick for 500 ms: as ever


class _Node:
    me: _Node


class _Pacer:
    """The pacer on a clock the test moves: each `tick` is 50 ms and one collection step,
    with the census `churn`, `released` as the test sets them."""

    def __init__(self, crowd: int | None = None) -> None:
        self.ms, self.churn, self.released = 0, 0, 0
        self._ticks: asyncio.Queue[None] = asyncio.Queue()
        self._ticked: asyncio.Queue[None] = asyncio.Queue()
        self._crowd = crowd
        self._task: asyncio.Task[None] | None = None

    async def _sleep(self, _seconds: float) -> None:
        await self._ticked.put(None)  # the last tick's collection is over
        await self._ticks.get()
        self.ms += 50

    def _census(self) -> Census:
        return Census(churn=self.churn, released=self.released, held=10)

    async def start(self) -> None:
        self._task = asyncio.create_task(
            pace_collector(lambda: self.ms, self._census, sleep=self._sleep, crowd=self._crowd)
        )
        await self._ticked.get()

    async def tick(self) -> None:
        self._ticks.put_nowait(None)
        await self._ticked.get()

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


async def test_what_outlives_a_young_collection_is_frozen_till_a_full_one_walks_it() -> None:
    # A phone's socket leaves objects at each message that live till its next one: once
    # they outlive a young collection, no later young or middle one walks them again.
    pacer = _Pacer()
    await pacer.start()
    node = _Node()
    node.me = node  # a cycle: only the collector frees it
    gone = weakref.ref(node)
    await pacer.tick()
    assert not any(o is node for o in gc.get_objects())  # frozen: out of every generation
    del node
    for _ in range(12):  # more than a middle collection's five young ticks
        await pacer.tick()
    assert gone() is not None  # garbage now, but no young collection walks it
    pacer.churn, pacer.released = 2000, 1000  # sockets came and went; tables let go
    await pacer.tick()
    pacer.ms += 1000  # and then no socket for a second: the full collection
    await pacer.tick()
    assert gone() is None
    await pacer.stop()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # a stopped pacer leaves nothing frozen


async def test_a_crowd_once_in_is_frozen_without_a_walk_till_a_full_one() -> None:
    # 2,000 phones back at once: walking what they brought took 170-230 ms and found
    # nothing (their sockets are alive). It is frozen instead; a full walk still sees it.
    pacer = _Pacer(crowd=20)
    await pacer.start()
    pacer.ms = 10_000  # long after the start (itself a crowd)
    await pacer.tick()
    young = gc.get_stats()[0]["collections"]
    node = _Node()
    node.me = node  # a cycle that came in with the crowd
    gone = weakref.ref(node)
    del node
    for _ in range(5):  # 100 sockets a tick
        pacer.churn += 100
        await pacer.tick()
    for _ in range(10):  # no crowded tick for 500 ms: the crowd is in
        await pacer.tick()
    assert gone() is not None and not any(o is gone() for o in gc.get_objects())  # frozen
    assert gc.get_stats()[0]["collections"] == young  # and nothing was walked for it
    pacer.released = 1000  # tables let go; a second without a socket: the full walk
    pacer.ms += 1000
    await pacer.tick()
    assert gone() is None
    await pacer.stop()
    assert gc.get_freeze_count() == 0


def test_sockets_closed_count_nothing_towards_a_full_walk_tables_let_go_do() -> None:
    # A socket that closes leaves no cycle (integration/test_socket_garbage.py): the hall's
    # phones dropping together once cost a walk of everything the server held.
    beats = Heartbeats(FakeTime())
    phones = [Subscriber("p1") for _ in range(2000)]
    for phone in phones:
        beats.join(phone)
    for phone in phones:
        beats.forget(phone)
    hub = SimpleNamespace(released=0, rooms=dict.fromkeys(range(1000)))
    census = census_of(beats, hub)  # type: ignore[arg-type]
    assert census == Census(churn=4000, released=0, held=1000)
    hub.released = 300  # quick games over, let go
    assert census_of(beats, hub).released == 300  # type: ignore[arg-type]


def test_the_heartbeats_count_what_the_census_needs_of_the_sockets() -> None:
    beats = Heartbeats(FakeTime())
    phones = [Subscriber("p1") for _ in range(3)]
    for phone in phones:
        beats.join(phone)
    beats.forget(phones[0])
    assert (beats.churn(), len(beats.heard)) == (4, 2)
    beats.sweep()  # nobody silent yet: nothing dropped, nothing counted
    assert (beats.churn(), len(beats.heard)) == (4, 2)
