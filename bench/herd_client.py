"""A client process of the herd: its share of the hall's tables, their taps on the
parent's schedule, the drop of every phone at once and the returns."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import signal
import time
from dataclasses import dataclass
from typing import Any

import psutil  # type: ignore[import-untyped]
from websockets.exceptions import ConnectionClosed

from bench.harness.load import run_loop
from bench.harness.measure import cpu_over, sample_loop_lag
from bench.harness.report import Counts
from bench.harness.seats import dumps
from bench.herd_phone import Phone
from bench.herd_table import Table

HERD_TAIL_S = 2.0  # the herd's CPU window ends this long after the last phone's return
SETTLE_S = 20.0
SYNC_WAIT_S = 10.0
MAX_NOTES = 20


@dataclass(frozen=True)
class Schedule:
    """Monotonic times, shared by every client process."""

    first_at: float  # the first tap slot
    interval: float
    n_tables: int
    drop_at: float
    spread: float
    end_at: float  # no tap slot from here on


class Herd(Counts):
    """A client process's counts, its tables and what it measured."""

    def __init__(
        self,
        port: int,
        compression: str | None,
        ping_s: float,
        seed: int,
        drop_mode: str,
        gameless: bool = False,
    ) -> None:
        super().__init__(MAX_NOTES)
        self.port = port
        self.compression = compression
        self.ping_s = ping_s
        self.seed = seed
        self.drop_mode = drop_mode
        #: The server is the bare relay (the herd's floor): it keeps no game to tap on
        #: (`Table.tapper`) and no state to check the tables against.
        self.gameless = gameless
        self.tables: list[Table] = []
        self.resync_ms: list[float] = []
        self.open_ms: list[float] = []  # of each resync: until the socket opened
        self.ack_before_ms: list[float] = []
        self.ack_after_ms: list[float] = []
        self.lag_ms: list[float] = []  # over the herd only
        self.schedule: Schedule | None = None
        self.stopping = False

    @property
    def phones(self) -> list[Phone]:
        return [p for t in self.tables for p in t.phones.values()]

    async def set_up(self, table: Table, sem: asyncio.Semaphore) -> None:
        async with sem:
            for phone in table.phones.values():
                if not await phone.open():
                    table.broken = True
                    return
        for _ in range(200):
            if all(p.last_v >= 0 for p in table.phones.values()):
                break
            await asyncio.sleep(0.05)
        start = await table.send(table.phones["p1"], {"c": "start"}, time.perf_counter())
        for _ in range(200):
            if start.answered:
                return
            await asyncio.sleep(0.05)
        table.broken = True
        self.count("setup_failures", f"table {table.id}: the game did not start")

    async def drive(self, table: Table, s: Schedule, shift: float) -> None:
        perf = time.perf_counter
        due = s.first_at + shift + table.index * s.interval / s.n_tables
        for _ in range(int((s.end_at - s.first_at) / s.interval) + 2):
            if due >= s.end_at + shift or self.stopping:
                return
            await asyncio.sleep(max(0.0, due - perf()))
            due += s.interval
            if table.game is not None and table.game.get("phase") == "over":
                self.c["games_finished"] += 1
                return
            tap = table.tapper()
            if tap is None:
                self.c["slots_skipped"] += 1
                continue
            await table.send(tap[0], tap[1], perf())

    async def pinger(self) -> None:
        while not self.stopping:
            now = time.perf_counter()
            for phone in self.phones:
                await phone.ping(now)
            await asyncio.sleep(0.25)

    async def drop_all(self, s: Schedule, shift: float) -> None:
        """Every phone drops at drop_at and comes back within `spread`."""
        rng = random.Random(self.seed)
        await asyncio.sleep(max(0.0, s.drop_at + shift - time.perf_counter()))
        phones = [p for t in self.tables if not t.broken for p in t.phones.values()]
        for phone in phones:
            phone.drop(self.drop_mode)
        for phone in phones:
            at = s.drop_at + shift + rng.uniform(0.0, s.spread)
            self.spawn(phone.come_back(at, measured=True))

    async def settle_and_check(self) -> None:
        perf = time.perf_counter
        deadline = perf() + SETTLE_S
        live = [t for t in self.tables if not t.broken]
        while perf() < deadline and not all(t.settled() for t in live):
            await asyncio.sleep(0.1)
        if not self.gameless:
            await self.sync_and_check(live)
        for phone in self.phones:
            if phone.resync is not None and phone.resync.measured:
                self.count("resync_incomplete", f"table {phone.table.id}: {phone.side} not back")

    async def sync_and_check(self, live: list[Table]) -> None:
        """Each table's state, asked for once it settled, against what its phones saw."""
        perf = time.perf_counter
        for table in live:
            phone = table.phones["p1"]
            if phone.ws is not None:
                phone.sync_asked = True
                with contextlib.suppress(ConnectionClosed):
                    await phone.ws.send(dumps({"t": "sync"}))
        deadline = perf() + SYNC_WAIT_S
        while perf() < deadline and any(t.final_v is None for t in live):
            await asyncio.sleep(0.1)
        for table in live:
            table.check()


