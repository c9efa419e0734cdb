"""Thundering-herd benchmark: every phone of the hall drops at once and comes back.

    python -m bench.herd --phones 2000                # 1000 tables, one worker
    python -m bench.herd --phones 2000 --workers 2    # two workers on PostgreSQL + Redis

1. Starts the real server (`python -m app.cli serve`; with --workers N > 1 on a PostgreSQL
   schema and a Redis prefix of the run's own: DEATHCLOCK_TEST_POSTGRES_URL and
   DEATHCLOCK_TEST_REDIS_URL), creates --phones / 2 tables over REST, opens both phones of
   each (the p1 and p2 links) and starts every game.
2. Games go on: every table taps about every --interval s (tables staggered over the
   interval): the phone whose clock runs sends `pass_turn` with the turn-end answers its
   game view says are due, once its phone holds the current state and the table's last
   command is answered (as on a real phone). Every phone pings every --ping s.
3. After --before s of taps, EVERY phone drops its socket at the same moment, abruptly
   (--drop reset: a TCP reset, no close frame; --drop silent: the socket is left open and
   unread, as a phone whose Wi-Fi vanished, and the server finds out by its heartbeat).
4. Each phone comes back after a uniform random delay of 0..--spread s, as a phone does:
   hello with "v", the last version it saw (the server sends what was missed, or the whole
   state), then every command not acked before the drop again with the same seq (the
   server answers "dup" for one it had applied), and a ping.
5. Taps go on for --after s after the last phone's return, then stop; once every command
   is answered and every phone current (bounded wait), each table asks for its state
   ("sync") and is checked.

Counted:
  resync_ms    per phone: reconnect start (before the socket opens) -> the phone holds
               the table's version at that moment AND has the pong of the ping sent after
               hello (the server queues it behind whatever it sends for the hello), so the
               phone has everything the server had for it. A phone that is not resynced
               within RESYNC_BOUND_S, or not at all, is an incomplete resync.
  lost         a command never answered; an ack whose version is above the table's final
               version; an ack saying "dup" for a command sent once (it was not applied).
  duplicated   an ack whose version is not the table's next one, two commands acked with
               one version, a version of the final state no command claims (something was
               applied twice), or a phone that saw one version twice.
  rejected     a command refused with an error (targets_met.lost_0 needs none either).
  cpu          server, client and every other process over the herd (the drop -> the last
               return + HERD_TAIL_S); client_lag_p99_ms how late this generator's event
               loop woke up meanwhile (resync times include it).
  server_slow_gc_ms  every garbage collection of 100 ms or more the server logged from
               the first tap on (app.collector logs them): every tap in flight waited.

The floor (bare_*; not with --no-bare): the same herd against bench/bare_relay.py (with
--workers N, as a cluster of N workers with Redis between them), which answers a hello
with its version and relays taps with no rules and no storage: what the sockets' own
opening, hello and pong cost on this machine with this many phones coming back at once.
Its phones tap in turn (it keeps no game view to tap from) and its tables are not
checked (it keeps no state): only its resync times and CPU are reported, and
resync_p99_ms_x_bare compares the server's with them.

One JSON line goes to stdout, progress to stderr; everything talks to 127.0.0.1 and every
wait is bounded. The server, its workers and the client processes are stopped on exit.
"""

import argparse
import asyncio
import time
from collections import Counter
from typing import Any

from bench.harness.load import Workers
from bench.harness.measure import (
    cpu_pcts,
    cpu_sample,
    percentile,
    ratio,
    rounded,
    wait_for_quiet,
)
from bench.harness.options import add_common_options, add_load_options
from bench.harness.report import json_line, log, machine_fields, run_main
from bench.harness.servers import (
    ServerProcess,
    bare_relay_argv,
    bench_run,
    cluster_env,
    free_port,
    relay_cluster_args,
    server_command,
    serving,
)
from bench.harness.tables import create_tables
from bench.herd_client import HERD_TAIL_S, MAX_NOTES, SETTLE_S, SYNC_WAIT_S, Schedule, client_main


