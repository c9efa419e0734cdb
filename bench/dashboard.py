"""Load and latency benchmark of the EO dashboard socket, under a full round of taps.

    python -m bench.dashboard --tables 500 --dashboards 20 --seconds 60

1. Starts the real server (`python -m app.cli serve`, one uvicorn worker, a fresh SQLite
   file in a temporary directory). Over REST it creates an event, imports 2 x --tables
   players from one CSV, pairs round 1 and starts it (the EO starts every clock), then
   reads the seat links of every table.
2. Opens two phone sockets per table and --dashboards EO dashboard sockets
   (`/ws/events/<id>`). Every socket pings every --ping seconds as the pages do.
3. Every table taps every --interval seconds (tables staggered uniformly over the
   interval): the phone whose clock is running sends `pass_turn` with the turn-end
   answers the game view says are due. Peer latency is send -> the event with the tap's
   version on the other phone. Dashboard latency is send -> the first `tables` message
   on a dashboard whose row for that table shows the tap's new state (phase, turn and
   running side), taken for every dashboard. A tap without its ack or peer event within
   5 s is lost; a dashboard that does not show it within 5 s loses it.
4. Measures the server process's CPU (% of one core over the measured window) and RSS.
5. Prints one JSON line on stdout; progress goes to stderr.

The phones run in --clients worker processes and the dashboards in one more (uvloop when
installed); the parent only sets the event up, samples the server and merges. Tap and
dashboard times are taken on the machine's monotonic clock, shared by the processes.
Everything talks to 127.0.0.1 only, and every wait is bounded, so the run ends by itself;
the server is stopped on exit, on an error and on Ctrl-C.

The client and the server share the machine's cores: client_cpu_pct says how much the
load generator used, other_cpu_pct how much every other process on the machine used
while measuring, and steal_cpu_pct how much CPU a virtual machine wanted but its host
gave to others (both in % of one core; either shows up in the latency tail). A game
lasts 18 taps (90 s at 5-s taps); longer runs stop tapping finished tables and count them
in games_finished.

Diagnostics: --dashboards 0 runs the same taps without dashboards; --timeline PATH
writes every measured tap's latencies to a CSV file; --server-prefix runs the server
under a profiler or wrapper (e.g. 'py-spy record -o prof.svg --'); --db-dir puts the
SQLite file elsewhere.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from bench.dashboard_event import Progress, progress_of, setup_event
from bench.dashboard_figures import line_fields, match_dashboards, write_timeline
from bench.dashboard_screens import DASHBOARD_TIMEOUT_S, dashboards_main
from bench.harness.load import Workers, phone_worker, run_loop
from bench.harness.measure import (
    Window,
    cpu_pcts,
    cpu_sample,
    cpu_seconds,
    machine_busy_seconds,
    steal_seconds,
)
from bench.harness.options import add_common_options, add_load_options
from bench.harness.report import json_line, log
from bench.harness.results import cpu_ms_per_tap, merge_results
from bench.harness.servers import ServerProcess, bench_run, free_port, server_command, serving
from bench.harness.sockets import TAP_TIMEOUT_S, Stats, Table, Tap, open_phones

MERGED = ("taps", "ack_ms", "peer_ms", "send_lag_ms", "errors")


class MachineLoad:
    """The machine's busy and stolen CPU since the last progress line, for the next one."""

    def __init__(self) -> None:
        self.last: tuple[float, float, float] | None = None

    def line(self, now: float) -> str:
        busy, steal = machine_busy_seconds(), steal_seconds()
        text = ""
        if self.last is not None:
            dt = now - self.last[0]
            machine, stolen = (busy - self.last[1]) / dt, (steal - self.last[2]) / dt
            text = f", machine {machine:.0%}, steal {stolen:.0%}"
        self.last = (now, busy, steal)
        return text


