"""Soak benchmark of the table socket: phones that drop, come back and resync.

    python -m bench.soak --tables 1000 --seconds 600

1. Starts the real server (`python -m app.cli serve`, one uvicorn worker, a fresh SQLite
   file in a temporary directory), creates the tables over REST, opens two phone sockets
   per table (the p1 and p2 links) and starts every game.
2. For --seconds, every table taps about every --interval seconds (tables staggered over
   the interval): the phone whose clock is running sends `pass_turn` with the turn-end
   answers its game view says are due (kill box: no; scoring: nothing). As on a real
   phone, only the running side taps, and only once its phone holds the current state;
   while that phone is away, the table waits. Every phone pings every --ping seconds.
   When a game is over, its phones leave and a fresh table takes its place.
3. At random (seeded by --seed), phones drop their socket, abruptly (no close frame) or
   with a normal close, now and then right after sending a tap (--tap-drop). They stay
   away --away-min..--away-max seconds, come back with hello "v": the last version seen,
   and re-send every command not yet acked, with the same seq. Phones do not tap while
   away (queued offline commands are merged by another path, not exercised here).
4. At the end, drops and taps stop; once the away phones are back and every command is
   answered (bounded wait), each table is checked, then the server's RSS is read.

Counted:
  taps         pass_turn commands acked.
  lost         a command that never got an ack or error; an ack whose version never shows
               on a phone (neither as that command's event nor inside a later state); an
               ack saying "dup" for a command that was never applied.
  duplicated   a command applied twice: an ack whose version is not the table's next one
               (the version jumped), the clock passed twice (two pass_turn in a row for
               one side), a version no command of the table claims, two commands acked
               with one version, or a re-send of an applied command not answered dup (it
               ran again: its version jumps, or it is refused as stale).
  rejected     a command refused with an error (targets_met.lost_0 needs none either).
  reconnects   sockets reopened after a drop (the phone's own, or the server's).
  resync_ms    reconnect socket open -> the phone holds the current state: the `state`, or
               the last missed `event` (the table's version at the moment the socket
               opened); when nothing was missed, the first pong after hello (which the
               server queues behind any missed event) is that moment.
  rss          the server's RSS after setup (rss_start_mb) and after the soak (rss_end_mb).
  cpu          the server's CPU (% of one core) over the soak; client_cpu_pct this load
               generator; other_cpu_pct every other process on the machine.
  client_lag   how late this generator's event loop wakes up (sampled every 100 ms): a
               message is timed when the loop reads it, so resync times include this lag.
               After setup the generator freezes its heap and makes its garbage
               collections rare, so that its own pauses stay out of the measurements.

Progress goes to stderr every ~10 s; one JSON line goes to stdout. Everything talks to
127.0.0.1 only and every wait and loop is bounded: the run ends by itself, and the
server is stopped on exit, error, SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import time
from collections import Counter
from typing import Any

from bench.harness.load import run_loop
from bench.harness.measure import sample_loop_lag
from bench.harness.options import add_common_options
from bench.harness.report import json_line, log, run_main
from bench.harness.servers import ServerProcess, bench_run, free_port, server_argv, serving
from bench.harness.tables import table_client
from bench.soak_figures import CpuSample, Progress, Readings, cpu_sample, log_notes, report
from bench.soak_hall import RETIRE_WAIT_S, Config, Soak

DRAIN_S = 40.0  # after the soak: every away phone back, every command answered
CLIENT_GC_THRESHOLD = (50_000, 20, 20)


async def set_up(soak: Soak) -> int:
    """A table in every slot, each game started and answered; how many tables are live."""
    cfg = soak.cfg
    perf = time.perf_counter
    t = perf()
    opened = await asyncio.wait_for(
        asyncio.gather(*(soak.open_table(s) for s in soak.slots)),
        timeout=120 + 0.3 * cfg.tables,
    )
    deadline = perf() + 30
    while perf() < deadline and any(t.unresolved for t in soak.tables()):
        await asyncio.sleep(0.1)
    live = sum(opened)
    log(f"setup: {live} tables, {2 * live} sockets open and games started in {perf() - t:.1f} s")
    if live < cfg.tables:
        log(f"setup: {cfg.tables - live} tables failed: {soak.notes[:5]}")
    return live


def quiet_client_collector() -> None:
    """This generator's own collector must not pause it in the middle of a measurement:
    what setup built is frozen, and collections become rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*CLIENT_GC_THRESHOLD)


async def watch_server(soak: Soak, rss_start: float, cpu0: CpuSample) -> float:
    """Until the soak ends: fail if the server exited, log progress; the peak RSS."""
    server = soak.server
    assert soak.t_end is not None
    perf = time.perf_counter
    rss_max = rss_start
    progress = Progress(soak, cpu0)
    for _ in range(int(soak.cfg.seconds) + 10):
        now = perf()
        if now >= soak.t_end:
            break
        if server.proc is not None and server.proc.poll() is not None:
            raise RuntimeError(
                f"the server exited with {server.proc.returncode}:\n{server.log_tail()}"
            )
        rss = server.rss_mb()
        rss_max = max(rss_max, rss)
        progress.tick(now, rss)
        await asyncio.sleep(min(1.0, max(0.0, soak.t_end - perf())))
    return rss_max


