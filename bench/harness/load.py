"""The load generator: phone worker processes that open their share of the tables and tap
on the parent's schedule, and the parent's side of them."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing as mp
import queue
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psutil  # type: ignore[import-untyped]

from bench.harness.measure import cpu_over
from bench.harness.report import log
from bench.harness.sockets import TAP_TIMEOUT_S, Stats, Table, Tap


def run_loop(coro: Any) -> Any:
    """Run a coroutine on uvloop when installed (as the server does); its result."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    else:
        return uvloop.run(coro)


#: Called for each measured tap: (table, tap, its send time on the monotonic clock, ack
#: latency ms, peer latency ms).
Measured = Callable[[Table, Tap, float, float, float], None]


async def tap_table(
    table: Table,
    shift: float,
    first_at: float,
    interval: float,
    measure_from: float,
    end_at: float,
    measured: Measured,
) -> None:
    """Tap every `interval` s (perf_counter times) until `end_at`: the phone whose clock
    runs sends `pass_turn` with the turn-end answers due; taps from `measure_from` count."""
    st = table.stats
    perf = time.perf_counter
    due = first_at
    for _ in range(int((end_at - first_at) / interval) + 2):  # bounded: one tap per slot
        if due >= end_at or table.stopped:
            return
        delay = due - perf()
        if delay > 0:
            await asyncio.sleep(delay)
        nxt = table.next_tap()
        if nxt is None:
            st.games_finished += 1
            table.stopped = True
            return
        side, extra = nxt
        counted = due >= measure_from
        tap = await table.send(table.phones[side], {"c": "pass_turn", "expect": side, **extra})
        st.taps_total += 1
        if counted:
            st.taps += 1
            st.send_lag_ms.append((tap.t0 - due) * 1000)
        if not await table.finish(tap, TAP_TIMEOUT_S):
            st.tables_stopped += 1
            return
        assert tap.ack_t is not None and tap.peer_t is not None
        st.completed += 1
        if counted:
            ack_ms = (tap.ack_t - tap.t0) * 1000
            peer_ms = (tap.peer_t - tap.t0) * 1000
            st.ack_ms.append(ack_ms)
            st.peer_ms.append(peer_ms)
            measured(table, tap, tap.t0 - shift, ack_ms, peer_ms)
        table.local_running = "p2" if side == "p1" else "p1"
        due += interval


async def phone_worker(
    name: str,
    tables: list[Table],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
    prepare: Callable[[Table], Awaitable[None]],
    measured: Measured,
    result: Callable[[], dict[str, Any]],
) -> None:
    """One worker's life: `prepare` every table (at most cfg["connect_concurrency"] at a
    time), say "ready", wait for the parent's schedule, tap it, send the "result" (the
    common figures and `result()`'s), and close every socket. Progress goes to `out_q`
    every second."""
    stats = tables[0].stats if tables else Stats()
    me = psutil.Process()
    loop = asyncio.get_running_loop()
    try:
        t = time.monotonic()
        sem = asyncio.Semaphore(cfg["connect_concurrency"])

        async def prepare_one(table: Table) -> None:
            async with sem:
                await prepare(table)

        opening = asyncio.gather(*(prepare_one(tb) for tb in tables))
        await asyncio.wait_for(opening, timeout=60 + 0.2 * len(tables))
        ready = {
            "tables": sum(not tb.stopped for tb in tables),
            "seconds": time.monotonic() - t,
            "counters": stats.counters(),
            "errors": stats.errors,
        }
        out_q.put(("ready", name, ready))
        # The load generator's own collector must not pause it in the middle of the
        # measured window (its young collections take tens of ms on a slow machine, and
        # every tap in flight would count them): what setup built is frozen, and the
        # collector stays off until the run is over (a minute of garbage at most).
        gc.collect()
        gc.freeze()
        gc.disable()
        schedule = await loop.run_in_executor(
            None, ctrl_q.get, True, cfg.get("schedule_wait_s", 600)
        )
        if schedule is None:
            return
        first_mono, interval, measure_mono, end_mono, n_total = schedule
        shift = time.perf_counter() - time.monotonic()
        first_at, measure_from, end_at = first_mono + shift, measure_mono + shift, end_mono + shift

        async def report_progress() -> None:
            for _ in range(int(end_mono - time.monotonic() + TAP_TIMEOUT_S + 120)):
                await asyncio.sleep(1.0)
                out_q.put(("progress", name, stats.counters()))

        reporter = asyncio.create_task(report_progress())
        cpu = asyncio.create_task(cpu_over(me, measure_mono, end_mono))
        runs = [
            tap_table(
                tb,
                shift,
                first_at + tb.index * interval / n_total,
                interval,
                measure_from,
                end_at,
                measured,
            )
            for tb in tables
            if not tb.stopped
        ]
        bound = end_at - time.perf_counter() + TAP_TIMEOUT_S + 30
        try:
            await asyncio.wait_for(asyncio.gather(*runs), timeout=bound)
        except TimeoutError:
            stats.note("the tap schedule did not finish in time")
        client_cpu = None
        with contextlib.suppress(TimeoutError):
            client_cpu = await asyncio.wait_for(cpu, timeout=5)
        reporter.cancel()
        out = {
            "ack_ms": stats.ack_ms,
            "peer_ms": stats.peer_ms,
            "send_lag_ms": stats.send_lag_ms,
            "counters": stats.counters(),
            "errors": stats.errors,
            "client_cpu_pct": client_cpu,
        }
        out_q.put(("result", name, {**out, **result()}))
    finally:
        gc.enable()
        for tb in tables:
            tb.stopped = True
        closes = [ph.ws.close() for tb in tables for ph in tb.phones.values() if ph.ws is not None]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*closes, return_exceptions=True), timeout=15)
        for tb in tables:
            for ph in tb.phones.values():
                if ph.reader is not None:
                    ph.reader.cancel()


