"""The table log, a page at a time, served from rows already built.

Each page used to be read from the store on the event loop: 5 ms for a page of 200
(the ORM's objects, then each row's JSON), so 16 screens asking for pages held a
worker's loop for seconds and every table on it waited. Here the log is read in fixed
stretches of versions (`CHUNK`), on a thread of its own, once: each row is kept as its
JSON text, and a page is those texts joined, whichever version it starts after. The
stretch at the log's end is read on from where it stopped, once the table has moved
on. What is kept is bounded (`CACHE_BYTES`; the stretches read least recently go first).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from app.store.log_entry import LogEntry
from app.tables.jsontext import dumps, loads
from app.tables.offline import public_wire

LOG_PAGE = 200  # entries a page at most
LOG_PAGE_BYTES = 256 * 1024  # and about this much text (merges carry their commands)
#: Versions read from the store at once: rows (k * CHUNK, (k + 1) * CHUNK].
CHUNK = LOG_PAGE
CACHE_BYTES = 16 * 1024 * 1024
ROW_OVERHEAD = 64  # what a kept row costs beyond its text, about

#: Reads the store: (table id, after version, at most) -> the entries, oldest first.
Reader = Callable[[str, int, int], list[LogEntry]]


def log_row(entry: LogEntry) -> dict[str, Any]:
    return {
        "v": entry.version,
        "at_ms": entry.at_ms,
        "by": entry.actor,
        "turn": entry.turn,
        **public_wire(loads(entry.command_json)),
    }


def log_message(page: str) -> str:
    """A page (`LogPages.page`) as the socket's `log` message."""
    return '{"t":"log",' + page[1:]


@dataclass(slots=True)
class _Chunk:
    texts: list[str] = field(default_factory=list)  # versions k * CHUNK + 1 on, in order
    sizes: list[int] = field(default_factory=list)  # each command's size (LOG_PAGE_BYTES)
    bytes: int = 0


Built = list[tuple[str, int]]


class LogPages:
    """`page(table, version, after)`: `{"entries": [...], "next": n | None, "version": v}`
    as JSON text; `next` is where the following page starts (None: done)."""

    def __init__(self, read: Reader, cache_bytes: int = CACHE_BYTES) -> None:
        self._read = read
        self.cache_bytes = cache_bytes
        self._chunks: OrderedDict[tuple[str, int], _Chunk] = OrderedDict()
        self._pending: dict[tuple[str, int], asyncio.Future[None]] = {}
        self._thread: ThreadPoolExecutor | None = None
        self.bytes = 0
        #: Reads from the store so far.
        self.reads = 0

    def cached(self, table_id: str, version: int, after: int, limit: int = LOG_PAGE) -> str | None:
        """The page, if every row it needs is built (no store, no wait); None if not."""
        found = self._assemble(table_id, version, version, max(0, after), _clamp(limit))
        return found if isinstance(found, str) else None

    async def page(self, table_id: str, version: int, after: int, limit: int = LOG_PAGE) -> str:
        """The page, reading the stretches it needs first (off the loop)."""
        after, limit = max(0, after), _clamp(limit)
        end = version
        while True:  # each turn builds more rows or, the store behind, ends the log sooner
            found = self._assemble(table_id, version, end, after, limit)
            if isinstance(found, str):
                return found
            k = found // CHUNK
            await self._fill(table_id, k)
            chunk = self._chunks.get((table_id, k))
            if chunk is None or k * CHUNK + len(chunk.texts) <= found:
                end = found  # the store has no more yet (another worker writes it)

    def close(self) -> None:
        for pending in self._pending.values():
            pending.cancel()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None

    def _assemble(self, table_id: str, version: int, end: int, after: int, limit: int) -> str | int:
        """The page with the log ending at version `end`, or the version after which the
        next row it needs is not built."""
        texts: list[str] = []
        size = 0
        at = after
        more = False
        chunks = self._chunks
        while at < end:
            if len(texts) == limit:
                more = True
                break
            k, i = divmod(at, CHUNK)
            chunk = chunks.get((table_id, k))
            if chunk is None or i >= len(chunk.texts):
                return at
            if i == 0 or not texts:
                chunks.move_to_end((table_id, k))
            if texts and size + chunk.sizes[i] > LOG_PAGE_BYTES:
                more = True
                break
            texts.append(chunk.texts[i])
            size += chunk.sizes[i]
            at += 1
        following = str(at) if more else "null"
        return f'{{"entries":[{",".join(texts)}],"next":{following},"version":{version}}}'

    async def _fill(self, table_id: str, k: int) -> None:
        """Read stretch `k` on from where it stops; several asking wait for one read."""
        key = (table_id, k)
        pending = self._pending.get(key)
        if pending is None:
            pending = self._pending[key] = asyncio.ensure_future(self._read_chunk(table_id, k))
            pending.add_done_callback(lambda _done: self._pending.pop(key, None))
        await asyncio.shield(pending)

    async def _read_chunk(self, table_id: str, k: int) -> None:
        key = (table_id, k)
        chunk = self._chunks.get(key)
        have = 0 if chunk is None else len(chunk.texts)
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="log-pages")
        self.reads += 1
        loop = asyncio.get_running_loop()
        start = k * CHUNK + have
        built = await loop.run_in_executor(self._thread, self._build, table_id, start, CHUNK - have)
        chunk = self._chunks.get(key)
        if chunk is None:
            if have:  # let go of meanwhile: the next page's read starts it again
                return
            chunk = self._chunks[key] = _Chunk()
        if len(chunk.texts) != have:
            return
        for text, size in built:
            chunk.texts.append(text)
            chunk.sizes.append(size)
        added = sum(len(text) + ROW_OVERHEAD for text, _ in built)
        chunk.bytes += added
        self.bytes += added
        self._chunks.move_to_end(key)
        self._let_go()

    def _build(self, table_id: str, after: int, limit: int) -> Built:
        """On the reading thread: the rows after `after`, each as its JSON text, while
        their versions follow on."""
        built: Built = []
        for entry in self._read(table_id, after, limit):
            if entry.version != after + len(built) + 1:
                break
            built.append((dumps(log_row(entry)), len(entry.command_json)))
        return built

    def _let_go(self) -> None:
        """Past the bound, the stretches read least recently go; not one being read, nor
        the last two (a page may span two)."""
        for stretch in tuple(self._chunks):
            if self.bytes <= self.cache_bytes or len(self._chunks) <= 2:
                return
            if stretch not in self._pending:
                self.bytes -= self._chunks.pop(stretch).bytes


def _clamp(limit: int) -> int:
    return max(1, min(limit, LOG_PAGE))
