"""What a run measures: percentiles, CPU of the server, the load generator and the rest
of the machine, memory, and the measured window as the parent process sees it."""

from __future__ import annotations

import argparse
import asyncio
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psutil  # type: ignore[import-untyped]

from bench.harness.report import log
from bench.harness.servers import ServerProcess

if TYPE_CHECKING:
    from bench.harness.load import Workers


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def ratio(ours: float | None, floor: float | None) -> float | None:
    """`ours` as a multiple of the floor measured in the same run."""
    return None if ours is None or not floor else rounded(ours / floor)


def cpu_fields(result: dict[str, Any]) -> dict[str, Any]:
    """A measured window's CPU and memory, as the latency benchmarks report them."""
    return {
        "server_cpu_pct": rounded(result["server_cpu_pct"], 1),
        "server_cpu_ms_per_tap": rounded(result["server_cpu_ms_per_tap"]),
        "server_rss_mb": rounded(result["server_rss_mb"], 1),
        "server_rss_max_mb": rounded(result["server_rss_max_mb"], 1),
        "client_cpu_pct": rounded(result["client_cpu_pct"], 1),
        "other_cpu_pct": rounded(result["other_cpu_pct"], 1),
        "steal_cpu_pct": rounded(result["steal_cpu_pct"], 1),
    }


def steal_seconds() -> float:
    """CPU seconds the hypervisor gave to others while this machine wanted them (all cores)."""
    return float(getattr(psutil.cpu_times(), "steal", 0.0))


def machine_busy_seconds() -> float:
    """CPU seconds spent by every process on the machine (all cores), idle excluded."""
    t = psutil.cpu_times()
    return float(t.user + t.nice + t.system + getattr(t, "irq", 0.0) + getattr(t, "softirq", 0.0))


def wait_for_quiet(max_wait: float, busy_cores: float = 0.25) -> float:
    """Wait (at most max_wait s) until the machine's other processes use < busy_cores."""
    deadline = time.monotonic() + max_wait
    other = 0.0
    while True:
        t0, c0 = time.monotonic(), machine_busy_seconds()
        time.sleep(1.0)
        other = (machine_busy_seconds() - c0) / (time.monotonic() - t0)
        if other < busy_cores or time.monotonic() >= deadline:
            return other * 100
        log(f"other processes use {other * 100:.0f}% of a core; waiting for a quieter machine")