Message = tuple[str, str, dict[str, Any]]


class Workers:
    """Spawned worker processes, each with its own control queue and one output queue
    for all: workers say ("ready" | "progress" | "result", name, payload)."""

    def __init__(self) -> None:
        self.ctx = mp.get_context("spawn")
        self.out_q: Any = self.ctx.Queue()
        self.procs: list[Any] = []
        self.ctrl_qs: list[Any] = []

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, exc_type: Any, *_exc: Any) -> None:
        self.stop(clean=exc_type is None)

    def start(self, target: Callable[..., None], args: tuple[Any, ...], name: str) -> None:
        """Start `target(*args, ctrl_q, out_q)` in a new process."""
        ctrl_q = self.ctx.Queue()
        proc = self.ctx.Process(
            target=target, args=(*args, ctrl_q, self.out_q), name=name, daemon=True
        )
        proc.start()
        self.procs.append(proc)
        self.ctrl_qs.append(ctrl_q)

    def start_phones(
        self,
        target: Callable[..., None],
        port: int,
        rows: list[tuple[str, str, str]],
        cfg: dict[str, Any],
        clients: int,
        name: str,
    ) -> int:
        """Share the tables out between `clients` phone processes; returns how many."""
        n = max(1, min(clients, len(rows)))
        for k in range(n):
            share = [(i, *rows[i]) for i in range(k, len(rows), n)]
            self.start(target, (k, port, share, cfg), f"{name}-{k}")
        return n

    def get(self, timeout: float) -> Message | None:
        try:
            msg: Message = self.out_q.get(timeout=timeout)
            return msg
        except queue.Empty:
            for proc in self.procs:
                if proc.exitcode not in (None, 0):
                    raise RuntimeError(f"{proc.name} died with exit code {proc.exitcode}") from None
            return None

    def wait_ready(self, within_s: float) -> dict[str, dict[str, Any]]:
        ready: dict[str, dict[str, Any]] = {}
        deadline = time.monotonic() + within_s
        while len(ready) < len(self.procs):
            if time.monotonic() > deadline:
                raise RuntimeError("the clients did not open their sockets in time")
            msg = self.get(0.5)
            if msg is not None and msg[0] == "ready":
                ready[msg[1]] = msg[2]
        for r in ready.values():
            for e in r["errors"]:
                log(e)
        return ready

    def schedule(self, *schedule: float) -> None:
        for q in self.ctrl_qs:
            q.put(schedule)

    def stop(self, clean: bool) -> None:
        """After a clean run the workers are closing their sockets; after an error or
        Ctrl-C they are stopped at once."""
        for q in self.ctrl_qs:
            with contextlib.suppress(Exception):
                q.put(None)
        for proc in self.procs:
            proc.join(timeout=20 if clean else 0.5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
