"""What a table costs when its two phones are on different workers.

    python -m bench.cross_worker --tables 1000 --seconds 30

Needs DEATHCLOCK_TEST_POSTGRES_URL and DEATHCLOCK_TEST_REDIS_URL: the run gets a
PostgreSQL schema and a Redis prefix of its own (both gone afterwards).

1. Starts two workers of one cluster as two `python -m app.cli serve` processes on two
   ports (with `serve --workers 2` on one port the kernel would pick the worker of each
   socket). Half the tables are created on worker A, half on worker B: the worker that
   creates a table owns it (it applies its commands; the other follows it through Redis).
2. Half the tables have both phones on the owner ("same": every message stays in one
   process); the other half have p1 on the owner and p2 on the other worker ("cross": p2's
   commands go to the owner through Redis and their acks come back the same way, and every
   event reaches p2 through Redis). The two kinds share the run, so the same load.
3. Taps as bench/table_latency.py does (every --interval s per table, the running side's
   phone passes the turn; ack latency send -> ack, peer latency send -> the event on the
   other phone; lost and duplicated counted the same way).

One JSON line: peer and ack p50/p99 for each kind (same_*, cross_*), the cross tables' peer
latency by which phone tapped (cross_owner_side_*: p1, on the owner, tapped; the event
went to p2 through Redis; cross_far_side_*: p2 tapped; the command went to the owner
through Redis), what the cross kind adds at p50 and p99, losses, both workers' CPU and RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time
from pathlib import Path
from typing import Any

from bench.harness.load import Workers, phone_worker, run_loop
from bench.harness.measure import Window, cpu_pcts, cpu_sample, percentile, rounded
from bench.harness.options import add_common_options, add_load_options, add_tapping_options
from bench.harness.report import json_line, log, machine_fields, run_main
from bench.harness.servers import (
    Cluster,
    ServerProcess,
    bench_run,
    cluster_env,
    free_port,
    server_command,
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

KINDS = ("same", "cross_owner_side", "cross_far_side")


def kind_of(index: int) -> str:
    """Tables 0, 1 same (owners A, B), 2, 3 cross (owners A, B), and so on."""
    return "same" if index % 4 < 2 else "cross"


def worker_main(
    idx: int,
    port: int,
    rows: list[tuple[int, str, str, str, int, int]],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    """A client process: its share of the tables, each phone on its own worker's port."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    stats = Stats()
    tables = [Table(i, tid, p1, p2, stats) for i, tid, p1, p2, _a, _b in rows]
    ports = {tid: {"p1": a, "p2": b} for _i, tid, _p1, _p2, a, b in rows}
    compression = None if cfg["compression"] == "none" else "deflate"
    pingers: set[asyncio.Task[None]] = set()
    latencies: dict[str, dict[str, list[float]]] = {k: {"ack": [], "peer": []} for k in KINDS}

    async def prepare(table: Table) -> None:
        until = time.monotonic() + PING_BOUND_S
        if not await open_phones(ports[table.id], table, compression, PING_S, until, pingers):
            return
        tap = await table.send(table.phones["p1"], {"c": "start"})
        if not await table.finish(tap, START_TIMEOUT_S):
            stats.start_failures += 1
            return
        table.local_running = "p1"

    def measured(table: Table, tap: Tap, _t0: float, ack_ms: float, peer_ms: float) -> None:
        kind = kind_of(table.index)
        if kind == "cross":
            kind = "cross_owner_side" if tap.sender.side == "p1" else "cross_far_side"
        latencies[kind]["ack"].append(ack_ms)
        latencies[kind]["peer"].append(peer_ms)

    def result() -> dict[str, Any]:
        return {"latencies": latencies}

    run_loop(phone_worker(f"client-{idx}", tables, cfg, ctrl_q, out_q, prepare, measured, result))


