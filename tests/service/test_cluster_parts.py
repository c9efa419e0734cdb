"""The parts of several workers, one at a time: the Redis fan-out backend, table leases
with fencing on the real PostgreSQL, the heir of a table, and `serve --workers`."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from app import cli
from app.cluster.backplane import Backplane, RedisBroadcast
from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.game import apply, new_game
from app.store.lease import Leases, heir
from app.store.log_entry import LogEntry
from app.store.repository import Fenced, Store
from app.store.tails import logs_after
from app.tables.fanout import Subscriber
from app.tables.flag_timer import RETRY_MS, FlagTimer
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime
from tests.integration.workers_support import REDIS_URL, need_services, pg_store


@pytest.fixture
def store() -> Iterator[Store]:
    with pg_store() as store:
        yield store


async def test_redis_broadcast_reaches_subscribers_on_every_worker() -> None:
    need_services()
    prefix = f"dctest-{secrets.token_hex(4)}"
    one, two = Backplane(REDIS_URL, prefix, "one"), Backplane(REDIS_URL, prefix, "two")
    await one.start()
    await two.start()
    try:
        assert one.healthy and two.healthy and one.trouble is None
        here, there = RedisBroadcast(one), RedisBroadcast(two)
        mine, theirs, skipped = Subscriber("p1"), Subscriber("p2"), Subscriber("watch")
        here.channel("table:x").join(mine)
        here.channel("table:x").join(skipped)
        there.channel("table:x").join(theirs)
        there.channel("table:y").join(Subscriber("eo"))
        here.channel("table:x").publish("tap 1", skip=skipped)
        here.channel("table:x").publish("tap 2")
        got = [await asyncio.wait_for(theirs.queue.get(), 2) for _ in range(2)]
        assert got == ["tap 1", "tap 2"]  # in order, on the other worker
        assert [mine.queue.get_nowait() for _ in range(2)] == ["tap 1", "tap 2"]
        assert skipped.queue.get_nowait() == "tap 2"
        await asyncio.sleep(0.1)
        assert mine.queue.empty()  # its own message is not delivered twice here
        assert there.channel("table:y").subscribers.pop().queue.empty()
    finally:
        await one.close()
        await two.close()


async def test_a_stale_owner_cannot_write_after_a_takeover(store: Store) -> None:
    hub = TableHub(store, FakeTime(), random.Random(1))
    room = hub.create(QuickGame(clock_minutes=30))
    first, second = Leases(store.engine, "first", ttl_ms=2_000), Leases(store.engine, "second")
    assert first.renew() == ["first"]
    second.renew()
    token = first.claim_or_owner(room.table_id)[0]
    assert token == 1
    assert second.claim_or_owner(room.table_id)[0] is None  # its owner is alive...
    assert second.claim_or_owner(room.table_id) == (None, "first")  # ...and which it is
    # The owner's write holds a share lock on its row (as pg_log's fenced insert does); a
    # worker asking meanwhile only reads the row: with a lock wait it would give up at once.
    url = store.engine.url  # (its options name the test's own schema)
    options = f"{url.query['options']} -c lock_timeout=100"
    impatient = create_engine(url.update_query_dict({"options": options}))
    asking = Leases(impatient, "second")
    with store.engine.begin() as writing:
        writing.execute(
            text("SELECT 1 FROM table_owner WHERE table_id = :t FOR SHARE"), {"t": room.table_id}
        )
        assert asking.claim_or_owner(room.table_id) == (None, "first")
    impatient.dispose()
    room.own(token)
    await room.apply(Side.P1, "d1", 1, c.StartClock())

    with store.engine.begin() as conn:  # the first worker stalls past its lease
        conn.execute(text("UPDATE worker_lease SET expires_at = now() - interval '1 second'"))
    second.renew()
    assert second.orphans() == [room.table_id]
    assert second.claim_or_owner(room.table_id)[0] == 2
    with pytest.raises(Fenced) as refused:
        await room.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))  # still token 1
    assert refused.value.code == "server_trouble"
    assert room.version == 1 and [e.version for e in store.log(room.table_id)] == [1]
    entry = LogEntry(2, 0, "p1", "d1", 2, '{"c":"pass_turn","expect":"p1"}')
    store.append(room.table_id, entry, None, None, fence=2)  # the new owner writes
    assert [e.version for e in store.log(room.table_id)] == [1, 2]
    assert second.mine() == {room.table_id: 2} and first.mine() == {}
    second.resign()
    assert second.holders([room.table_id]) == {room.table_id: (None, 2)}  # nobody's now
    assert first.claim_or_owner(room.table_id) == (3, "first")
    await hub.close()


async def test_a_dead_workers_tables_taken_over_in_one_claim(store: Store) -> None:
    hub = TableHub(store, FakeTime(), random.Random(1))
    rooms = [hub.create(QuickGame(clock_minutes=30)) for _ in range(3)]
    ids = [room.table_id for room in rooms]
    dead, heir_, other = (Leases(store.engine, w) for w in ("dead", "heir", "other"))
    for worker in (dead, heir_, other):
        worker.renew()
    assert [dead.claim_or_owner(t)[0] for t in ids[:2]] == [1, 1]
    assert other.claim_or_owner(ids[2])[0] == 1
    assert heir_.claim_all(ids) == {}  # every owner alive: nothing taken
    with store.engine.begin() as conn:  # the first worker dies: its lease lapses
        conn.execute(
            text(
                "UPDATE worker_lease SET expires_at = now() - interval '1 second' "
                "WHERE worker_id = 'dead'"
            )
        )
    assert sorted(heir_.orphans()) == sorted(ids[:2])
    assert sorted(heir_.orphans(never_owned=False)) == sorted(ids[:2])  # the quick read
    assert heir_.claim_all(ids) == {ids[0]: 2, ids[1]: 2}  # the live owner keeps its own
    assert heir_.mine() == {ids[0]: 2, ids[1]: 2} and other.mine() == {ids[2]: 1}
    assert dead.claim_all(ids[:2]) == {} and heir_.claim_all([]) == {}
    await hub.close()


async def test_a_new_table_is_nobodys_until_a_command_and_no_orphan_meanwhile(
    store: Store,
) -> None:
    """A table nobody has taken and whose game has not begun runs no clock: the sweep
    leaves it to the worker that gets its first command (where a phone of it is)."""
    hub = TableHub(store, FakeTime(), random.Random(1))
    waiting, begun = (
        hub.create(QuickGame(clock_minutes=30)),
        hub.create(QuickGame(clock_minutes=30)),
    )
    await begun.apply(Side.P1, "d1", 1, c.StartClock())  # its status is no longer waiting
    leases = Leases(store.engine, "any")
    leases.renew()
    assert leases.holders([waiting.table_id]) == {}
    assert leases.orphans() == [begun.table_id]  # a begun game with no owner: taken over
    assert leases.orphans(never_owned=False) == []  # ...found by the thorough sweep only
    assert leases.claim_or_owner(waiting.table_id)[0] == 1  # its first command's worker takes it
    assert sorted(leases.orphans()) == [begun.table_id]
    await hub.close()


async def test_a_takeover_reads_what_it_missed_of_every_table_in_one_query(store: Store) -> None:
    hub = TableHub(store, FakeTime(), random.Random(1))
    rooms = [hub.create(QuickGame(clock_minutes=30)) for _ in range(3)]
    for room in rooms[:2]:
        await room.apply(Side.P1, "d1", 1, c.StartClock())
        await room.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    first, second, idle = (room.table_id for room in rooms)
    logs = logs_after(store.engine, {first: 0, second: 1, idle: 0, "none": 0})
    assert [e.version for e in logs[first]] == [1, 2]
    assert [(e.version, e.device, e.seq) for e in logs[second]] == [(2, "d1", 2)]
    assert logs[idle] == [] and logs["none"] == [] and logs_after(store.engine, {}) == {}
    assert logs[second] == store.log(second, after=1)  # as the one-table read says
    await hub.close()


def test_each_orphaned_table_has_one_heir_and_the_tables_spread() -> None:
    workers = ["a", "b", "c"]
    tables = [f"t{i}" for i in range(300)]
    heirs = [heir(t, workers) for t in tables]
    assert heirs == [heir(t, list(reversed(workers))) for t in tables]  # order does not matter
    assert all(80 <= heirs.count(w) <= 120 for w in workers)
    # a worker leaving moves only its own tables
    left = [heir(t, ["a", "b"]) if h == "c" else h for t, h in zip(tables, heirs, strict=True)]
    assert left == [heir(t, ["a", "b"]) for t in tables]
    assert heir("t", []) is None


def test_serve_refuses_several_workers_on_sqlite(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEATHCLOCK_REDIS_URL", "redis://127.0.0.1:6379/0")
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--workers", "2", "--database-url", "sqlite:///./data/x.db"])
    assert exited.value.code == 2
    assert "cannot run 2 workers: several workers need PostgreSQL" in capsys.readouterr().err
    monkeypatch.delenv("DEATHCLOCK_REDIS_URL")
    with pytest.raises(SystemExit):
        cli.main(["serve", "--workers", "3", "--database-url", "postgresql+psycopg://x@h/db"])
    assert "DEATHCLOCK_REDIS_URL" in capsys.readouterr().err


async def _turns_of_the_loop() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_flag_check_that_cannot_be_made_is_made_again_a_second_later__DC7() -> None:
    """Without Redis the owner cannot apply the flag (server trouble): its timer looks
    again a second later instead of spinning, and decides the flag once it can."""
    time = FakeTime()
    setup = QuickGame(clock_seconds=10).setup(random.Random(1))
    stopped = new_game(setup, time.now_ms())
    running = apply(stopped, Side.P1, c.StartClock(), time.now_ms())
    games = [running]
    calls = []

    async def check() -> None:
        calls.append(time.now_ms())
        if len(calls) == 1:
            raise RuleError("server trouble: Redis is unavailable", "server_trouble")
        games.append(stopped)  # decided: nothing runs any more

    timer = FlagTimer(time, check, lambda: games[-1])
    timer.schedule(running)
    time.advance(10_000)  # the flag's moment: the check fails
    await _turns_of_the_loop()
    assert len(calls) == 1
    time.advance(RETRY_MS - 1)
    await _turns_of_the_loop()
    assert len(calls) == 1  # not spinning
    time.advance(1)
    await _turns_of_the_loop()
    assert len(calls) == 2
    await timer.close()


async def test_postgres_writes_a_batch_of_taps_durably_in_one_round_trip_awaited(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the hot path's log writer commits synchronously: one round trip
    writes a batch of taps and returns once the write-ahead log is on disk up to it, so
    the ack needs no flush of its own; the write is awaited (the loop serves other
    tables meanwhile), and taps that come in meanwhile share the next round trip."""
    hub = TableHub(store, FakeTime(), random.Random(1))
    room = hub.create(QuickGame(clock_minutes=30))
    flushes: list[int] = []  # separate flushes of the log: none for the hot path

    def flush() -> None:
        flushes.append(1)

    assert store._pg_log is not None
    batches: list[tuple[int, bool]] = []  # writes in each round trip; the loop went on
    real_run = store._pg_log._run

    async def run(batch: list[Any]) -> None:
        served = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(served.set_result, True)
        await real_run(batch)
        batches.append((len(batch), served.done()))

    monkeypatch.setattr(store._group, "_flush_once", flush)
    monkeypatch.setattr(store._pg_log, "_run", run)
    try:
        ack = await room.apply(Side.P1, "d1", 1, c.StartClock())
        assert ack.version == 1 and batches == [(1, True)]
        writer = await store._pg_log._connection()  # its commits wait for the disk
        shown = await (await writer.execute("SHOW synchronous_commit")).fetchone()
        assert shown is not None and shown[0] == "on"
        # Taps on three tables under way at once: one round trip for the three.
        others = [hub.create(QuickGame(clock_minutes=30)) for _ in range(3)]
        acks = await asyncio.gather(*(r.apply(Side.P1, "d1", 1, c.StartClock()) for r in others))
        assert [a.version for a in acks] == [1, 1, 1]
        assert batches == [(1, True), (3, True)]
        assert flushes == []
        for other in others:
            assert [e.version for e in store.log(other.table_id)] == [1]
    finally:
        await hub.close()


async def test_a_bad_write_costs_the_others_in_its_round_trip_nothing(store: Store) -> None:
    """PostgreSQL log writes that travel together are one transaction: when one of them
    fails, the batch is rolled back and each is written again on its own."""
    hub = TableHub(store, FakeTime(), random.Random(1))
    one, two = hub.create(QuickGame(clock_minutes=30)), hub.create(QuickGame(clock_minutes=30))
    await one.apply(Side.P1, "d1", 1, c.StartClock())
    entry = LogEntry(2, 0, "p1", "d1", 2, '{"c":"pass_turn","expect":"p1"}')
    again = LogEntry(1, 0, "p1", "d1", 1, '{"c":"start"}')  # version 1 is taken
    first = LogEntry(1, 0, "p1", "d2", 1, '{"c":"start"}')
    done = await asyncio.gather(
        store.write(one.table_id, entry, None, None),
        store.write(one.table_id, again, None, None),
        store.write(two.table_id, first, None, None),
        return_exceptions=True,
    )
    assert done[0] is None and done[2] is None
    assert isinstance(done[1], Exception)
    assert [e.version for e in store.log(one.table_id)] == [1, 2]
    assert [e.device for e in store.log(two.table_id)] == ["d2"]
    await hub.close()
