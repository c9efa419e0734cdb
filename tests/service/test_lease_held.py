"""A worker's lease held throughout: only a lapse lets another worker take its tables,
so only then (or once a lease's time, as a backstop) does the sweep read who holds them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from app.domain import commands as c
from app.domain.clock import Side
from app.store.lease import Leases
from app.store.repository import Store
from app.tables.backplane import Backplane
from app.tables.cluster import Cluster
from app.tables.hub import QuickGame, TableHub
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
    await room.execute(Side.P1, "d1", 1, c.StartClock())
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
        token = leases.claim(room.table_id)
        assert token is not None
        cluster._took(room.table_id, token)
        await cluster.sweep()
        await cluster.renew()
        await cluster.sweep()
        assert reads == [1]  # held throughout since the first sweep: not read again
        assert scans == [True, False]  # the scan of every table goes with the holders' read

        _expire_in(store, "stalled", -1.0)  # the worker stalls past its lease...
        other = Leases(store.engine, "other")
        other.renew()
        assert other.claim(room.table_id) == token + 1  # ...and another takes the table
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
