"""Load and latency benchmark of the table socket, against a bare FastAPI relay.

    python -m bench.table_latency --tables 1000 --seconds 30

1. Starts the real server (`python -m app.cli serve`, one uvicorn worker, a fresh SQLite
   file in a temporary directory), creates the tables over REST, opens two phone sockets
   per table (p1 and p2 links) and starts every game, as a round begins: every table's
   first command at once (start_ack_p50/p99_ms: its ack's latency; with several workers
   this is when a worker takes the table on).
2. Every table taps every --interval seconds (tables staggered uniformly over the
   interval); each tap is a `pass_turn` sent by the phone whose clock is running, with
   the turn-end answers the game view says are due (kill box: no; scoring: nothing).
   Ack latency is send -> ack on the sender; peer latency is send -> the event with the
   tap's version on the other phone. A tap without its ack or its peer event within 5 s
   is lost; a dup ack, a repeated version or a second event for one tap is duplicated.
3. Measures the server process's CPU (% of one core over the measured window) and RSS,
   and counts the collector's full walks that it logged while the phones tapped, warm-up
   included (server_full_gc, the longest in server_full_gc_max_ms; it logs those of
   100 ms or more): every tap in flight waits for one.
4. Runs the same load (taps and the phones' pings) against bench/bare_relay.py, which relays
   taps and answers pings with no rules and no storage: the floor for the peer latency.
   With --workers N it also runs the relay as a cluster of N workers with Redis between
   them (`bare_cluster_*`): the floor of any design that lets any worker take any socket;
   and that cluster writing each command to PostgreSQL before relaying it
   (`bare_durable_*`): the floor of any such design that also keeps DESIGN.md's rule
   (a command is written durably before its event goes out and before its ack).
   With --busy-floor US (repeatable) it also runs the relay (as a cluster with --workers N,
   with no log) spending US microseconds of CPU on each tap (`bare_busy<US>_*`): how far a
   relay's latency moves with the CPU a tap costs, on cores the load generator shares.
5. Prints one JSON line on stdout; progress goes to stderr.

The client runs in --clients worker processes (uvloop when installed), each owning a
share of the tables; the parent only creates tables, samples the server and merges.
Everything talks to 127.0.0.1 only, and every wait is bounded, so the run ends by itself.

The client and the server share the machine's cores: client_cpu_pct says how much the
load generator used, other_cpu_pct how much every other process on the machine used
while measuring, steal_cpu_pct how much CPU this virtual machine wanted but its host gave
to others (latencies taken with a high other_cpu_pct or steal_cpu_pct include their noise;
--quiet-wait waits for a quiet moment first), and send_lag_p99_ms how late the client
sent its taps. A game ends after 18 taps (90 s at 5-s taps); longer runs stop tapping
finished tables and count them in games_finished.

Diagnostics: --timeline PREFIX writes every measured tap to a CSV; --server-prefix runs
the servers under a profiler or wrapper; --db-dir puts the SQLite file elsewhere.
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from bench.harness.load import Workers, phone_worker, run_loop
from bench.harness.measure import Window, machine_busy_seconds, steal_seconds
from bench.harness.options import add_common_options, add_load_options
from bench.harness.report import log, run_main
from bench.harness.servers import (
    HOST,
    ServerProcess,
    bench_run,
    free_port,
    postgres_schema,
    server_argv,
)
from bench.harness.sockets import (
    START_TIMEOUT_S,
    TAP_TIMEOUT_S,
    Stats,
    Table,
    Tap,
    open_phones,
    seat_token,
)
from bench.relay_floors import run_floors
from bench.table_figures import json_line


@contextlib.contextmanager
def cluster_env(env: dict[str, str], workers: int) -> Iterator[dict[str, str]]:
    """The server's environment: as it is for one worker; for several, a PostgreSQL
    schema (dropped afterwards) and a Redis prefix of this run's own."""
    if workers <= 1:
        yield env
        return
    postgres = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL", "")
    redis = os.environ.get("DEATHCLOCK_TEST_REDIS_URL", "")
    if not postgres or not redis:
        raise SystemExit("--workers needs DEATHCLOCK_TEST_POSTGRES_URL and _REDIS_URL set")
    with postgres_schema(postgres) as (url, schema):
        yield {
            **env,
            "DEATHCLOCK_DATABASE_URL": url,
            "DEATHCLOCK_REDIS_URL": redis,
            "DEATHCLOCK_REDIS_PREFIX": f"bench-{schema}",
        }