def collect(
    workers: Workers, server: ServerProcess, s: Schedule, label: str
) -> tuple[dict[str, dict[str, Any]], list[tuple[float, ...]], float]:
    """Every client's result; CPU samples at the drop and at the herd's end; peak RSS."""
    herd_end = s.drop_at + s.spread + HERD_TAIL_S
    edges: list[tuple[float, ...]] = []
    results: dict[str, dict[str, Any]] = {}
    rss_max = 0.0
    deadline = s.end_at + SETTLE_S + SYNC_WAIT_S + 60
    next_log = s.drop_at
    while len(results) < len(workers.procs):
        now = time.monotonic()
        if now > deadline:
            raise RuntimeError("the clients did not report in time")
        if len(edges) < 2 and now >= (s.drop_at, herd_end)[len(edges)]:
            edges.append(cpu_sample(server))
        if now >= next_log:
            rss_max = max(rss_max, server.rss_mb())
            log(f"{label}t{now - s.drop_at:+.0f}s from the drop, server rss {rss_max:.0f} MB")
            next_log += 5.0
        msg = workers.get(0.05)
        if msg is not None and msg[0] == "result":
            results[msg[1]] = msg[2]
    while len(edges) < 2:
        edges.append(cpu_sample(server))
    return results, edges, max(rss_max, server.rss_mb())


