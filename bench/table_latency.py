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

from bench.common import (
    HOST,
    START_TIMEOUT_S,
    TAP_TIMEOUT_S,
    ServerProcess,
    Stats,
    Table,
    Tap,
    Window,
    Workers,
    add_common_options,
    add_load_options,
    bench_run,
    cpu_fields,
    free_port,
    log,
    machine_busy_seconds,
    machine_fields,
    open_phones,
    percentile,
    phone_worker,
    postgres_schema,
    rounded,
    run_loop,
    run_main,
    seat_token,
    server_argv,
    steal_seconds,
)


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


def _floor_fields(prefix: str, result: dict[str, Any]) -> dict[str, Any]:
    """A floor's figures, each named with `prefix`."""
    b, bc = summary(result), result["counters"]
    fields = {
        "peer_p50_ms": b["peer_p50_ms"],
        "peer_p99_ms": b["peer_p99_ms"],
        "ack_p50_ms": b["ack_p50_ms"],
        "ack_p99_ms": b["ack_p99_ms"],
        "start_ack_p99_ms": b["start_ack_p99_ms"],
        "taps": result["taps"],
        "lost": bc.get("lost", 0),
        "duplicated": bc.get("duplicated", 0),
        **cpu_fields(result),
    }
    return {f"{prefix}_{name}": value for name, value in fields.items()}


def _targets(out: dict[str, Any]) -> dict[str, bool]:
    """The goals, met or not; against each floor that ran, ours within 2x at p50 and p99."""
    targets = {
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "ack_p99_le_10ms": out["ack_p99_ms"] is not None and out["ack_p99_ms"] <= 10,
        "peer_p99_le_10ms": out["peer_p99_ms"] is not None and out["peer_p99_ms"] <= 10,
        "rss_le_300mb": out["server_rss_mb"] <= 300,
    }
    for prefix in ("bare", "bare_cluster", "bare_durable"):
        for q in ("p50", "p99"):
            ours, floor = out["peer_" + q + "_ms"], out.get(f"{prefix}_peer_{q}_ms")
            if floor is not None and ours is not None:
                targets[f"peer_{q}_le_2x_{prefix}"] = ours <= 2 * floor
    return targets


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


def summary(result: dict[str, Any]) -> dict[str, Any]:
    ack, peer = result["ack_ms"], result["peer_ms"]
    return {
        "ack_p50_ms": rounded(percentile(ack, 50)),
        "ack_p99_ms": rounded(percentile(ack, 99)),
        "ack_max_ms": rounded(max(ack) if ack else None),
        "peer_p50_ms": rounded(percentile(peer, 50)),
        "peer_p99_ms": rounded(percentile(peer, 99)),
        "peer_max_ms": rounded(max(peer) if peer else None),
        "send_lag_p99_ms": rounded(percentile(result["send_lag_ms"], 99)),
        "start_ack_p50_ms": rounded(percentile(result["start_ms"], 50)),
        "start_ack_p99_ms": rounded(percentile(result["start_ms"], 99)),
    }


def _run_floors(
    args: argparse.Namespace, env: dict[str, str], tmp: Path
) -> list[tuple[str, dict[str, Any]]]:
    """The same load against the relay: bare, then (several workers) as a cluster and as a
    durable cluster, then spending --busy-floor microseconds a tap; each with its prefix."""

    def bare_argv(port: int) -> list[str]:
        return [sys.executable, "-m", "bench.bare_relay", "--host", HOST, "--port", str(port)]

    several = ["--workers", str(args.workers)] if args.workers > 1 else []
    if several:
        several += ["--redis", os.environ["DEATHCLOCK_TEST_REDIS_URL"]]
    runs: list[tuple[str, list[str]]] = []
    if not args.no_bare:
        runs.append(("bare", []))
        if several:
            log = ["--log", os.environ["DEATHCLOCK_TEST_POSTGRES_URL"]]
            runs += [("bare_cluster", several), ("bare_durable", [*several, *log])]
    runs += [(f"bare_busy{us}", [*several, "--busy-us", str(us)]) for us in args.busy_floor]
    floors = []
    for prefix, extra in runs:

        def argv(port: int, extra: list[str] = extra) -> list[str]:
            return [*bare_argv(port), *extra]

        name = "bare-relay" if prefix == "bare" else prefix.replace("_", "-")
        floors.append((prefix, run_target(name, argv, env, args, tmp)))
    return floors


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
        floors = _run_floors(args, env, tmp)

    c = app_result["counters"]
    out: dict[str, Any] = {
        "tables": app_result["tables"],
        "sockets": app_result["sockets"],
        "seconds": args.seconds,
        "warmup_s": args.warmup,
        "interval_s": args.interval,
        "taps": app_result["taps"],
        "taps_total": app_result["taps_total"],
        **summary(app_result),
        "lost": c.get("lost", 0),
        "duplicated": c.get("duplicated", 0),
        "rejected": c.get("rejected", 0),
        "version_mismatch": c.get("version_mismatch", 0),
        "connect_failures": c.get("connect_failures", 0),
        "games_finished": c.get("games_finished", 0),
        **cpu_fields(app_result),
        "server_full_gc": len(app_result["full_walks"]),
        "server_full_gc_max_ms": max(app_result["full_walks"], default=0),
        "clients": app_result["clients"],
        "compression": args.compression,
        **machine_fields(),
        "workers": args.workers,
        "tables_per_core": rounded(app_result["tables"] / (os.cpu_count() or 1), 1),
    }
    for prefix, result in floors:
        out |= _floor_fields(prefix, result)
    targets = _targets(out)
    noisy = [k for k in ("other_cpu_pct", "bare_other_cpu_pct") if (out.get(k) or 0) > 25]
    if noisy:
        log(
            "other processes used a lot of CPU while measuring "
            f"({', '.join(f'{k} {out[k]}' for k in noisy)}): latencies include their noise"
        )
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    print(json.dumps(out, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    run_main(main, "servers and clients stopped")