def client_main(*args: Any) -> None:
    """A client process: `client(idx, port, rows, cfg, ctrl_q, out_q)` on its own loop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    run_loop(client(*args))


async def client(
    idx: int,
    port: int,
    rows: list[tuple[int, str, str, str]],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    compression = None if cfg["compression"] == "none" else "deflate"
    seed = cfg["seed"] * 1000 + idx
    herd = Herd(port, compression, cfg["ping_s"], seed, cfg["drop"], cfg["gameless"])
    herd.tables = [Table(herd, i, tid, p1, p2) for i, tid, p1, p2 in rows]
    name = f"client-{idx}"
    loop = asyncio.get_running_loop()
    try:
        t = time.monotonic()
        sem = asyncio.Semaphore(cfg["connect_concurrency"])
        pinger = asyncio.create_task(herd.pinger())
        await asyncio.wait_for(
            asyncio.gather(*(herd.set_up(tb, sem) for tb in herd.tables)),
            timeout=60 + 0.2 * len(herd.tables),
        )
        live = sum(not tb.broken for tb in herd.tables)
        ready = {"tables": live, "seconds": time.monotonic() - t, "errors": herd.notes[:5]}
        out_q.put(("ready", name, ready))
        # What setup built is frozen, and the collector stays off until the run is over:
        # with it on, the reconnects set off this generator's own collections in the middle
        # of the herd, and every resync in flight counted them.
        gc.collect()
        gc.freeze()
        gc.disable()
        s: Schedule | None = await loop.run_in_executor(None, ctrl_q.get, True, 600)
        if s is None:
            return
        herd.schedule = s
        shift = time.perf_counter() - time.monotonic()
        herd_end = s.drop_at + s.spread + HERD_TAIL_S
        cpu = asyncio.create_task(cpu_over(psutil.Process(), s.drop_at, herd_end))
        lag_samples = int((herd_end - s.drop_at) / 0.05) + 1
        herd.spawn(sample_loop_lag(herd.lag_ms, 0.05, lag_samples, s.drop_at + shift))
        herd.spawn(herd.drop_all(s, shift))
        drives = [herd.drive(tb, s, shift) for tb in herd.tables if not tb.broken]
        bound = s.end_at - time.monotonic() + 30
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*drives), timeout=bound)
        await herd.settle_and_check()
        herd.stopping = True
        pinger.cancel()
        client_cpu = None
        with contextlib.suppress(TimeoutError):
            client_cpu = await asyncio.wait_for(cpu, timeout=5)
        out_q.put(("result", name, _result(herd, client_cpu)))
    finally:
        gc.enable()
        herd.stopping = True
        for phone in herd.phones:
            await phone.close()
        for task in list(herd.tasks):
            task.cancel()


def _result(herd: Herd, client_cpu: float | None) -> dict[str, Any]:
    return {
        "resync_ms": herd.resync_ms,
        "open_ms": herd.open_ms,
        "ack_before_ms": herd.ack_before_ms,
        "ack_after_ms": herd.ack_after_ms,
        "lag_ms": herd.lag_ms,
        "counters": dict(herd.c),
        "notes": herd.notes,
        "client_cpu_pct": client_cpu,
    }
