"""A table claimed twice at once by one worker: a phone's command and the sweep may both
claim an orphaned table (a worker stopped, its tables went to nobody). The claim that
lost the race must not fence out the other's writes: a tap between them is acked."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator

import pytest

from app.cluster.backplane import Backplane
from app.cluster.cluster import Cluster
from app.domain import commands as c
from app.domain.clock import Side
from app.store.lease import Leases
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from tests.integration.workers_support import REDIS_URL, pg_store


@pytest.fixture
def store() -> Iterator[Store]:
    with pg_store() as store:
        yield store


@pytest.fixture
async def worker(store: Store) -> AsyncIterator[Cluster]:
    hub = TableHub(store, FakeTime(), random.Random(1))
    leases = Leases(store.engine, "w")
    leases.renew()
    cluster = Cluster(hub, Backplane(REDIS_URL, "unused", "w"), leases)
    try:
        yield cluster
    finally:
        cluster._renewer.shutdown(wait=False)
        cluster._sweeper.shutdown(wait=False)
        await hub.close()


def orphaned_table(cluster: Cluster) -> TableRoom:
    """A table its stopped worker let go of (`resign`): nobody's, at token 1."""
    room = cluster.hub.create(QuickGame(clock_minutes=30))
    gone = Leases(cluster.hub.store.engine, "gone")
    gone.renew()
    assert gone.claim_or_owner(room.table_id)[0] == 1
    gone.resign()
    return room


def test_a_worker_claiming_a_table_it_holds_keeps_its_token(store: Store) -> None:
    first, second = Leases(store.engine, "first"), Leases(store.engine, "second")
    first.renew()
    second.renew()
    assert first.claim_or_owner("t1") == (1, "first")
    assert first.claim_or_owner("t1") == (1, "first")  # its own: the same token
    assert first.claim_all(["t1"]) == {"t1": 1}
    first.resign()
    assert second.claim_all(["t1"]) == {"t1": 2}  # a change of owner: one more
    assert second.claim_or_owner("t1") == (2, "second")
    second.resign()
    assert first.claim_or_owner("t1") == (3, "first")  # back to the first: one more again


async def test_a_command_and_the_sweep_claim_one_table_at_once_and_a_tap_between_is_acked(
    worker: Cluster,
) -> None:
    room = orphaned_table(worker)
    by_command = worker.leases.claim_or_owner(room.table_id)[0]
    by_sweep = worker.leases.claim_all([room.table_id])  # committed before either is taken
    assert by_command is not None and by_sweep == {room.table_id: by_command}
    assert worker._took(room.table_id, by_command, [])
    await room.apply(Side.P1, "d1", 1, c.StartClock())  # before the sweep's turn: acked
    assert worker._took(room.table_id, by_sweep[room.table_id], [])
    await room.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    assert room.fence == 2 and room.version == 2
    assert [e.version for e in worker.hub.store.log(room.table_id)] == [1, 2]


async def test_a_table_read_back_after_it_was_let_go_is_owned_again_with_its_token(
    worker: Cluster,
) -> None:
    room = orphaned_table(worker)
    assert await worker._owner(room) == "w"
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    worker.hub.let_go(room.table_id)  # idle: forgotten here, still this worker's
    again = worker.hub.get(room.table_id)
    assert again is not None and again is not room and again.fence is None
    assert await worker._owner(again) == "w"
    assert again.fence == worker.owned[room.table_id] == 2  # owned, not written unfenced
    await again.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    assert [e.version for e in worker.hub.store.log(room.table_id)] == [1, 2]
