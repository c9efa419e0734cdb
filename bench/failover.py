"""Failover benchmark: two workers on PostgreSQL and Redis, one killed with SIGKILL.

    python -m bench.failover --tables 1000

1. Starts two workers (`python -m app.cli serve`, each its own process and port) on a
   PostgreSQL schema and a Redis prefix of this run's own (DEATHCLOCK_TEST_POSTGRES_URL,
   DEATHCLOCK_TEST_REDIS_URL; dropped afterwards). Half the tables are created on each
   worker, which owns what it creates (the `table_owner` rows say so, read before the kill).
2. Each table has one phone on each worker (p1 on one, p2 on the other), and its game
   started; every table taps every --interval seconds (staggered), the phone whose clock
   runs sending `pass_turn`, as in bench/table_latency.py.
3. After --warmup seconds, worker 0 is killed with SIGKILL (its whole process group):
   no shutdown code runs. The phones it held reconnect to the surviving worker as the
   page does (first try after 0.25-0.5 s, doubling: --backoff-ms), with hello "v" = the
   last version seen, and re-send every command not answered with the same seq. Every
   table taps at once and again until it is served: a tap first sent after the kill,
   acked to its sender and seen by the other phone. The killed worker's own tables
   need the survivor to take them over (its lease lapses: DEATHCLOCK_LEASE_MS, 2 s).
4. Tapping goes on for --after seconds; then every command is answered (bounded wait) and
   every table's log is read back through REST (`GET /api/tables/{id}/log`): an acked
   version missing from it (or holding another command) is an acked tap lost; an entry
   no ack names is a command applied twice (duplicated).

One JSON line on stdout (times from the kill, in seconds); progress on stderr, with how
many tables were served again in each half second. Besides takeover_* (every table),
owned_takeover_* covers the killed worker's own tables and other_tables_* the survivor's
(their phones only reconnected); survivor_owned_all_s is when the survivor's /health first
said it owned every table, survivor_health_lag_max_s how late it answered meanwhile, and
client_lag_max_s how late this load generator's own loop woke up (it counts in every time).
--py-spy FILE profiles the survivor around the kill; --log-dir keeps the workers' logs.
Every wait is bounded, and every process started is stopped (process group) on exit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from bench.harness.load import run_loop as run_fast
from bench.harness.report import log, machine_fields
from bench.harness.servers import (
    HOST,
    ServerProcess,
    bench_run,
    cluster_env,
    free_port,
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
from bench.recovery_phones import Phone, Run

TAKEOVER_GOAL_S = 3.0


def owners(database_url: str) -> dict[str, str]:
    """table id -> the worker that owns it, from the run's schema."""
    import psycopg

    plain, _, query = database_url.replace("postgresql+psycopg://", "postgresql://").partition("?")
    schema = query.split("search_path%3D", 1)[1]
    with psycopg.connect(plain) as conn:
        rows = conn.execute(f"SELECT table_id, owner FROM {schema}.table_owner").fetchall()
    return {r[0]: r[1] for r in rows}


def health(port: int) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(f"http://{HOST}:{port}/health", timeout=5.0).json()
    return body


def profile(path: str | None, server: ServerProcess) -> subprocess.Popen[bytes] | None:
    """py-spy on the surviving worker from a moment before the kill, for 10 s (collapsed
    stacks; it does not pause the worker to sample it)."""
    if not path or server.proc is None:
        return None
    argv = ["py-spy", "record", "--pid", str(server.proc.pid), "--rate", "100", "--nonblocking"]
    argv += ["--duration", "10", "--format", "raw", "-o", path]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_cluster(ports: list[int], within: float = 30.0) -> list[str]:
    """Both workers see each other alive; their worker ids."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        bodies = [health(p) for p in ports]
        if all(b.get("status") == "ok" and b.get("workers_alive") == 2 for b in bodies):
            return [str(b["worker"]) for b in bodies]
        time.sleep(0.2)
    raise RuntimeError(f"the two workers did not see each other within {within:.0f} s")


async def watch_survivor(port: int, tables: int, since: float, within: float) -> dict[str, Any]:
    """The survivor's /health every 0.2 s after the kill: when it owned every table, and
    how late it answered (its event loop's lag, with the HTTP round trip)."""
    owned_all: float | None = None
    lag_max = 0.0
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=5.0) as client:
        while time.perf_counter() - since < within and owned_all is None:
            asked = time.perf_counter()
            with contextlib.suppress(httpx.HTTPError, ValueError):
                body = (await client.get("/health")).json()
                lag_max = max(lag_max, time.perf_counter() - asked)
                if body.get("tables_owned", 0) >= tables:
                    owned_all = time.perf_counter() - since
            await asyncio.sleep(max(0.0, 0.2 - (time.perf_counter() - asked)))
    return {
        "survivor_owned_all_s": None if owned_all is None else round(owned_all, 3),
        "survivor_health_lag_max_s": round(lag_max, 3),
    }


def histogram(tables: list[Game], owned: set[str], since: float) -> str:
    """Tables served again per half second after the kill."""
    counts: dict[float, list[int]] = {}
    for t in tables:
        if t.served_at is not None:
            at = int((t.served_at - since) * 2) / 2
            counts.setdefault(at, [0, 0])[t.id not in owned] += 1
    return ", ".join(f"{at:g}: {a}/{b}" for at, (a, b) in sorted(counts.items()))


