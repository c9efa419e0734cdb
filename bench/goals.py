"""Every performance goal of the hall, measured in one command: goal vs measured.

    python -m bench.goals             # small sizes: a few minutes on a laptop
    python -m bench.goals --full      # the goals' own sizes (1,000 to 5,000 tables)
    python -m bench.goals --only cpu --only restart

Runs each goal's benchmark in turn (`python -m bench.<name> ...`, one at a time, so they
do not share the cores), reads its JSON line, and prints a table on stderr: each goal,
what it asks, what was measured (as a ratio to the floor measured in the same run, where
the goal is one), the floor itself, the benchmark's `machine_ref_ms` and the machine's
load average while it ran. A goal whose benchmark cannot run here (several workers need
DEATHCLOCK_TEST_POSTGRES_URL and DEATHCLOCK_TEST_REDIS_URL) says why in its row.

One JSON line on stdout: every row, and `all_goals_met`. Each benchmark's own line is
kept whole under `lines`, so a run can be read back in full.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.harness.report import log
from bench.harness.servers import ROOT

#: The EO dashboard's batch (app.events.dashboard.INTERVAL_S): an update may wait for it.
DASHBOARD_BATCH_MS = 250.0
CLUSTER_ENV = ("DEATHCLOCK_TEST_POSTGRES_URL", "DEATHCLOCK_TEST_REDIS_URL")


@dataclass(frozen=True)
class Check:
    """One figure of a goal: `measured(line)` against `most` (None: not measured)."""

    what: str
    measured: Callable[[dict[str, Any]], float | None]
    most: float
    floor: Callable[[dict[str, Any]], Any] = lambda _line: None


@dataclass(frozen=True)
class Goal:
    name: str
    title: str
    module: str
    small: tuple[str, ...]
    full: tuple[str, ...]
    checks: tuple[Check, ...]
    needs: tuple[str, ...] = ()  # environment variables the benchmark needs


def field(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda line: line.get(name)


def ratio_to(ours: str, floor: str) -> Callable[[dict[str, Any]], float | None]:
    def measured(line: dict[str, Any]) -> float | None:
        a, b = line.get(ours), line.get(floor)
        return None if a is None or not b else round(a / b, 3)

    return measured


def dashboard_over_batch(line: dict[str, Any]) -> float | None:
    p99 = line.get("dashboard_update_p99_ms")
    return None if p99 is None else round(p99 - DASHBOARD_BATCH_MS, 1)


def resync_p99_s(line: dict[str, Any]) -> float | None:
    return ms_to_s(line.get("resync_p99_ms"))


def relay_resync_p99_s(line: dict[str, Any]) -> float | None:
    """The herd's floor: the bare relay's resync p99 under the same herd (bench.herd)."""
    return ms_to_s(line.get("bare_resync_p99_ms"))


LATENCY = ("--seconds", "20")
HALL = ("--interval", "30", "--warmup", "30", "--seconds", "60")
GOALS = (
    Goal(
        "cpu",
        "1,000 tables, one worker: CPU a tap and peer latency vs the bare relay",
        "table_latency",
        ("--tables", "200", *LATENCY),
        ("--tables", "1000", "--seconds", "30"),
        (
            Check(
                "server CPU a tap, x relay",
                field("server_cpu_ms_per_tap_x_bare"),
                1.5,
                field("bare_server_cpu_ms_per_tap"),
            ),
            Check("peer p50, x relay", field("peer_p50_ms_x_bare"), 1.5, field("bare_peer_p50_ms")),
            Check("peer p99, x relay", field("peer_p99_ms_x_bare"), 2.0, field("bare_peer_p99_ms")),
        ),
    ),
    Goal(
        "load",
        "3,000 tables, one worker, two client processes: ack p99 and peer p99",
        "table_latency",
        ("--tables", "600", "--clients", "2", *LATENCY),
        ("--tables", "3000", "--clients", "2", "--seconds", "30"),
        (
            Check("ack p99 ms", field("ack_p99_ms"), 100.0, field("bare_ack_p99_ms")),
            Check("peer p99, x relay", field("peer_p99_ms_x_bare"), 3.0, field("bare_peer_p99_ms")),
        ),
    ),
    Goal(
        "restart",
        "restart, one worker: answers vs a bare FastAPI app; every table served after",
        "restart",
        ("--tables", "200", "--warmup", "5", "--after", "5"),
        ("--tables", "1000"),
        (
            Check(
                "answers, x bare app",
                field("server_answers_x_bare"),
                1.5,
                field("bare_answers_s"),
            ),
            Check(
                "answers, CPU used until then, x bare app",
                field("server_start_cpu_x_bare"),
                1.5,
                field("bare_start_cpu_s"),
            ),
            Check(
                "every table served, s after answering",
                field("served_after_answers_s"),
                1.0,
                field("server_answers_s"),
            ),
        ),
    ),
    Goal(
        "herd2",
        "herd, two workers: every phone resynced",
        "herd",
        ("--phones", "400", "--workers", "2"),
        ("--phones", "2000", "--workers", "2"),
        (Check("resync p99 s", resync_p99_s, 1.0, relay_resync_p99_s),),
        CLUSTER_ENV,
    ),
    Goal(
        "herd1",
        "herd, one worker: every phone resynced",
        "herd",
        ("--phones", "400"),
        ("--phones", "2000"),
        (Check("resync p99 s", resync_p99_s, 0.5, relay_resync_p99_s),),
    ),
    Goal(
        "dashboard",
        "dashboard, 500 tables, 20 dashboards: update p99 over the batch",
        "dashboard",
        ("--tables", "200", "--dashboards", "20", "--seconds", "20"),
        ("--tables", "500", "--dashboards", "20"),
        (
            Check(
                f"update p99 - {DASHBOARD_BATCH_MS:g} ms batch",
                dashboard_over_batch,
                10.0,
                lambda _line: DASHBOARD_BATCH_MS,
            ),
        ),
    ),
    Goal(
        "hall",
        "5,000 tables at a hall's pace (a tap a table every 30 s), one worker",
        "table_latency",
        ("--tables", "500", *HALL),
        ("--tables", "5000", *HALL),
        (
            Check("peer p99, x relay", field("peer_p99_ms_x_bare"), 2.0, field("bare_peer_p99_ms")),
            Check("RSS, x relay", field("server_rss_mb_x_bare"), 1.5, field("bare_server_rss_mb")),
        ),
    ),
)


def ms_to_s(ms: float | None) -> float | None:
    return None if ms is None else round(ms / 1000, 3)


class LoadWatch:
    """The machine's 1-minute load average, sampled every 5 s while a benchmark runs."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while True:
            self.samples.append(os.getloadavg()[0])
            if self._stop.wait(5.0):
                return

    def __enter__(self) -> LoadWatch:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def mean(self) -> float | None:
        return round(sum(self.samples) / len(self.samples), 2) if self.samples else None


