"""Group commit: one flush a spacing at most while other tables write, and every ack still
waits for a flush that began after its write (app.store.group_commit). A table alone is
flushed at once: its next write waits for its own ack, so waiting would gather nobody. The
clock and the wait are injected: nothing here waits for time to pass."""

from __future__ import annotations

import asyncio

from app.store.group_commit import GroupCommit


class Disk:
    """A flush that records which commits it covered (the count written when it ran)."""

    def __init__(self) -> None:
        self.flushes: list[int] = []
        self.group: GroupCommit | None = None

    def flush(self) -> None:
        assert self.group is not None
        self.flushes.append(self.group.written)


class Time:
    """A clock that moves only when the group commit waits."""

    def __init__(self) -> None:
        self.now = 100.0
        self.waits: list[float] = []
        self.gate: asyncio.Event | None = None

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(round(seconds, 6))
        if self.gate is not None:
            await self.gate.wait()
        self.now += seconds


def group(disk: Disk, time: Time, spacing_s: float = 0.01) -> GroupCommit:
    commits = GroupCommit(disk.flush, "test-sync", spacing_s, time.clock, time.sleep)
    disk.group = commits
    return commits


async def test_a_write_after_a_quiet_spell_is_flushed_at_once() -> None:
    disk, time = Disk(), Time()
    commits = group(disk, time)
    commits.wrote()
    await commits.durable()
    assert disk.flushes == [1]
    assert time.waits == []  # no flush before it: nothing to space from
    time.now += 5.0
    commits.wrote()
    await commits.durable()
    assert disk.flushes == [1, 2]
    assert time.waits == []
    commits.close()


async def test_writes_soon_after_a_flush_wait_for_the_spacing_and_share_one_flush() -> None:
    disk, time = Disk(), Time()
    commits = group(disk, time)
    commits.wrote("table-a")
    await commits.durable("table-a")
    time.now += 0.004  # 4 ms after that flush began, another table writes
    time.gate = asyncio.Event()
    commits.wrote("table-b")
    first = asyncio.create_task(commits.durable("table-b"))
    await asyncio.sleep(0)  # its flush now waits out the spacing
    commits.wrote("table-c")
    commits.wrote("table-d")
    second = asyncio.create_task(commits.durable("table-d"))
    await asyncio.sleep(0)
    assert not first.done() and not second.done()  # no ack before its flush
    time.gate.set()
    await asyncio.gather(first, second)
    assert time.waits == [0.006]  # the rest of the 10 ms spacing
    assert disk.flushes == [1, 4]  # one flush for the three writes
    assert commits.synced == 4
    assert commits.flushes == 2
    commits.close()


async def test_a_table_alone_is_flushed_at_once_however_soon_it_writes_again() -> None:
    disk, time = Disk(), Time()
    commits = group(disk, time)
    for _ in range(3):
        commits.wrote("table-a")
        await commits.durable("table-a")
        time.now += 0.002  # its next command, 2 ms after its ack
    assert time.waits == []  # nobody else could have shared a wait
    assert disk.flushes == [1, 2, 3]
    commits.close()


async def test_a_table_waits_only_while_another_wrote_within_the_spacing() -> None:
    disk, time = Disk(), Time()
    commits = group(disk, time)
    commits.wrote("table-a")
    await commits.durable("table-a")
    time.now += 0.004
    commits.wrote("table-b")  # 4 ms after table-a's write: it waits out the spacing
    await commits.durable("table-b")
    assert time.waits == [0.006] and round(time.now, 6) == 100.01
    time.now += 0.002  # table-b again, 12 ms after table-a last wrote: flushed at once
    commits.wrote("table-b")
    await commits.durable("table-b")
    assert time.waits == [0.006]
    assert disk.flushes == [1, 2, 3]
    commits.close()


async def test_a_write_during_a_flush_is_acked_only_after_a_later_flush() -> None:
    disk, time = Disk(), Time()
    release = asyncio.Event()
    loop = asyncio.get_running_loop()
    started = asyncio.Event()

    def slow_flush() -> None:
        disk.flush()
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result()

    commits = GroupCommit(slow_flush, "test-sync", 0.0, time.clock, time.sleep)
    disk.group = commits
    commits.wrote()
    first = asyncio.create_task(commits.durable())
    await started.wait()  # the first flush is on its way, covering one write
    commits.wrote()
    second = asyncio.create_task(commits.durable())
    await asyncio.sleep(0)
    started.clear()
    release.set()
    await first
    assert not second.done()  # its write came after the flush began
    await second
    assert disk.flushes == [1, 2]
    commits.close()


async def test_a_failed_flush_acks_nobody() -> None:
    time = Time()

    def broken() -> None:
        raise OSError("disk full")

    commits = GroupCommit(broken, "test-sync", 0.01, time.clock, time.sleep)
    commits.wrote()
    try:
        await commits.durable()
    except OSError as error:
        assert "disk full" in str(error)
    else:
        raise AssertionError("a write the disk refused was acked")
    assert commits.synced == 0
    commits.close()