def run_herd(
    args: argparse.Namespace, env: dict[str, str], tmp: Any, floor: bool = False
) -> dict[str, Any]:
    """The herd against the server, or (`floor`) against the bare relay."""
    port = args.port or free_port()
    if floor:
        name, argv = "bare-relay", [*bare_relay_argv(port), *relay_cluster_args(args.workers)]
    else:
        name, argv = "deathclock", server_command(args, port, "--workers", str(args.workers))
    server = ServerProcess(name, argv, env, tmp / f"{name}.log")
    with serving([(server, port)]), Workers() as workers:
        t = time.monotonic()
        rows = asyncio.run(create_tables(port, args.phones // 2, args.create_concurrency))
        log(f"created {len(rows)} tables in {time.monotonic() - t:.1f} s")
        cfg = {
            "compression": args.compression,
            "connect_concurrency": args.connect_concurrency,
            "ping_s": args.ping,
            "seed": args.seed,
            "drop": args.drop,
            "gameless": floor,
        }
        n_clients = workers.start_phones(client_main, port, rows, cfg, args.clients, "client")
        ready = workers.wait_ready(90 + 0.3 * len(rows))
        live = sum(r["tables"] for r in ready.values())
        log(f"{2 * live} phones connected, {live} games started")
        rss_before = server.rss_mb()
        if args.quiet_wait > 0:
            log(f"other processes use {wait_for_quiet(args.quiet_wait):.0f}% of a core")
        first_at = time.monotonic() + 1.0
        drop_at = first_at + args.before
        s = Schedule(
            first_at,
            args.interval,
            len(rows),
            drop_at,
            args.spread,
            drop_at + args.spread + args.after,
        )
        for q in workers.ctrl_qs:
            q.put(s)
        log(
            f"taps every {args.interval:g} s per table; every phone drops in {args.before + 1:g} s "
            f"({args.drop}) and comes back within {args.spread:g} s; taps for {args.after:g} s more"
        )
        logged = server.log_size()
        results, edges, rss_max = collect(workers, server, s, f"{name}: ")
        rss_end = server.rss_mb()
        slow_gc = server.slow_collections(logged)
    out = report(args, live, n_clients, results, edges, (rss_before, rss_end, rss_max))
    return out | {"server_slow_gc_ms": slow_gc}


def report(
    args: argparse.Namespace,
    live: int,
    n_clients: int,
    results: dict[str, dict[str, Any]],
    edges: list[tuple[float, ...]],
    rss: tuple[float, float, float],
) -> dict[str, Any]:
    merged: dict[str, list[Any]] = {
        k: [] for k in ("resync_ms", "open_ms", "ack_before_ms", "ack_after_ms", "lag_ms", "notes")
    }
    c: Counter[str] = Counter()
    client_cpu = 0.0
    for r in results.values():
        for key, values in merged.items():
            values += r[key]
        c.update(r["counters"])
        client_cpu += r["client_cpu_pct"] or 0.0
    for n in merged["notes"][:MAX_NOTES]:
        log(f"note: {n}")
    resync = merged["resync_ms"]
    out: dict[str, Any] = {
        "phones": 2 * live,
        "tables": live,
        "workers": args.workers,
        "drop": args.drop,
        "spread_s": args.spread,
        "interval_s": args.interval,
        "taps_before": c["taps_before"],
        "taps_after": c["taps_after"],
        "resyncs": len(resync),
        "resync_p50_ms": rounded(percentile(resync, 50)),
        "resync_p99_ms": rounded(percentile(resync, 99)),
        "resync_max_ms": rounded(max(resync) if resync else None),
        # Of which the socket's opening (TCP and WebSocket handshakes, as the client saw them).
        "resync_open_p50_ms": rounded(percentile(merged["open_ms"], 50)),
        "resync_open_p99_ms": rounded(percentile(merged["open_ms"], 99)),
        # Every phone of a live table drops once: those without a measured resync did not
        # get one within RESYNC_BOUND_S (or at all).
        "resync_incomplete": 2 * live - len(resync),
        "resync_by": {k: c[f"resync_{k}"] for k in ("events", "state", "none")},
        "lost": c["lost"],
        "duplicated": c["duplicated"],
        "rejected": c["rejected"],
        "phones_behind": c["phones_behind"],
        "unchecked_tables": c["unchecked_tables"],
        "resends": c["resends"],
        "resent_acked_dup": c["resent_acked_dup"],
        "resent_acked_fresh": c["resent_acked_fresh"],
        "reconnects": c["reconnects"],
        "connect_failures": c["connect_failures"],
        "server_closes": c["server_closes"],
        "server_errors": c["server_errors"],
        "client_errors": c["client_errors"],
        "ack_p99_before_ms": rounded(percentile(merged["ack_before_ms"], 99)),
        "ack_p99_after_ms": rounded(percentile(merged["ack_after_ms"], 99)),
        **cpu_pcts(edges[0], edges[1], client_cpu),
        "client_lag_p99_ms": rounded(percentile(merged["lag_ms"], 99), 1),
        "server_rss_before_mb": rounded(rss[0], 1),
        "server_rss_end_mb": rounded(rss[1], 1),
        "server_rss_max_mb": rounded(rss[2], 1),
        "clients": n_clients,
        **machine_fields(),
    }
    p99 = out["resync_p99_ms"]
    targets = {
        "resync_p99_le_1000ms": p99 is not None and p99 <= 1000,
        "resync_complete": out["resync_incomplete"] == 0,
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
    }
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out


def floor_fields(out: dict[str, Any], bare: dict[str, Any]) -> dict[str, Any]:
    """The relay's resync times and CPU under the same herd, and the server's as a
    multiple of them."""
    fields = {
        f"bare_{key}": bare[key]
        for key in (
            "resync_p50_ms",
            "resync_p99_ms",
            "resync_open_p99_ms",
            "resync_incomplete",
            "taps_after",
            "server_cpu_pct",
            "client_cpu_pct",
            "steal_cpu_pct",
        )
    }
    fields["resync_p99_ms_x_bare"] = ratio(out["resync_p99_ms"], bare["resync_p99_ms"])
    return fields


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.herd", description=__doc__)
    parser.add_argument("--phones", type=int, default=2000, help="two per table")
    parser.add_argument("--workers", type=int, default=1, help="server workers")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--before", type=float, default=10.0, help="seconds of taps first")
    parser.add_argument("--spread", type=float, default=1.0, help="phones return within S s")
    parser.add_argument("--after", type=float, default=10.0, help="seconds of taps after")
    parser.add_argument("--ping", type=float, default=4.0, help="seconds between pings")
    parser.add_argument("--drop", choices=("reset", "silent"), default="reset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--create-concurrency", type=int, default=16)
    parser.add_argument("--no-bare", action="store_true", help="skip the bare relay's floor")
    add_common_options(parser)
    add_load_options(parser)
    args = parser.parse_args(argv)
    if args.phones < 2 or args.phones % 2:
        parser.error("--phones must be an even number, 2 or more (two phones a table)")
    if args.interval <= 0 or args.before < 0 or args.after < 0 or args.spread < 0:
        parser.error("--interval must be positive; --before, --after and --spread not negative")
    if not 0 < args.ping < 10:
        parser.error("--ping must be under the server's 10 s heartbeat")
    with (
        bench_run(2 * args.phones + 1024, args.db_dir, "deathclock-herd-") as (tmp, env),
        cluster_env(env, args.workers) as app_env,
    ):
        out = run_herd(args, app_env, tmp)
        if not args.no_bare:
            out.update(floor_fields(out, run_herd(args, app_env, tmp, floor=True)))
    json_line(out)
    return 0


if __name__ == "__main__":
    run_main(main)