GAME_BODY = {"clock_minutes": 60, "scenario": "bunkers"}


# ----------------------------------------------------------------------------
# Creating the tables (parent process)
# ----------------------------------------------------------------------------


async def create_tables(port: int, count: int, concurrency: int) -> list[tuple[str, str, str]]:
    sem = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(
        base_url=f"http://{HOST}:{port}", timeout=30.0, limits=limits
    ) as client:

        async def one() -> tuple[str, str, str]:
            async with sem:
                last = ""
                for _attempt in range(3):
                    try:
                        response = await client.post("/api/tables", json=GAME_BODY)
                    except httpx.TransportError as exc:
                        last = repr(exc)
                        continue
                    if response.status_code == 201:
                        data = response.json()
                        return (
                            data["id"],
                            seat_token(data["p1"]["url"]),
                            seat_token(data["p2"]["url"]),
                        )
                    last = f"{response.status_code} {response.text[:200]}"
                raise RuntimeError(f"POST /api/tables failed: {last}")

        return list(await asyncio.gather(*(one() for _ in range(count))))


PING_S = 4.0
PING_BOUND_S = 4 * 3600.0


def worker_main(
    idx: int,
    port: int,
    rows: list[tuple[int, str, str, str]],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    """A client process: its share of the tables, each with two phones pinging every 4 s
    as the page does (the server drops sockets silent for 10 s); the game is started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    stats = Stats()
    tables = [Table(i, tid, p1, p2, stats) for i, tid, p1, p2 in rows]
    compression = None if cfg["compression"] == "none" else "deflate"
    pingers: set[asyncio.Task[None]] = set()
    start_ms: list[float] = []  # each game's start, acked: the first command of its table

    async def prepare(table: Table) -> None:
        until = time.monotonic() + PING_BOUND_S
        if not await open_phones(port, table, compression, PING_S, until, pingers):
            return
        tap = await table.send(table.phones["p1"], {"c": "start"})
        if not await table.finish(tap, START_TIMEOUT_S):
            stats.start_failures += 1
            return
        assert tap.ack_t is not None
        start_ms.append((tap.ack_t - tap.t0) * 1000)
        table.local_running = "p1"

    def measured(table: Table, tap: Tap, t0: float, ack_ms: float, peer_ms: float) -> None:
        stats.timeline.append((t0, ack_ms, peer_ms))

    def result() -> dict[str, Any]:
        return {"timeline": stats.timeline, "start_ms": start_ms}

    run_loop(phone_worker(f"client-{idx}", tables, cfg, ctrl_q, out_q, prepare, measured, result))


# ----------------------------------------------------------------------------
# One target: server + tables + clients
# ----------------------------------------------------------------------------


def run_target(
    name: str, argv_for_port: Any, env: dict[str, str], args: argparse.Namespace, tmp: Path
) -> dict[str, Any]:
    port = args.port or free_port()
    prefix = shlex.split(args.server_prefix) if args.server_prefix else []
    server = ServerProcess(name, prefix + argv_for_port(port), env, tmp / f"{name}.log")
    workers = Workers()
    try:
        server.start()
        server.wait_ready(port)
        t = time.monotonic()
        rows = asyncio.run(create_tables(port, args.tables, args.create_concurrency))
        log(f"{name}: created {len(rows)} tables in {time.monotonic() - t:.1f} s")
        cfg = {"compression": args.compression, "connect_concurrency": args.connect_concurrency}
        n_clients = workers.start_phones(worker_main, port, rows, cfg, args.clients, "client")
        ready = workers.wait_ready(90 + 0.3 * args.tables)
        live = sum(r["tables"] for r in ready.values())
        log(
            f"{name}: {2 * live} sockets open, {live} games started "
            f"in {max(r['seconds'] for r in ready.values()):.1f} s"
        )

        def sample() -> tuple[float, ...]:
            return (
                time.monotonic(),
                server.cpu_seconds(),
                machine_busy_seconds(),
                steal_seconds(),
            )

        logged = server.log_size()
        window = Window.begin(f"{name}: ", server, workers, args, len(rows), sample)
        first_at = window.first_at
        window.run(workers, TAP_TIMEOUT_S + 60, lambda _now: "")
        walks = server.full_walks(logged)
        cpu0, cpu1 = window.edges

        merged: dict[str, Any] = {
            "ack_ms": [],
            "peer_ms": [],
            "send_lag_ms": [],
            "timeline": [],
            "start_ms": [],
            "errors": [],
        }
        counters: dict[str, int] = {}
        client_cpu = 0.0
        for r in window.results.values():
            for key in ("ack_ms", "peer_ms", "send_lag_ms", "timeline", "start_ms", "errors"):
                merged[key] += r[key]
            for key, value in r["counters"].items():
                counters[key] = counters.get(key, 0) + value
            client_cpu += r["client_cpu_pct"] or 0.0
        for e in merged["errors"][:10]:
            log(f"{name}: {e}")
        if args.timeline:
            path = Path(f"{args.timeline}.{name}.csv")
            with path.open("w") as f:
                f.write("t_s,monotonic_s,ack_ms,peer_ms\n")
                for t0, a, b in sorted(merged["timeline"]):
                    f.write(f"{t0 - first_at:.4f},{t0:.4f},{a:.3f},{b:.3f}\n")
            log(f"{name}: per-tap latencies written to {path}")
        wall = cpu1[0] - cpu0[0]
        server_cpu = (cpu1[1] - cpu0[1]) / wall * 100
        machine_cpu = (cpu1[2] - cpu0[2]) / wall * 100
        taps_in_window = counters.get("taps", 0)
        return {
            "server_cpu_ms_per_tap": (cpu1[1] - cpu0[1]) * 1000 / taps_in_window
            if taps_in_window
            else None,
            "tables": live,
            "sockets": 2 * live,
            "taps": counters.get("taps", 0),
            "taps_total": counters.get("taps_total", 0),
            "ack_ms": merged["ack_ms"],
            "peer_ms": merged["peer_ms"],
            "send_lag_ms": merged["send_lag_ms"],
            "start_ms": merged["start_ms"],
            "counters": counters,
            "server_cpu_pct": server_cpu,
            "other_cpu_pct": max(0.0, machine_cpu - server_cpu - client_cpu),
            "steal_cpu_pct": (cpu1[3] - cpu0[3]) / wall * 100,
            "server_rss_mb": window.rss_end,
            "server_rss_max_mb": window.rss_max,
            "client_cpu_pct": client_cpu,
            "clients": n_clients,
            "full_walks": walks,
        }
    finally:
        workers.stop(clean=sys.exc_info()[0] is None)
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.table_latency", description=__doc__)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="taps before measuring")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    add_common_options(parser)
    add_load_options(parser)
    parser.add_argument("--create-concurrency", type=int, default=16)
    parser.add_argument("--no-bare", action="store_true", help="skip the bare relay run")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server workers; more than one runs on PostgreSQL and Redis "
        "(DEATHCLOCK_TEST_POSTGRES_URL, DEATHCLOCK_TEST_REDIS_URL), each run on a schema "
        "and a channel prefix of its own",
    )
    parser.add_argument(
        "--busy-floor",
        type=int,
        action="append",
        default=[],
        metavar="US",
        help="also run the relay spending US microseconds of CPU a tap (repeatable)",
    )
    parser.add_argument(
        "--timeline", metavar="PREFIX", help="write each measured tap to PREFIX.<server>.csv"
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.interval <= 0 or args.warmup < 0:
        parser.error("--tables, --seconds and --interval must be positive")
    if any(us <= 0 for us in args.busy_floor):
        parser.error("--busy-floor takes a positive number of microseconds")

    with bench_run(4 * args.tables + 1024, args.db_dir) as (tmp, env):
        with cluster_env(env, args.workers) as app_env:

            def app_argv(port: int) -> list[str]:
                return [*server_argv(port), "--workers", str(args.workers)]

            app_result = run_target("deathclock", app_argv, app_env, args, tmp)
        floors = run_floors(args, env, tmp, run_target)

    out = json_line(app_result, floors, args)
    print(json.dumps(out, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    run_main(main, "servers and clients stopped")
