"""Restart benchmark: one worker, every table mid-game, stopped and started again.

    python -m bench.restart --tables 1000

1. Starts the real server (`python -m app.cli serve`, one worker, a fresh SQLite file in
   a temporary directory), creates the tables over REST, connects both phones of every
   table and starts every game: the clocks run.
2. Every table taps every --interval seconds (staggered), the phone whose clock runs
   sending `pass_turn`, as in bench/table_latency.py.
3. After --warmup seconds the server is stopped with SIGTERM (a graceful stop) and, once
   it has exited, started again on the same database. The phones reconnect by
   themselves, with hello "v" = the last version seen, re-sending every command not
   answered with the same seq; they try again every --retry-ms (jittered: half to all
   of it), so that the time measured is the server's. (The page backs off from 0.5 s,
   doubling: a real phone may come back later than the server is ready.)
4. Every table taps at once and again until it is served: a tap first sent after the
   stop, acked to its sender and seen by the other phone. Measured from the new
   process's start (restart_*) and from the SIGTERM (from_stop_*).
5. Tapping goes on for --after seconds; then every command is answered (bounded wait) and
   every table's log is read back through REST: an acked version missing from it is an
   acked tap lost, an entry no ack names a command applied twice.

The floor: just before the stop, a bare FastAPI app (bench/bare_app.py) is started and
stopped, the phones tapping meanwhile: bare_answers_s is its cold start (start to first HTTP
answer; bare_start_cpu_s the CPU it used by then); server_answers_x_bare and
restart_max_x_bare are the new process's first answer and its last table served as multiples
of it (server_start_cpu_x_bare: the CPU each used until it answered, the fairer ratio on a
busy machine), served_after_answers_s the time between the two.

One JSON line on stdout; progress on stderr. server_answers_s is when the new process
first answered HTTP (from its start: the front's `/health`, 503 "starting" while the app
behind it is imported, app/front.py) and server_start_cpu_s the CPU it had used by then (on
a busy machine, the part that is its own); client_lag_max_s how late this load generator's
own loop woke up. Every wait is bounded, and every process started is stopped (process
group) on exit.

Diagnostics: --profile PATH runs the restarted server under cProfile; --server-prefix runs
it under a profiler or wrapper (`--server-prefix "py-spy record -d 3 -f raw -o out.txt --"`
samples its first three seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from bench.harness.load import run_loop as run_fast
from bench.harness.measure import ratio, rounded
from bench.harness.report import log, machine_fields
from bench.harness.servers import (
    HOST,
    ServerProcess,
    bench_run,
    free_port,
    profiled,
    server_argv,
    serving,
)
from bench.harness.tables import create_tables
from bench.logcheck import check_logs
from bench.recovery import (
    Game,
    close_all,
    collector_off,
    settle,
    start_games,
    start_phones,
    wait_served,
)
from bench.recovery_checks import add_recovery_options, outcome, recovery_times, with_targets
from bench.recovery_phones import Run

RESTART_GOAL_S = 2.0
ANSWERS_GOAL_X = 1.5  # the new process answers within 1.5x a bare FastAPI app's cold start
SERVED_AFTER_GOAL_S = 1.0  # and serves every table within a second of answering
STOP_WAIT_S = 30.0


async def listening(port: int, door: asyncio.Event, within: float) -> None:
    """Open the door once the port takes connections (polled every 10 ms)."""
    deadline = time.perf_counter() + within
    while time.perf_counter() < deadline:
        with contextlib.suppress(OSError):
            _reader, writer = await asyncio.open_connection(HOST, port)
            writer.close()
            door.set()
            return
        await asyncio.sleep(0.01)
    door.set()


async def first_answer(
    server: ServerProcess, port: int, within: float
) -> tuple[float, float] | None:
    """When the server first answers HTTP (perf_counter, polled every 20 ms), and the
    CPU seconds it had used by then (on a busy machine, the part that is its own)."""
    deadline = time.perf_counter() + within
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=1.0) as client:
        while time.perf_counter() < deadline:
            with contextlib.suppress(httpx.TransportError):
                await client.get("/health")
                return time.perf_counter(), server.cpu_seconds()
            await asyncio.sleep(0.02)
    return None


async def bare_cold_start(env: dict[str, str], tmp: Path) -> tuple[float, float] | None:
    """The floor: how long a bare FastAPI app (bench/bare_app.py) takes from its process's
    start to its first HTTP answer, on this machine, now (the phones tapping meanwhile),
    and the CPU seconds it used by then."""
    port = free_port()
    argv = [sys.executable, "-m", "bench.bare_app", "--host", HOST, "--port", str(port)]
    bare = ServerProcess("bare-app", argv, env, tmp / "bare-app.log")
    started_at = time.perf_counter()
    bare.start()
    try:
        answered = await first_answer(bare, port, 60)
    finally:
        await asyncio.to_thread(bare.stop)
    return None if answered is None else (answered[0] - started_at, answered[1])


def floor_fields(out: dict[str, Any], bare: tuple[float, float] | None) -> dict[str, Any]:
    """The restart's times as multiples of a bare FastAPI app's cold start in the same run
    (and the CPU each used until it answered: on a busy machine, the part that is its own),
    and how long after its first answer the new process served every table."""
    bare_s, bare_cpu_s = (None, None) if bare is None else bare
    answers, served = out["server_answers_s"], out["restart_max_s"]
    return {
        "bare_answers_s": rounded(bare_s),
        "bare_start_cpu_s": rounded(bare_cpu_s),
        "server_answers_x_bare": ratio(answers, bare_s),
        "server_start_cpu_x_bare": ratio(out["server_start_cpu_s"], bare_cpu_s),
        "restart_max_x_bare": ratio(served, bare_s),
        "served_after_answers_s": None
        if answers is None or served is None
        else rounded(served - answers),
    }


async def restart(
    servers: list[tuple[ServerProcess, int]],
    port: int,
    env: dict[str, str],
    tmp: Path,
    run: Run,
    profile: str | None = None,
    prefix: str | None = None,
) -> tuple[float, float, float, asyncio.Task[tuple[float, float] | None]]:
    """SIGTERM, wait for the exit, start again: (stop, exit, start) times and the task
    that sees the new server's first answer. Only taps first sent after the start count
    (the old server answers a few while it stops)."""
    proc = servers[0][0].proc
    assert proc is not None
    door = run.closed_door = asyncio.Event()
    stopped_at = time.perf_counter()
    proc.send_signal(signal.SIGTERM)
    await asyncio.to_thread(proc.wait, STOP_WAIT_S)
    exited_at = time.perf_counter()
    log(f"the server exited with {proc.returncode} {exited_at - stopped_at:.2f} s after SIGTERM")
    argv = server_argv(port)
    if profile:
        argv = profiled(argv, profile)
    if prefix:
        argv = shlex.split(prefix) + argv
    second = ServerProcess("server-2", argv, env, tmp / "server-2.log")
    servers.append((second, port))
    started_at = run.disrupt()
    second.start()
    run.tasks.add(asyncio.create_task(listening(port, door, 60)))
    answered = asyncio.create_task(first_answer(second, port, 60))
    return stopped_at, exited_at, started_at, answered


async def session(
    args: argparse.Namespace,
    servers: list[tuple[ServerProcess, int]],
    port: int,
    rows: list[tuple[str, str, str]],
    env: dict[str, str],
    tmp: Path,
) -> dict[str, Any]:
    run = Run(lambda _phone: port, args.retry_ms / 1000, 1.0, args.interval)
    n = len(rows)
    tables = [Game(run, i, row, (port, port)) for i, row in enumerate(rows)]
    start_phones(tables)
    t = time.monotonic()
    started = await start_games(tables, 60 + 0.05 * n)
    log(f"{2 * n} phones connected, {started} games started in {time.monotonic() - t:.1f} s")
    t0 = time.perf_counter() + 0.5
    drivers = [asyncio.create_task(tb.drive(t0 + tb.index * args.interval / n)) for tb in tables]
    await asyncio.sleep(0.5 + args.warmup)
    bare = await bare_cold_start(env, tmp)
    log(f"a bare FastAPI app answered (s after its start, CPU s by then): {bare}")
    taps_before = run.c["taps"]
    load = os.getloadavg()[0]
    log(f"stopping the server after {taps_before} taps; load average {load:.2f}")
    with collector_off():
        stopped_at, exited_at, started_at, answered_task = await restart(
            servers, port, env, tmp, run, args.profile, args.server_prefix
        )
        client_lag = await wait_served(tables, args.recovery_timeout, "restart")
    answered = await answered_task
    run.end = time.perf_counter() + args.after
    log(f"tapping {args.after:g} s more")
    await asyncio.wait(drivers, timeout=args.after + 30)
    left = await settle(tables, 15)
    await check_logs(run, port, tables)
    await close_all(tables)
    for d in drivers:
        d.cancel()

    from_start = recovery_times(tables, started_at)
    from_stop = recovery_times(tables, stopped_at)
    out: dict[str, Any] = {
        "tables": n,
        "workers": 1,
        "database": "sqlite",
        "games_started": started,
        "restart_max_s": from_start["max_s"],
        "restart_p99_s": from_start["p99_s"],
        "restart_p50_s": from_start["p50_s"],
        "from_stop_max_s": from_stop["max_s"],
        "from_stop_p99_s": from_stop["p99_s"],
        "stop_s": round(exited_at - stopped_at, 3),
        "server_answers_s": None if answered is None else round(answered[0] - started_at, 3),
        "server_start_cpu_s": None if answered is None else round(answered[1], 3),
        "client_lag_max_s": round(client_lag, 3),
        **outcome(tables, left),
        "taps_before_stop": taps_before,
        "interval_s": args.interval,
        "retry_ms": args.retry_ms,
        "loadavg_1m_at_stop": round(load, 2),
        **machine_fields(),
    }
    out |= floor_fields(out, bare)
    out = with_targets(
        out, "restart_max_le_2s", out["restart_max_s"], RESTART_GOAL_S, run.c["unsettled"]
    )
    answers_x, after_s = out["server_answers_x_bare"], out["served_after_answers_s"]
    out["targets_met"] |= {
        "answers_le_1.5x_bare": answers_x is not None and answers_x <= ANSWERS_GOAL_X,
        "served_le_1s_after_answers": after_s is not None and after_s <= SERVED_AFTER_GOAL_S,
    }
    out["all_targets_met"] = all(out["targets_met"].values())
    return out


def run(args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    port = free_port()
    servers = [(ServerProcess("server", server_argv(port), env, tmp / "server.log"), port)]
    with serving(servers):  # and the server started again, once the restart added it
        t = time.monotonic()
        rows = asyncio.run(create_tables(port, args.tables, args.create_concurrency))
        log(f"created {len(rows)} tables in {time.monotonic() - t:.1f} s")
        return run_fast(session(args, servers, port, rows, env, tmp))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.restart", description=__doc__)
    add_recovery_options(parser, "the stop", "the restart")
    parser.add_argument(
        "--retry-ms", type=float, default=100.0, help="the phones' reconnect interval"
    )
    parser.add_argument("--db-dir", metavar="DIR", help="where the SQLite file goes")
    parser.add_argument(
        "--profile", metavar="PATH", help="run the restarted server under cProfile, stats to PATH"
    )
    parser.add_argument(
        "--server-prefix",
        metavar="CMD",
        help="run the restarted server under a profiler or wrapper (e.g. py-spy record ... --)",
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.interval <= 0 or args.warmup < 0 or args.after < 0:
        parser.error("--tables and --interval must be positive; --warmup, --after >= 0")
    if args.retry_ms <= 0:
        parser.error("--retry-ms must be positive")
    with bench_run(4 * args.tables + 1024, args.db_dir, "deathclock-restart-") as (tmp, env):
        result = run(args, env, tmp)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
