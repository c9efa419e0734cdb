"""Several workers: what a worker reads from the store in a crowd (Redis back after an
outage, an event's round opened on another worker) is read on a thread, for many tables
at once, never table by table on the loop that serves every other table."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine

from app.cluster import cluster as cluster_module
from app.cluster.backplane import Backplane
from app.cluster.cluster import Cluster
from app.domain import commands as c
from app.domain.clock import Side
from app.store.lease import Leases
from app.store.log_entry import LogEntry
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime
from tests.integration.workers_support import REDIS_URL, pg_store


@pytest.fixture
def store() -> Iterator[Store]:
    with pg_store() as store:
        yield store


async def test_redis_back_every_followed_table_is_read_again_at_once_off_the_loop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While Redis was away the owners went on (or wrote what they could not send): once it
    is back, a worker reads what it missed for all the tables it follows in one read, on a
    thread, so that thousands of tables do not hold up its loop."""
    follower = TableHub(store, FakeTime(), random.Random(1))
    behind = [follower.create(QuickGame(clock_minutes=30)) for _ in range(2)]
    owner = TableHub(store, FakeTime(), random.Random(1))
    for room in behind:  # the owner's moves, not heard by the follower
        ahead = owner.get(room.table_id)
        assert ahead is not None
        await ahead.apply(Side.P1, "d1", 1, c.StartClock())
    assert [room.version for room in behind] == [0, 0]
    cluster = Cluster(follower, Backplane(REDIS_URL, "unused", "w"), Leases(store.engine, "w"))
    read_on: list[int] = []
    read_all = cluster_module.logs_after

    def logs(engine: Engine, versions: dict[str, int]) -> dict[str, list[LogEntry]]:
        read_on.append(threading.get_ident())
        return read_all(engine, versions)

    monkeypatch.setattr(cluster_module, "logs_after", logs)
    monkeypatch.setattr(store, "log", None)  # no read table by table
    try:
        await cluster._recover()
        assert len(read_on) == 1 and threading.get_ident() not in read_on
        assert [room.version for room in behind] == [1, 1]
        assert all(room.game.clock.running is Side.P1 for room in behind)
    finally:
        cluster._renewer.shutdown(wait=False)
        cluster._sweeper.shutdown(wait=False)
        await owner.close()
        await follower.close()


async def test_a_table_opened_on_another_worker_for_an_event_is_read_on_a_thread(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event's round opens its tables by the hundred on one worker; the others read
    each (for their EO dashboards) without holding up their loops."""
    creator, other = (TableHub(store, FakeTime(), random.Random(1)) for _ in range(2))
    table_id = creator.create(QuickGame(clock_minutes=30)).table_id
    cluster = Cluster(other, Backplane(REDIS_URL, "unused", "w"), Leases(store.engine, "w"))
    read_on: list[int] = []
    read = store.table_tail

    def tail(table: str) -> object:
        read_on.append(threading.get_ident())
        return read(table)

    monkeypatch.setattr(store, "table_tail", tail)
    try:
        cluster._on_open({"k": "open", "t": table_id, "ev": True})
        assert table_id not in other.rooms  # not read on the loop...
        await asyncio.gather(*cluster._tasks)
        assert table_id in other.rooms  # ...but on a thread, with the others asked meanwhile
        assert threading.get_ident() not in read_on
    finally:
        cluster._renewer.shutdown(wait=False)
        cluster._sweeper.shutdown(wait=False)
        await creator.close()
        await other.close()
