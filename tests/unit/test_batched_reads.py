"""Reads many sockets want at once go to the store together (app.tables.reads): the
keys asked for while a read is on its way make the next one, one key is read once
however many sockets wait for it, and a read that fails tells every one of them."""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.tables.reads import BatchedReads


class Store:
    """A store whose reads wait until the test lets them go."""

    def __init__(self) -> None:
        self.calls: list[dict[str, int]] = []
        self.gate = threading.Event()
        self.fail = False

    def read_many(self, asked: dict[str, int]) -> dict[str, str]:
        self.calls.append(dict(asked))
        self.gate.wait(5)
        if self.fail:
            raise RuntimeError("the database went away")
        return {key: f"{key}@{after}" for key, after in asked.items()}


async def test_keys_asked_while_a_read_is_on_its_way_are_read_together_in_the_next() -> None:
    store = Store()
    reads = BatchedReads(store.read_many)
    first = asyncio.create_task(reads.read("t1", 0))
    await asyncio.sleep(0.05)  # its read is on its way (a thread), waiting at the gate
    assert store.calls == [{"t1": 0}]
    crowd = [asyncio.create_task(reads.read(f"t{i}", i)) for i in range(2, 7)]
    again = asyncio.create_task(reads.read("t3", 99))  # a second socket of table t3
    await asyncio.sleep(0)
    store.gate.set()
    assert await first == "t1@0"
    assert await asyncio.gather(*crowd) == [f"t{i}@{i}" for i in range(2, 7)]
    assert await again == "t3@3"  # shares the first socket's read of t3
    assert store.calls == [{"t1": 0}, {f"t{i}": i for i in range(2, 7)}]
    assert reads.reads == 2


async def test_a_crowd_bigger_than_a_batch_takes_several_reads() -> None:
    store = Store()
    store.gate.set()
    reads = BatchedReads(store.read_many, batch=3)
    got = await asyncio.gather(*(reads.read(f"t{i}", i) for i in range(7)))
    assert got == [f"t{i}@{i}" for i in range(7)]
    assert [len(call) for call in store.calls] == [3, 3, 1]


async def test_a_read_that_fails_tells_every_socket_of_its_batch_and_the_next_read_works() -> None:
    store = Store()
    store.fail = True
    store.gate.set()
    reads = BatchedReads(store.read_many)
    results = await asyncio.gather(reads.read("t1", 0), reads.read("t2", 0), return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results)
    store.fail = False
    assert await reads.read("t1", 5) == "t1@5"  # nothing of the failed batch is kept


async def test_a_socket_that_leaves_while_its_table_is_read_leaves_the_others_theirs() -> None:
    store = Store()
    reads = BatchedReads(store.read_many)
    gone = asyncio.create_task(reads.read("t1", 0))
    stays = asyncio.create_task(reads.read("t1", 0))
    await asyncio.sleep(0.05)
    gone.cancel()
    store.gate.set()
    assert await stays == "t1@0"
    with pytest.raises(asyncio.CancelledError):
        await gone


async def test_closing_stops_reading_and_whoever_still_waits_hears_so() -> None:
    store = Store()
    reads = BatchedReads(store.read_many)
    first = asyncio.create_task(reads.read("t1", 0))
    await asyncio.sleep(0.05)  # on its way, at the gate
    queued = asyncio.create_task(reads.read("t2", 0))
    await asyncio.sleep(0)
    reads.close()
    store.gate.set()
    for waiting in (first, queued):
        with pytest.raises(asyncio.CancelledError):
            await waiting
    assert store.calls == [{"t1": 0}]  # t2 was never read


async def test_a_key_the_read_forgot_fails_its_own_socket_only() -> None:
    def read_many(asked: dict[str, int]) -> dict[str, str]:
        return {key: "found" for key in asked if key != "t2"}

    reads = BatchedReads(read_many)
    got = await asyncio.gather(
        reads.read("t1", 0), reads.read("t2", 0), reads.read("t3", 0), return_exceptions=True
    )
    assert got[0] == got[2] == "found"
    assert isinstance(got[1], LookupError)