def cpu_seconds(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return float(t.user + t.system)


async def cpu_over(proc: psutil.Process, start: float, end: float) -> float | None:
    """A process's CPU (% of one core) between two monotonic times."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    t0, c0 = time.monotonic(), cpu_seconds(proc)
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    t1, c1 = time.monotonic(), cpu_seconds(proc)
    return (c1 - c0) / (t1 - t0) * 100 if t1 > t0 else None


class Window:
    """The measured window as the parent sees it: CPU samples at its edges, the server's
    RSS every second, progress every 5 s, until every worker sent its result."""

    def __init__(
        self,
        label: str,
        server: ServerProcess,
        first_at: float,
        measure_from: float,
        end_at: float,
        sample: Callable[[], tuple[float, ...]],
    ) -> None:
        self.label = label
        self.server = server
        self.first_at, self.measure_from, self.end_at = first_at, measure_from, end_at
        self.sample = sample  # (monotonic, server CPU s, machine busy s, ...)
        self.cpu0: tuple[float, ...] | None = None
        self.cpu1: tuple[float, ...] | None = None
        self.rss_max = 0.0
        self.rss_end = 0.0
        self.progress: dict[str, dict[str, int]] = {}
        self.results: dict[str, dict[str, Any]] = {}

    @classmethod
    def begin(
        cls,
        label: str,
        server: ServerProcess,
        workers: Workers,
        args: argparse.Namespace,
        n_tables: int,
        sample: Callable[[], tuple[float, ...]],
    ) -> Window:
        """Wait for a quiet machine if asked (--quiet-wait), then send every worker the
        schedule: taps from a second on, --warmup s unmeasured, --seconds s measured."""
        if args.quiet_wait > 0:
            other = wait_for_quiet(args.quiet_wait)
            log(f"{label}other processes use {other:.0f}% of a core before tapping")
        first_at = time.monotonic() + 1.0
        measure_from = first_at + args.warmup
        end_at = measure_from + args.seconds
        workers.schedule(first_at, args.interval, measure_from, end_at, n_tables)
        log(
            f"{label}tapping every {args.interval:g} s per table; "
            f"{args.warmup:g} s warm-up, then {args.seconds:g} s measured"
        )
        return cls(label, server, first_at, measure_from, end_at, sample)

    def run(self, workers: Workers, grace_s: float, extra: Callable[[float], str]) -> None:
        """Collect every worker's result; `extra(now)` adds to each progress line."""
        next_print = self.first_at + 5.0
        next_rss = time.monotonic()
        hard_deadline = self.end_at + grace_s
        server = self.server
        while len(self.results) < len(workers.procs):
            now = time.monotonic()
            if now > hard_deadline:
                raise RuntimeError("the clients did not report in time")
            if self.cpu0 is None and now >= self.measure_from:
                self.cpu0 = self.sample()
            if self.cpu1 is None and now >= self.end_at:
                self.cpu1 = self.sample()
            if now >= next_rss:
                self.rss_max = max(self.rss_max, server.rss_mb())
                next_rss = now + 1.0
            if now >= next_print:
                self._progress_line(now, extra)
                next_print += 5.0
            wait = min(0.05, max(0.0, min(next_print, next_rss) - now))
            msg = workers.get(wait if self.cpu1 is None else 0.2)
            if msg is None:
                continue
            kind, who, payload = msg
            if kind == "progress":
                self.progress[who] = payload
            elif kind == "result":
                self.results[who] = payload
        if self.cpu1 is None:
            self.cpu1 = self.sample()
        self.rss_end = server.rss_mb()
        self.rss_max = max(self.rss_max, self.rss_end)

    def _progress_line(self, now: float, extra: Callable[[float], str]) -> None:
        server = self.server
        c = {
            k: sum(p.get(k, 0) for p in self.progress.values())
            for k in ("taps_total", "completed", "lost", "duplicated", "rejected")
        }
        cpu_now = ""
        if self.cpu0 is not None and now > self.cpu0[0]:
            pct = (server.cpu_seconds() - self.cpu0[1]) / (now - self.cpu0[0]) * 100
            cpu_now = f", server cpu {pct:.0f}%"
        phase = "warm-up" if now < self.measure_from else "measuring"
        if now >= self.end_at:
            phase = "draining"
        log(
            f"{self.label}{phase} t+{now - self.first_at:.0f}s taps {c['taps_total']} "
            f"done {c['completed']} lost {c['lost']} dup {c['duplicated']} "
            f"rejected {c['rejected']}{cpu_now}{extra(now)}, "
            f"rss {server.rss_mb():.0f} MB"
        )

    @property
    def edges(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        assert self.cpu0 is not None and self.cpu1 is not None
        return self.cpu0, self.cpu1


def cpu_sample(server: Any) -> tuple[float, float, float, float]:
    """(monotonic, the server's CPU s, the machine's busy CPU s, stolen CPU s); `server`
    is a ServerProcess or a Cluster."""
    return time.monotonic(), server.cpu_seconds(), machine_busy_seconds(), steal_seconds()


def cpu_pcts(
    cpu0: tuple[float, ...], cpu1: tuple[float, ...], client_cpu: float
) -> dict[str, float | None]:
    """Between two `cpu_sample`s: the server's, the load generator's (`client_cpu`, % of a
    core), every other process's and the stolen CPU, in % of one core."""
    wall = max(cpu1[0] - cpu0[0], 1e-9)
    server_cpu = (cpu1[1] - cpu0[1]) / wall * 100
    other = (cpu1[2] - cpu0[2]) / wall * 100 - server_cpu - client_cpu
    return {
        "server_cpu_pct": rounded(server_cpu, 1),
        "client_cpu_pct": rounded(client_cpu, 1),
        "other_cpu_pct": rounded(max(0.0, other), 1),
        "steal_cpu_pct": rounded((cpu1[3] - cpu0[3]) / wall * 100, 1),
    }


async def sample_loop_lag(into: list[float], period: float, count: int, start: float = 0) -> None:
    """How late this process's event loop wakes up (ms), `count` times every `period` s
    from `start` (perf_counter): what it adds to every latency it measures."""
    perf = time.perf_counter
    await asyncio.sleep(max(0.0, start - perf()))
    for _ in range(count):
        t = perf()
        await asyncio.sleep(period)
        into.append(max(0.0, (perf() - t - period) * 1000))
