"""A worker's lease held throughout: only a lapse lets another worker take its tables,
so only then (or once a lease's time, as a backstop) does the sweep read who holds them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from app.cluster.backplane import Backplane
from app.cluster.cluster import Cluster
from app.domain import commands as c
from app.domain.clock import Side
from app.store.lease import Leases
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime
from tests.integration.workers_support import REDIS_URL, pg_store


@pytest.fixture
def store() -> Iterator[Store]:
    with pg_store() as store:
        yield store


def _expire_in(store: Store, worker: str, seconds: float) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE worker_lease SET expires_at = clock_timestamp() "
                "+ make_interval(secs => :s) WHERE worker_id = :w"
            ),
            {"s": seconds, "w": worker},
        )


def test_a_renewal_says_whether_the_lease_was_held_all_along(store: Store) -> None:
    leases = Leases(store.engine, "w1", ttl_ms=2_000)
    assert leases.renew() == ["w1"] and not leases.held  # no lease before: nothing was held
    leases.renew()
    assert leases.held
    _expire_in(store, "w1", 0.1)  # live, but with less than a quarter of the lease to spare
    leases.renew()
    assert not leases.held
    _expire_in(store, "w1", -1.0)  # lapsed: another worker may have taken a table
    assert leases.renew() == ["w1"] and not leases.held
    leases.renew()
    assert leases.held


async def test_a_worker_whose_lease_lapsed_lets_go_of_a_table_taken_meanwhile(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = TableHub(store, FakeTime(), random.Random(1))
    room = hub.create(QuickGame(clock_minutes=30))
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    leases = Leases(store.engine, "stalled", ttl_ms=2_000)
    cluster = Cluster(hub, Backplane(REDIS_URL, "unused", "stalled"), leases)
    reads: list[int] = []  # how many tables each read of their holders asked about
    scans: list[bool] = []  # whether each sweep looked for never-owned tables too
    holders, orphans = leases.holders, leases.orphans

    def read_holders(ids: list[str]) -> dict[str, tuple[str | None, int]]:
        reads.append(len(ids))
        return holders(ids)

    def find_orphans(never_owned: bool = True) -> list[str]:
        scans.append(never_owned)
        return orphans(never_owned)

    monkeypatch.setattr(leases, "holders", read_holders)
    monkeypatch.setattr(leases, "orphans", find_orphans)
    try:
        await cluster.renew()
        token = leases.claim_or_owner(room.table_id)[0]
        assert token is not None
        cluster._took(room.table_id, token)
        await cluster.sweep()
        await cluster.renew()
        await cluster.sweep()
        assert reads == [1]  # held throughout since the first sweep: not read again
        assert scans == [True]  # the scan of every table goes with the holders' read...
        # ...and no worker has gone since: no table can have lost its owner, nor is scanned

        _expire_in(store, "stalled", -1.0)  # the worker stalls past its lease...
        other = Leases(store.engine, "other")
        other.renew()
        assert other.claim_or_owner(room.table_id)[0] == token + 1  # ...and another takes the table
        await cluster.sweep()
        assert reads == [1] and room.fence == token  # no renewal yet: it cannot know
        await cluster.renew()  # the renewal finds the lease lapsed
        await cluster.sweep()
        assert reads == [1, 1]
        assert room.table_id not in cluster.owned and room.fence is None
    finally:
        cluster._renewer.shutdown(wait=False)
        cluster._sweeper.shutdown(wait=False)
        await hub.close()


async def test_the_orphans_scan_runs_only_once_a_worker_seen_alive_has_gone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scan goes through every table: while every worker seen alive stays alive, no
    table can have lost its owner, and the sweep reads only the lease rows; a worker gone
    (its lease lapsed, even one that came and went between two sweeps) starts it at once."""
    hub = TableHub(store, FakeTime(), random.Random(1))
    leases = Leases(store.engine, "heir", ttl_ms=2_000)
    cluster = Cluster(hub, Backplane(REDIS_URL, "unused", "heir"), leases)
    scans: list[bool] = []
    orphans = leases.orphans

    def find_orphans(never_owned: bool = True) -> list[str]:
        scans.append(never_owned)
        return orphans(never_owned)

    monkeypatch.setattr(leases, "orphans", find_orphans)
    monkeypatch.setattr(leases, "ttl_ms", 60_000)  # no backstop scan within the test
    try:
        await cluster.beat()
        assert scans == [True]
        room = hub.create(QuickGame(clock_minutes=30))
        await room.apply(Side.P1, "d1", 1, c.StartClock())
        dying = Leases(store.engine, "dying")
        dying.renew()
        await cluster.sweep()
        assert scans == [True]  # a new worker, nobody gone: nothing to scan for
        assert dying.claim_or_owner(room.table_id)[0] is not None
        _expire_in(store, "dying", -1.0)  # it dies holding the table
        await cluster.sweep()
        assert scans == [True, False]  # gone: scanned at once, without waiting for a renewal
        assert room.table_id in cluster.owned  # ...and its table taken over
        await cluster.sweep()
        assert scans == [True, False]  # nothing left over, nobody else gone

        brief = Leases(store.engine, "brief")
        brief.renew()
        await cluster.renew()  # seen alive by a renewal only...
        assert "brief" in cluster.alive
        _expire_in(store, "brief", -1.0)  # ...and gone before the next sweep
        await cluster.sweep()
        assert scans == [True, False, False]
    finally:
        cluster._renewer.shutdown(wait=False)
        cluster._sweeper.shutdown(wait=False)
        await hub.close()