def make_rows(
    ports: tuple[int, int], args: argparse.Namespace
) -> list[tuple[str, str, str, int, int]]:
    """Half the tables created (so owned) on each worker; which phone goes where."""
    created = [
        asyncio.run(create_tables(port, n, args.create_concurrency))
        for port, n in zip(ports, ((args.tables + 1) // 2, args.tables // 2), strict=True)
    ]
    rows = []
    for i in range(args.tables):
        owner = i % 2
        tid, p1, p2 = created[owner][i // 2]
        far = ports[1 - owner] if kind_of(i) == "cross" else ports[owner]
        rows.append((tid, p1, p2, ports[owner], far))
    return rows


def run(args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    ports = (free_port(), free_port())
    a, b = (
        ServerProcess(f"worker-{n}", server_command(args, port), env, tmp / f"worker-{n}.log")
        for n, port in zip("ab", ports, strict=True)
    )
    cluster = Cluster(a, b)
    with serving([(a, ports[0]), (b, ports[1])]), Workers() as workers:
        t = time.monotonic()
        rows = make_rows(ports, args)
        log(f"created {len(rows)} tables in {time.monotonic() - t:.1f} s, half on each worker")
        cfg = {"compression": args.compression, "connect_concurrency": args.connect_concurrency}
        n_clients = workers.start_phones(worker_main, 0, rows, cfg, args.clients, "client")
        ready = workers.wait_ready(90 + 0.3 * args.tables)
        live = sum(r["tables"] for r in ready.values())
        log(f"{2 * live} sockets open, {live} games started")
        window = Window.begin("", cluster, workers, args, len(rows), lambda: cpu_sample(cluster))
        window.run(workers, TAP_TIMEOUT_S + 60, lambda _now: "")
        cpu0, cpu1 = window.edges
        return report(args, live, n_clients, window, cpu0, cpu1)


def report(
    args: argparse.Namespace,
    live: int,
    n_clients: int,
    window: Window,
    cpu0: tuple[float, ...],
    cpu1: tuple[float, ...],
) -> dict[str, Any]:
    lat: dict[str, dict[str, list[float]]] = {k: {"ack": [], "peer": []} for k in KINDS}
    counters: dict[str, int] = {}
    client_cpu = 0.0
    for r in window.results.values():
        for kind in KINDS:
            for what in ("ack", "peer"):
                lat[kind][what] += r["latencies"][kind][what]
        for key, value in r["counters"].items():
            counters[key] = counters.get(key, 0) + value
        client_cpu += r["client_cpu_pct"] or 0.0
        for e in r["errors"][:10]:
            log(e)
    lat["cross"] = {w: lat["cross_owner_side"][w] + lat["cross_far_side"][w] for w in lat["same"]}
    cpu = cpu_pcts(cpu0, cpu1, client_cpu)
    out: dict[str, Any] = {"tables": live, "sockets": 2 * live, "seconds": args.seconds}
    for kind in ("same", "cross", "cross_owner_side", "cross_far_side"):
        out[f"{kind}_taps"] = len(lat[kind]["peer"])
        for what in ("peer", "ack"):
            for p in (50, 99):
                out[f"{kind}_{what}_p{p}_ms"] = rounded(percentile(lat[kind][what], p))
    for p in (50, 99):
        same, cross = out[f"same_peer_p{p}_ms"], out[f"cross_peer_p{p}_ms"]
        out[f"cross_adds_peer_p{p}_ms"] = (
            None if same is None or cross is None else rounded(cross - same)
        )
    out |= {
        "lost": counters.get("lost", 0),
        "duplicated": counters.get("duplicated", 0),
        "rejected": counters.get("rejected", 0),
        "version_mismatch": counters.get("version_mismatch", 0),
        "connect_failures": counters.get("connect_failures", 0),
        "games_finished": counters.get("games_finished", 0),
        "interval_s": args.interval,
        "server_cpu_pct": cpu.pop("server_cpu_pct"),
        "server_rss_mb": rounded(window.rss_end, 1),
        **cpu,
        "clients": n_clients,
        "workers": 2,
        **machine_fields(),
    }
    targets = {
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "cross_peer_p99_le_10ms": (out["cross_peer_p99_ms"] or 1e9) <= 10,
        "same_peer_p99_le_10ms": (out["same_peer_p99_ms"] or 1e9) <= 10,
    }
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cross_worker", description=__doc__)
    add_tapping_options(parser)
    add_common_options(parser)
    add_load_options(parser)
    args = parser.parse_args(argv)
    if args.tables < 4 or args.seconds <= 0 or args.interval <= 0 or args.warmup < 0:
        parser.error("--tables must be 4 or more; --seconds and --interval positive")
    if args.port:
        parser.error("--port does not apply: the two workers take free ports")
    with (
        bench_run(4 * args.tables + 1024, args.db_dir, "deathclock-cross-") as (tmp, env),
        cluster_env(env, 2) as cluster,
    ):
        out = run(args, cluster, tmp)
    json_line(out)
    return 0


if __name__ == "__main__":
    run_main(main, "workers and clients stopped")
