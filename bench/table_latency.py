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

Diagnostics: --timeline PREFIX writes every measured tap to a CSV; --profile PATH runs the
server under cProfile; --server-prefix runs the servers under a profiler or wrapper;
--db-dir puts the SQLite file elsewhere.

A hall's pace: `--interval 30` (one tap a table every 30 s; the phones ping every 4 s, as
the page does), with a window of at least two intervals (`--seconds 60 --warmup 30`).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import signal
import time
from pathlib import Path
from typing import Any

from bench.harness.load import Workers, phone_worker, run_loop
from bench.harness.measure import Window, cpu_pcts, cpu_sample
from bench.harness.options import add_common_options, add_load_options, add_tapping_options
from bench.harness.report import json_line, log, run_main
from bench.harness.results import cpu_ms_per_tap, merge_results
from bench.harness.servers import (
    ServerProcess,
    bench_run,
    cluster_env,
    free_port,
    profiled,
    server_argv,
    serving,
)
from bench.harness.sockets import (
    PING_BOUND_S,
    PING_S,
    START_TIMEOUT_S,
    TAP_TIMEOUT_S,
    Stats,
    Table,
    Tap,
    open_phones,
)
from bench.harness.tables import create_tables
from bench.relay_floors import run_floors
from bench.table_figures import line_fields, write_timeline


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


MERGED = ("ack_ms", "peer_ms", "send_lag_ms", "timeline", "start_ms", "errors")


def run_target(
    name: str, argv_for_port: Any, env: dict[str, str], args: argparse.Namespace, tmp: Path
) -> dict[str, Any]:
    """One target: its server, the tables, the phone processes, the measured window."""
    port = args.port or free_port()
    prefix = shlex.split(args.server_prefix) if args.server_prefix else []
    server = ServerProcess(name, prefix + argv_for_port(port), env, tmp / f"{name}.log")
    with serving([(server, port)]), Workers() as workers:
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
        logged = server.log_size()
        window = Window.begin(
            f"{name}: ", server, workers, args, len(rows), lambda: cpu_sample(server)
        )
        window.run(workers, TAP_TIMEOUT_S + 60, lambda _now: "")
        walks = server.full_walks(logged)
        cpu0, cpu1 = window.edges
        merged, counters, client_cpu = merge_results(window.results.values(), MERGED)
        for e in merged["errors"][:10]:
            log(f"{name}: {e}")
        if args.timeline:
            path = Path(f"{args.timeline}.{name}.csv")
            write_timeline(path, window.first_at, merged["timeline"])
            log(f"{name}: per-tap latencies written to {path}")
        return {
            "server_cpu_ms_per_tap": cpu_ms_per_tap(cpu0, cpu1, counters.get("taps", 0)),
            "tables": live,
            "sockets": 2 * live,
            "taps": counters.get("taps", 0),
            "taps_total": counters.get("taps_total", 0),
            "ack_ms": merged["ack_ms"],
            "peer_ms": merged["peer_ms"],
            "send_lag_ms": merged["send_lag_ms"],
            "start_ms": merged["start_ms"],
            "counters": counters,
            **cpu_pcts(cpu0, cpu1, client_cpu),
            "server_rss_mb": window.rss_end,
            "server_rss_max_mb": window.rss_max,
            "clients": n_clients,
            "full_walks": walks,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.table_latency", description=__doc__)
    add_tapping_options(parser)
    add_common_options(parser)
    add_load_options(parser)
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
    parser.add_argument(
        "--profile",
        metavar="PATH",
        help="run the server (one worker; not the relay) under cProfile, its stats written "
        "to PATH when it stops (python -m pstats PATH); its CPU then counts in the line",
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.interval <= 0 or args.warmup < 0:
        parser.error("--tables, --seconds and --interval must be positive")
    if args.profile and args.workers != 1:
        parser.error("--profile takes one worker")
    if any(us <= 0 for us in args.busy_floor):
        parser.error("--busy-floor takes a positive number of microseconds")

    with bench_run(4 * args.tables + 1024, args.db_dir) as (tmp, env):
        with cluster_env(env, args.workers) as app_env:

            def app_argv(port: int) -> list[str]:
                argv = [*server_argv(port), "--workers", str(args.workers)]
                return profiled(argv, args.profile) if args.profile else argv

            app_result = run_target("deathclock", app_argv, app_env, args, tmp)
        floors = run_floors(args, env, tmp, run_target)

    json_line(line_fields(app_result, floors, args))
    return 0


if __name__ == "__main__":
    run_main(main, "servers and clients stopped")
