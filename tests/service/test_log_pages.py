"""The log's pages are served from rows already built: each stretch of the log is read
from the store once, off the loop, and what is kept is bounded."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest

from app.store.log_entry import LogEntry
from app.tables.jsontext import dumps
from app.tables.log_page import CHUNK, LOG_PAGE, LOG_PAGE_BYTES, LogPages, log_message, log_row


class FakeLog:
    """A table's log in the store, counting the reads and where they ran."""

    def __init__(self, entries: int = 0, command: dict[str, Any] | None = None) -> None:
        self.entries: list[LogEntry] = []
        self.reads: list[tuple[int, int]] = []
        self.threads: set[int] = set()
        self.command = command or {"c": "pass_turn", "expect": "p1"}
        for _ in range(entries):
            self.append()

    def append(self) -> None:
        v = len(self.entries) + 1
        self.entries.append(LogEntry(v, 1000 * v, "p1", "phone-1", v, dumps(self.command)))

    def read(self, table_id: str, after: int, limit: int) -> list[LogEntry]:
        assert table_id == "t1"
        self.reads.append((after, limit))
        self.threads.add(threading.get_ident())
        return self.entries[after : after + limit]


def expected(log: FakeLog, after: int, limit: int = LOG_PAGE) -> dict[str, Any]:
    """The page as the store would give it, read whole."""
    rows: list[dict[str, Any]] = []
    size = 0
    entries = log.entries[after:]
    for entry in entries[:limit]:
        if rows and size + len(entry.command_json) > LOG_PAGE_BYTES:
            break
        rows.append(log_row(entry))
        size += len(entry.command_json)
    more = len(rows) < len(entries)
    return {"entries": rows, "next": rows[-1]["v"] if more else None, "version": len(log.entries)}


async def page(pages: LogPages, log: FakeLog, after: int, limit: int = LOG_PAGE) -> Any:
    return json.loads(await pages.page("t1", len(log.entries), after, limit))


async def test_every_page_is_the_logs_own_whatever_version_it_starts_after() -> None:
    log = FakeLog(3 * CHUNK + 57)
    pages = LogPages(log.read)
    rng = random.Random(7)
    starts = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 56, 3 * CHUNK + 57, 10**6]
    for after in starts + [rng.randrange(0, 3 * CHUNK + 60) for _ in range(40)]:
        for limit in (LOG_PAGE, 1, 37):
            assert await page(pages, log, after, limit) == expected(log, after, limit), after
    pages.close()


async def test_a_stretch_is_read_once_on_a_thread_of_its_own() -> None:
    log = FakeLog(2 * CHUNK + 10)
    pages = LogPages(log.read)
    assert pages.cached("t1", len(log.entries), 0) is None  # nothing built yet
    await page(pages, log, 150)  # spans the first two stretches
    assert log.reads == [(0, CHUNK), (CHUNK, CHUNK)]
    assert threading.get_ident() not in log.threads
    for after in (0, 99, 150, CHUNK):
        text = pages.cached("t1", len(log.entries), after)
        assert text is not None and json.loads(text) == expected(log, after)
    assert len(log.reads) == 2
    assert json.loads(log_message(text)) == {"t": "log", **expected(log, CHUNK)}
    pages.close()


async def test_the_logs_end_is_read_on_from_where_it_stopped() -> None:
    log = FakeLog(30)
    pages = LogPages(log.read)
    assert await page(pages, log, 0) == expected(log, 0)
    for _ in range(5):
        log.append()
    # The table moved on: the rows built do not end the page any more.
    assert pages.cached("t1", len(log.entries), 10) is None
    assert await page(pages, log, 10) == expected(log, 10)
    assert log.reads == [(0, CHUNK), (30, CHUNK - 30)]
    pages.close()


async def test_a_store_behind_the_tables_version_ends_the_page_where_it_stops() -> None:
    """Another worker owns the table: its newest entry may reach this worker's screens
    before the store has it. The page ends where the store does, and is read on later."""
    log = FakeLog(12)
    pages = LogPages(log.read)
    ahead = json.loads(await pages.page("t1", 13, 0))
    assert [e["v"] for e in ahead["entries"]] == list(range(1, 13))
    assert ahead["next"] is None and ahead["version"] == 13
    log.append()
    again = json.loads(await pages.page("t1", 13, 0))
    assert [e["v"] for e in again["entries"]] == list(range(1, 14))
    pages.close()


async def test_a_page_holds_about_256_kb_of_commands() -> None:
    log = FakeLog(30, command={"c": "merge", "entries": [], "pad": "x" * 20_000})
    pages = LogPages(log.read)
    first = await page(pages, log, 0)
    assert first == expected(log, 0) and first["next"] == len(first["entries"]) < 30
    assert await page(pages, log, first["next"]) == expected(log, first["next"])
    pages.close()


async def test_what_is_kept_is_bounded_and_read_again_when_asked() -> None:
    log = FakeLog(10 * CHUNK)
    pages = LogPages(log.read, cache_bytes=3 * CHUNK * 150)
    for k in range(10):
        await page(pages, log, k * CHUNK)
    assert pages.bytes <= pages.cache_bytes + 2 * CHUNK * 150
    assert pages.cached("t1", len(log.entries), 9 * CHUNK + 5) is not None
    assert pages.cached("t1", len(log.entries), 0) is None  # let go of: read again
    assert await page(pages, log, 0) == expected(log, 0)
    pages.close()


@pytest.mark.parametrize("readers", [2, 8])
async def test_screens_asking_for_one_stretch_at_once_share_its_read(readers: int) -> None:
    import asyncio

    log = FakeLog(CHUNK)
    pages = LogPages(log.read)
    answers = await asyncio.gather(*(page(pages, log, n) for n in range(readers)))
    assert answers == [expected(log, n) for n in range(readers)]
    assert log.reads == [(0, CHUNK)]
    pages.close()
