"""PostgreSQL: a batch's fenced log inserts travel as one statement (its rows as one JSON
parameter), and each write still learns whether its row went in: a writer whose token is
stale is fenced off, the others in its batch are not; a batch that fails is written again
write by write."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from app.store.lease import Leases
from app.store.log_entry import LogEntry
from app.store.repository import Fenced, Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime
from tests.integration.workers_support import pg_store


@pytest.fixture
def store() -> Iterator[Store]:
    with pg_store() as store:
        yield store


def start(device: str, version: int = 1) -> LogEntry:
    return LogEntry(version, 0, "p1", device, version, '{"c":"start"}')


async def test_fenced_inserts_of_a_batch_go_as_one_statement_and_a_stale_one_is_fenced(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = TableHub(store, FakeTime(), random.Random(1))
    rooms = [hub.create(QuickGame(clock_minutes=30)) for _ in range(3)]
    leases = Leases(store.engine, "me")
    leases.renew()
    tokens = [leases.claim_or_owner(room.table_id)[0] for room in rooms]
    assert tokens == [1, 1, 1]
    assert store._pg_log is not None
    await store._pg_log._connection()  # made before: its own settings are not counted
    statements: list[str] = []
    real_execute = psycopg.AsyncCursor.execute

    async def execute(cursor: Any, statement: str, *args: Any, **kwargs: Any) -> Any:
        statements.append(statement)
        return await real_execute(cursor, statement, *args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", execute)
    stale = 0  # the third table's token is 1: a writer holding 0 lost it
    done = await asyncio.gather(
        store.write(rooms[0].table_id, start("a"), None, None, fence=1),
        store.write(rooms[1].table_id, start("b"), None, None, fence=1),
        store.write(rooms[2].table_id, start("c"), None, None, fence=stale),
        return_exceptions=True,
    )
    assert done[0] is None and done[1] is None
    assert isinstance(done[2], Fenced)
    assert len(statements) == 1 and "json_to_recordset" in statements[0]  # one for three
    assert [e.device for e in store.log(rooms[0].table_id)] == ["a"]
    assert [e.device for e in store.log(rooms[1].table_id)] == ["b"]
    assert store.log(rooms[2].table_id) == []
    await hub.close()


async def test_a_batch_keeps_every_character_and_an_empty_turn_as_written(store: Store) -> None:
    """The rows travel as JSON: quotes, backslashes, new lines, accents and emoji in a
    command, and an empty turn, come out of the log as they went in."""
    hub = TableHub(store, FakeTime(), random.Random(1))
    rooms = [hub.create(QuickGame(clock_minutes=30)) for _ in range(2)]
    leases = Leases(store.engine, "me")
    leases.renew()
    for room in rooms:
        leases.claim_or_owner(room.table_id)[0]
    awkward = '{"c":"note","text":"Björn said \\"hi\\"\\n\\\\ 🎲 \\ud83c\\udfb2"}\n\t'
    entries = [
        LogEntry(1, 2**40, "p1", 'dev "x"\\', 2**53, awkward, ""),
        LogEntry(1, 7, "eo", "é", 1, '{"c":"start"}', "p2:1"),
    ]
    await asyncio.gather(
        *(
            store.write(room.table_id, entry, None, None, fence=1)
            for room, entry in zip(rooms, entries, strict=True)
        )
    )
    assert store.log(rooms[0].table_id) == [entries[0]]
    assert store.log(rooms[1].table_id) == [entries[1]]
    await hub.close()


async def test_a_batch_that_fails_is_written_again_write_by_write(store: Store) -> None:
    hub = TableHub(store, FakeTime(), random.Random(1))
    one, two = hub.create(QuickGame(clock_minutes=30)), hub.create(QuickGame(clock_minutes=30))
    leases = Leases(store.engine, "me")
    leases.renew()
    assert [leases.claim_or_owner(room.table_id)[0] for room in (one, two)] == [1, 1]
    await store.write(one.table_id, start("a"), None, None, fence=1)
    done = await asyncio.gather(
        store.write(one.table_id, start("again"), None, None, fence=1),  # version 1 taken
        store.write(one.table_id, start("a", 2), None, None, fence=1),
        store.write(two.table_id, start("b"), None, None, fence=1),
        return_exceptions=True,
    )
    assert isinstance(done[0], Exception) and not isinstance(done[0], Fenced)
    assert done[1] is None and done[2] is None
    assert [e.device for e in store.log(one.table_id)] == ["a", "a"]
    assert [e.device for e in store.log(two.table_id)] == ["b"]
    await hub.close()


async def test_a_busy_writer_waits_a_moment_for_company_and_a_quiet_one_never(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a batch held two writes or more, the next one waits GATHER_MS for the writes
    that come in meanwhile: one transaction for them all (PostgreSQL's cost is mostly per
    transaction). A lone write after a lone write goes at once."""
    from app.store import pg_log

    hub = TableHub(store, FakeTime(), random.Random(1))
    rooms = [hub.create(QuickGame(clock_minutes=30)) for _ in range(5)]
    writer = store._pg_log
    assert writer is not None
    batches: list[int] = []
    real_run = writer._run

    async def run(batch: list[Any]) -> None:
        batches.append(len(batch))
        await real_run(batch)

    naps: list[float] = []
    late: list[asyncio.Task[None]] = []

    async def nap(seconds: float) -> None:  # another table's tap comes in meanwhile
        naps.append(seconds)
        tap = store.write(rooms[4].table_id, start("e"), None, None)
        late.append(asyncio.ensure_future(tap))
        await asyncio.sleep(0)

    monkeypatch.setattr(writer, "_run", run)
    monkeypatch.setattr(writer, "_sleep", nap)
    try:
        await store.write(rooms[0].table_id, start("a"), None, None)
        assert batches == [1] and naps == []  # quiet: no wait
        await asyncio.gather(
            store.write(rooms[1].table_id, start("b"), None, None),
            store.write(rooms[2].table_id, start("c"), None, None),
        )
        assert batches == [1, 2] and naps == []  # the batch before held one write
        await store.write(rooms[3].table_id, start("d"), None, None)
        await late[0]
        assert naps == [pg_log.GATHER_MS / 1000] and pg_log.BUSY == 2
        assert batches == [1, 2, 2]  # the tap that came in during the wait went along
        for room in rooms:
            assert [e.version for e in store.log(room.table_id)] == [1]
    finally:
        await hub.close()