async def session(
    args: argparse.Namespace,
    servers: list[ServerProcess],
    ports: list[int],
    rows: list[tuple[str, str, str]],
    database_url: str,
) -> dict[str, Any]:
    alive = [True, True]

    def route(phone: Phone) -> int:
        return phone.home if alive[ports.index(phone.home)] else ports[1]

    run = Run(route, args.backoff_ms / 1000, 2.0, args.interval)
    n = len(rows)
    tables = [Game(run, i, row, (ports[i % 2], ports[(i + 1) % 2])) for i, row in enumerate(rows)]
    start_phones(tables)
    t = time.monotonic()
    started = await start_games(tables, 60 + 0.05 * n)
    log(f"{2 * n} phones connected, {started} games started in {time.monotonic() - t:.1f} s")
    worker_ids = await asyncio.to_thread(wait_cluster, ports)
    owned_by = await asyncio.to_thread(owners, database_url)
    victim = worker_ids[0]
    owned = {t.id for t in tables if owned_by.get(t.id) == victim}
    log(f"worker 0 ({victim}) owns {len(owned)} tables, worker 1 the other {n - len(owned)}")

    t0 = time.perf_counter() + 0.5
    drivers = [asyncio.create_task(tb.drive(t0 + tb.index * args.interval / n)) for tb in tables]
    await asyncio.sleep(args.warmup)
    profiler = profile(args.py_spy, servers[1])
    await asyncio.sleep(0.5)
    taps_before = run.c["taps"]
    load = os.getloadavg()[0]
    proc = servers[0].proc
    assert proc is not None
    with collector_off():
        os.killpg(proc.pid, signal.SIGKILL)
        killed_at = run.disrupt()
        alive[0] = False
        watcher = asyncio.create_task(watch_survivor(ports[1], n, killed_at, 20.0))
        log(f"killed worker 0 (pid {proc.pid}) after {taps_before} taps; load average {load:.2f}")
        client_lag = await wait_served(tables, args.recovery_timeout, "takeover")
    watched = await watcher
    run.end = time.perf_counter() + args.after
    log(f"tapping {args.after:g} s more")
    await asyncio.wait(drivers, timeout=args.after + 30)
    left = await settle(tables, 15)
    await check_logs(run, ports[1], tables)
    survivor = await asyncio.to_thread(health, ports[1])
    await close_all(tables)
    for d in drivers:
        d.cancel()
    if profiler is not None:
        profiler.terminate()
        await asyncio.to_thread(profiler.wait, 10)

    log(
        "served again (s after the kill: tables of the killed worker / of the survivor): "
        + histogram(tables, owned, killed_at)
    )
    takeover = recovery_times(tables, killed_at)
    mine = recovery_times([t for t in tables if t.id in owned], killed_at)
    theirs = recovery_times([t for t in tables if t.id not in owned], killed_at)
    out: dict[str, Any] = {
        "tables": n,
        "workers": 2,
        "database": "postgresql",
        "games_started": started,
        "killed_owned_tables": len(owned),
        "takeover_max_s": takeover["max_s"],
        "takeover_p99_s": takeover["p99_s"],
        "takeover_p50_s": takeover["p50_s"],
        "owned_takeover_max_s": mine["max_s"],
        "owned_takeover_p99_s": mine["p99_s"],
        "owned_takeover_min_s": mine["min_s"],
        "other_tables_max_s": theirs["max_s"],
        "other_tables_p99_s": theirs["p99_s"],
        **watched,
        "client_lag_max_s": round(client_lag, 3),
        **outcome(tables, left),
        "taps_before_kill": taps_before,
        "survivor_tables_owned": survivor.get("tables_owned"),
        "interval_s": args.interval,
        "backoff_ms": args.backoff_ms,
        "lease_ms": int(os.environ.get("DEATHCLOCK_LEASE_MS", "2000")),
        "loadavg_1m_at_kill": round(load, 2),
        **machine_fields(),
    }
    return with_targets(
        out, "takeover_max_le_3s", out["takeover_max_s"], TAKEOVER_GOAL_S, run.c["unsettled"]
    )


def run(args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    ports = [free_port(), free_port()]
    servers = [
        ServerProcess(f"worker-{k}", server_argv(port), env, tmp / f"worker-{k}.log")
        for k, port in enumerate(ports)
    ]
    try:
        with serving(list(zip(servers, ports, strict=True))):
            half = args.tables // 2
            rows: list[tuple[str, str, str]] = []
            t = time.monotonic()
            for k, count in ((0, args.tables - half), (1, half)):
                rows += asyncio.run(create_tables(ports[k], count, args.create_concurrency))
            log(f"created {len(rows)} tables in {time.monotonic() - t:.1f} s")
            rows = [rows[i // 2 + (i % 2) * (args.tables - half)] for i in range(len(rows))]
            database_url = env["DEATHCLOCK_DATABASE_URL"]
            return run_fast(session(args, servers, ports, rows, database_url))
    finally:
        for server in servers:  # stopped: their logs are closed
            if args.log_dir:
                shutil.copy(server.log_path, Path(args.log_dir) / server.log_path.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.failover", description=__doc__)
    add_recovery_options(parser, "the kill", "the takeover")
    parser.add_argument(
        "--backoff-ms", type=float, default=500.0, help="the phones' first reconnect backoff"
    )
    parser.add_argument("--log-dir", metavar="DIR", help="keep the workers' logs there")
    parser.add_argument("--py-spy", metavar="FILE", help="profile the surviving worker (raw)")
    args = parser.parse_args(argv)
    if args.tables < 2 or args.interval <= 0 or args.warmup < 0 or args.after < 0:
        parser.error("--tables must be 2 or more; --interval positive; --warmup, --after >= 0")
    with (
        bench_run(4 * args.tables + 1024, None, "deathclock-failover-") as (tmp, env),
        cluster_env(env, 2) as cluster,
    ):
        result = run(args, cluster, tmp)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