async def drain(soak: Soak, drivers: list[asyncio.Task[None]]) -> None:
    """No more taps or drops; away phones come back when their time is up; every table
    is checked."""
    perf = time.perf_counter
    soak.draining = True
    log("soak over: waiting for away phones and every answer")
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*drivers, return_exceptions=True), RETIRE_WAIT_S + 30)
    deadline = perf() + soak.cfg.away_max + DRAIN_S
    while perf() < deadline and not all(t.settled() for t in soak.tables()):
        await asyncio.sleep(0.2)
    await asyncio.gather(*(soak.retire(s, 0.0) for s in soak.slots if s.table))


def stop_everything(soak: Soak, drivers: list[asyncio.Task[None]]) -> None:
    soak.stopping = True
    for task in drivers:
        task.cancel()
    for phone in soak.phones():
        phone.wake.set()
        if phone.ws is not None:
            phone.ws.transport.abort()
    for phone in soak.phones():
        if phone.life is not None:
            phone.life.cancel()
    for task in list(soak.tasks):
        task.cancel()


async def run(cfg: Config, port: int, server: ServerProcess) -> dict[str, Any]:
    soak = Soak(cfg, port, server)
    perf = time.perf_counter
    drivers: list[asyncio.Task[None]] = []
    try:
        async with table_client(port, cfg.create_concurrency) as http:
            soak.http = http
            live = await set_up(soak)
            quiet_client_collector()
            await asyncio.sleep(1.0)
            rss_start = server.rss_mb()
            setup_counts = Counter(soak.c)
            soak.t_start = perf() + 0.5
            soak.t_end = soak.t_start + cfg.seconds
            cpu0 = cpu_sample(server)
            log(
                f"soak: {cfg.seconds:g} s, taps every ~{cfg.interval:g} s per table, "
                f"pings every {cfg.ping_s:g} s, a phone drops every ~{cfg.drop_mean:g} s "
                f"and after {cfg.tap_drop:.0%} of its taps, away {cfg.away_min:g}-"
                f"{cfg.away_max:g} s; server RSS {rss_start:.1f} MB"
            )
            drivers = [asyncio.create_task(soak.drive(s)) for s in soak.slots if s.table]
            soak.spawn(sample_loop_lag(soak.lag_ms, 0.1, int(soak.max_run_s / 0.1)))
            rss_max = await watch_server(soak, rss_start, cpu0)
            cpu1 = cpu_sample(server)
            await drain(soak, drivers)
            rss_end = server.rss_mb()
    finally:
        stop_everything(soak, drivers)
    log_notes(soak)
    readings = Readings(live, setup_counts, cpu0, cpu1, rss_start, rss_end, max(rss_max, rss_end))
    return report(soak, readings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=600.0, help="length of the soak")
    parser.add_argument("--seed", type=int, default=1, help="seeds the drops and the schedule")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--ping", type=float, default=4.0, help="seconds between a phone's pings")
    parser.add_argument(
        "--drop-mean", type=float, default=60.0, help="mean connected seconds between drops"
    )
    parser.add_argument(
        "--tap-drop", type=float, default=0.03, help="chance a phone drops right after a tap"
    )
    parser.add_argument("--away-min", type=float, default=0.5)
    parser.add_argument("--away-max", type=float, default=20.0)
    parser.add_argument("--create-concurrency", type=int, default=16)
    add_common_options(parser)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.interval <= 0 or args.drop_mean <= 0:
        parser.error("--tables, --seconds, --interval and --drop-mean must be positive")
    if not 0 < args.ping < 10:
        parser.error("--ping must be under the server's 10 s heartbeat")
    if not 0 <= args.away_min <= args.away_max or not 0 <= args.tap_drop <= 1:
        parser.error("need 0 <= --away-min <= --away-max and 0 <= --tap-drop <= 1")
    cfg = Config(
        tables=args.tables,
        seconds=args.seconds,
        interval=args.interval,
        ping_s=args.ping,
        away_min=args.away_min,
        away_max=args.away_max,
        drop_mean=args.drop_mean,
        tap_drop=args.tap_drop,
        seed=args.seed,
        connect_concurrency=args.connect_concurrency,
        create_concurrency=args.create_concurrency,
    )

    with bench_run(4 * args.tables + 1024, args.db_dir, "deathclock-soak-") as (tmp, env):
        port = args.port or free_port()
        server = ServerProcess("deathclock", server_argv(port), env, tmp / "server.log")
        with serving([(server, port)]):
            timeout = cfg.seconds + 600 + 0.5 * cfg.tables
            out = run_loop(asyncio.wait_for(run(cfg, port, server), timeout=timeout))
    json_line(out)
    return 0


if __name__ == "__main__":
    run_main(main, "server stopped")