def run_goal(goal: Goal, full: bool, timeout_s: float) -> dict[str, Any]:
    """Run one goal's benchmark; its row (and the benchmark's whole line)."""
    missing = [name for name in goal.needs if not os.environ.get(name)]
    row: dict[str, Any] = {"goal": goal.name, "title": goal.title}
    if missing:
        return row | {"skipped": f"needs {' and '.join(missing)}", "met": None}
    argv = [sys.executable, "-m", f"bench.{goal.module}", *(goal.full if full else goal.small)]
    log(f"{goal.name}: {' '.join(argv[1:])}")
    started = time.monotonic()
    with LoadWatch() as load:
        try:
            done = subprocess.run(
                argv, cwd=ROOT, stdout=subprocess.PIPE, timeout=timeout_s, check=False
            )
        except subprocess.TimeoutExpired:
            done = None
    row |= {"seconds": round(time.monotonic() - started, 1), "loadavg": load.mean()}
    lines = [] if done is None else done.stdout.decode().strip().splitlines()
    if done is None or done.returncode != 0 or not lines:
        why = "timed out" if done is None else f"exit {done.returncode}"
        return row | {"skipped": f"the benchmark failed ({why})", "met": None}
    line = json.loads(lines[-1])
    checks = []
    for check in goal.checks:
        value = check.measured(line)
        met = None if value is None else value <= check.most
        checks.append(
            {"what": check.what, "measured": value, "most": check.most, "floor": check.floor(line)}
            | {"met": met}
        )
    met = all(c["met"] is True for c in checks)
    return row | {
        "checks": checks,
        "met": met,
        "machine_ref_ms": line.get("machine_ref_ms"),
        "line": line,
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a plain-text table: one line a figure."""
    out = [
        f"{'goal':10} {'figure':40} {'measured':>9} {'goal':>7} {'floor':>9} {'met':>4} "
        f"{'ref ms':>7} {'load':>5}"
    ]
    for row in rows:
        if "skipped" in row:
            out.append(f"{row['goal']:10} {row['title'][:40]:40} {row['skipped']}")
            continue
        for c in row["checks"]:
            met = "-" if c["met"] is None else ("yes" if c["met"] else "no")
            out.append(
                f"{row['goal']:10} {c['what'][:40]:40} {show(c['measured']):>9} "
                f"{'<= ' + format(c['most'], 'g'):>7} {show(c['floor']):>9} {met:>4} "
                f"{show(row['machine_ref_ms']):>7} {show(row['loadavg']):>5}"
            )
    return "\n".join(out)


def show(value: Any) -> str:
    return "n/a" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.goals", description=__doc__)
    names = [g.name for g in GOALS]
    parser.add_argument("--full", action="store_true", help="the goals' own sizes")
    parser.add_argument("--only", action="append", choices=names, help="this goal (repeatable)")
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="seconds a benchmark may take at most"
    )
    args = parser.parse_args(argv)
    chosen = [g for g in GOALS if not args.only or g.name in args.only]
    rows = [run_goal(goal, args.full, args.timeout) for goal in chosen]
    print(table(rows), file=sys.stderr, flush=True)
    measured = [r for r in rows if r["met"] is not None]
    summary = {
        "sizes": "full" if args.full else "small",
        "cores": os.cpu_count(),
        "goals": [{k: v for k, v in r.items() if k != "line"} for r in rows],
        "all_goals_met": bool(measured)
        and len(measured) == len(rows)
        and all(r["met"] for r in measured),
        "lines": {r["goal"]: r.get("line") for r in rows},
    }
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