def phones_main(
    idx: int,
    port: int,
    rows: list[tuple[int, str, str, str]],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    """A phone process: its share of the event's tables, both phones open and pinging;
    each measured tap's new state goes back to be matched with the dashboards' rows."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    stats = Stats()
    tables = [Table(i, tid, p1, p2, stats) for i, tid, p1, p2 in rows]
    compression = None if cfg["compression"] == "none" else "deflate"
    pingers: set[asyncio.Task[None]] = set()
    taps: list[tuple[str, float, Progress, float]] = []

    async def prepare(table: Table) -> None:
        if not await open_phones(
            port, table, compression, cfg["ping_s"], cfg["stop_pings_at"], pingers
        ):
            return
        game = json.loads(table.latest_text).get("game") if table.latest_text else None
        if not isinstance(game, dict) or game.get("running") not in ("p1", "p2"):
            stats.start_failures += 1
            stats.note(f"table {table.id}: no clock runs after the round start: {str(game)[:200]}")
            table.stopped = True

    def measured(table: Table, tap: Tap, t0: float, ack_ms: float, peer_ms: float) -> None:
        if table.latest_v == tap.expect_v:  # the event of this tap: its new state
            state = progress_of(json.loads(table.latest_text)["game"])
            taps.append((table.id, t0, state, peer_ms))
        else:
            stats.version_mismatch += 1

    def result() -> dict[str, Any]:
        return {"taps": taps}

    run_loop(phone_worker(f"phones-{idx}", tables, cfg, ctrl_q, out_q, prepare, measured, result))


# ----------------------------------------------------------------------------
# One run: server + event + phones + dashboards
# ----------------------------------------------------------------------------


def run(args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    """The server, the event, the phones and the dashboards; the measured window."""
    port = args.port or free_port()
    server = ServerProcess("deathclock", server_command(args, port), env, tmp / "server.log")
    me = psutil.Process()
    with serving([(server, port)]), Workers() as workers:
        event = setup_event(port, args.tables)
        rows: list[tuple[str, str, str]] = event["rows"]
        # Sockets ping from the moment they open until well after the last tap.
        budget = 120 + 0.3 * args.tables + 10 * args.dashboards + args.warmup + args.seconds
        cfg = {
            "compression": args.compression,
            "connect_concurrency": args.connect_concurrency,
            "ping_s": args.ping,
            "stop_pings_at": time.monotonic() + budget + args.quiet_wait + 60,
            "schedule_wait_s": budget + args.quiet_wait + 60,
        }
        n_clients = workers.start_phones(phones_main, port, rows, cfg, args.clients, "phones")
        dashboard_args = (port, event["event_id"], event["token"], len(rows), args.dashboards, cfg)
        workers.start(dashboards_main, dashboard_args, "dashboards")
        ready = workers.wait_ready(budget)
        live = sum(r.get("tables", 0) for r in ready.values())
        snapshot_kb = ready["dashboards"]["snapshot_kb"]
        log(
            f"{2 * live} phone sockets and {args.dashboards} dashboards open "
            f"(first dashboard message {snapshot_kb or 0:.0f} kB)"
        )

        def sample() -> tuple[float, ...]:
            return (*cpu_sample(server), cpu_seconds(me))  # and this parent's own CPU

        window = Window.begin("", server, workers, args, len(rows), sample)
        window.run(workers, TAP_TIMEOUT_S + DASHBOARD_TIMEOUT_S + 60, MachineLoad().line)
        server_log = server.log_tail(200)

    cpu0, cpu1 = window.edges
    results = window.results
    dash = results.pop("dashboards")
    merged, counters, client_cpu = merge_results(results.values(), MERGED)
    taps: list[tuple[str, float, Progress, float]] = merged["taps"]
    for r in ready.values():
        merged["errors"] += r["errors"]
    for e in merged["errors"][:10] + dash["errors"][:10]:
        log(e)
    for text in server_log.splitlines():
        if "Traceback" in text or "ERROR" in text or "Exception" in text:
            log(f"server log: {text}")
    matched = match_dashboards(taps, dash["seen"])
    if args.timeline:
        write_timeline(Path(args.timeline), window.first_at, taps, matched["per_tap"])
        log(f"per-tap latencies written to {args.timeline}")
    client_cpu += dash["client_cpu_pct"] or 0.0
    client_cpu += (cpu1[4] - cpu0[4]) / (cpu1[0] - cpu0[0]) * 100  # the parent's own share
    messages: list[int] = dash["messages"]
    per_s = args.seconds * max(1, len(messages))
    return {
        "tables": live,
        "phone_sockets": 2 * live,
        "event": event,
        "snapshot_kb": snapshot_kb,
        "dashboard_connect_s": ready["dashboards"]["seconds"],
        "phones_connect_s": max(r["seconds"] for k, r in ready.items() if k != "dashboards"),
        "taps": counters.get("taps", 0),
        "matched_taps": len(taps),
        "ack_ms": merged["ack_ms"],
        "peer_ms": merged["peer_ms"],
        "send_lag_ms": merged["send_lag_ms"],
        "counters": counters,
        "dashboard": matched,
        "dashboard_messages_per_s": sum(messages) / per_s if messages else None,
        "dashboard_rows_per_message": sum(dash["rows"]) / sum(messages) if messages else None,
        "dashboard_kb_per_s": sum(dash["bytes"]) / per_s / 1024 if messages else None,
        "dashboard_gaps_ms": dash["gaps_ms"],
        "dashboard_out_of_order": dash["out_of_order"],
        "dashboard_closed": dash["closed"],
        "dashboard_other_messages": dash["other_messages"],
        **cpu_pcts(cpu0, cpu1, client_cpu),
        "server_cpu_ms_per_tap": cpu_ms_per_tap(cpu0, cpu1, counters.get("taps", 0)),
        "server_rss_mb": window.rss_end,
        "server_rss_max_mb": window.rss_max,
        "clients": n_clients,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dashboard", description=__doc__)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument(
        "--dashboards", type=int, default=20, help="EO dashboard sockets (0: phones only)"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="taps before measuring")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument(
        "--ping",
        type=float,
        default=4.0,
        metavar="S",
        help="every socket sends {'t':'ping'} every S s, as the pages do (0: never)",
    )
    parser.add_argument("--clients", type=int, default=1, help="phone client processes")
    add_common_options(parser)
    add_load_options(parser)
    parser.add_argument(
        "--timeline", metavar="PATH", help="write each measured tap's latencies to a CSV file"
    )
    args = parser.parse_args(argv)
    if (
        args.tables < 1
        or args.dashboards < 0
        or args.seconds <= 0
        or args.interval <= 0
        or args.warmup < 0
        or args.ping < 0
    ):
        parser.error("--tables, --seconds and --interval must be positive")

    with bench_run(4 * args.tables + 4 * args.dashboards + 1024, args.db_dir) as (tmp, env):
        result = run(args, env, tmp)

    json_line(line_fields(result, args))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        log("interrupted; server and clients stopped")
        sys.exit(130)
    except RuntimeError as exc:  # setup refused, a client died, a deadline passed
        log(f"failed: {exc}; server and clients stopped")
        sys.exit(1)
