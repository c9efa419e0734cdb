"""A table's screens asking for log pages as fast as the server lets them, while the
other tables play: what it costs the others.

    python -m bench.log_flood --tables 1000 --seconds 30

Runs bench.table_latency's load twice, each on a fresh server (one worker, SQLite):
1. the floor: --tables tables tapping every --interval s, their peer and ack latency;
2. the same, with one more table whose every screen a server allows (16 on its watch
   link, 4 on each seat's and on the EO's: 28 sockets) asks for log pages from random
   versions, each socket as fast as the server's per-socket message rate lets it
   (--attack-rate a second, --attack-burst at once). That table's log is made long
   first (--seed-entries entries: a start, then interrupt switches).
Prints one JSON line: both runs' other-tables peer p50/p99 and their ratio, phones of
the other tables the server dropped (a socket closed under them), taps lost, the pages
the attackers got and the reads the server refused, whether the attack lasted over
every measured tap, and the machine. Goal: attacked peer p99 <= 2x the floor's, 0
dropped. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]

from bench import table_latency
from bench.harness.load import Workers, run_loop
from bench.harness.measure import cpu_fields, cpu_seconds, rounded
from bench.harness.options import add_common_options, add_load_options, add_tapping_options
from bench.harness.report import json_line, log, machine_fields, run_main
from bench.harness.servers import HOST, bench_run, free_port, server_argv
from bench.harness.sockets import ping_forever, seat_token
from bench.harness.tables import GAME_BODY
from bench.table_figures import summary
from bench.table_latency import run_target

#: The screens a server lets one table have: 16 watch screens, 4 on each seat and the EO.
LINKS = (("watch", 16), ("p1", 4), ("p2", 4), ("eo", 4))
#: The server's per-socket message rate (Settings.rate_per_s, rate_burst), a little under.
ATTACK_RATE = 14.5
ATTACK_BURST = 40.0
SEED_PER_S = 60
SEAT_BURST = 195  # commands a seat sends at once (Settings.command_burst, a little under)


# ----------------------------------------------------------------------------
# The attacker process: one table, its 28 screens asking for pages
# ----------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.asked = 0
        self.pages = 0
        self.refused_reads = 0  # the read budget's answer
        self.refused_messages = 0  # the per-socket message rate's
        self.other_errors = 0
        self.closed = 0
        self.first_at = 0.0
        self.last_at = 0.0


async def _wait_for_server(port: int, within_s: float = 120.0) -> None:
    deadline = time.monotonic() + within_s
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=2.0) as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                await http.get("/health")
                return
            await asyncio.sleep(0.2)
    raise RuntimeError("the server did not answer")


async def _open(port: int, table_id: str, token: str, device: str) -> Any:
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://{HOST}:{port}/ws/tables/{table_id}", max_size=None)
    await ws.send(json.dumps({"t": "hello", "token": token, "device": device}))
    while json.loads(await asyncio.wait_for(ws.recv(), 20))["t"] != "state":
        pass
    return ws


class _Seat:
    """A seeding screen: every message read as it comes (none piles up), replies kept."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.replies: dict[int, dict[str, Any]] = {}
        self.news = asyncio.Event()
        self.reader = asyncio.create_task(self._read())
        self.pinger = asyncio.create_task(ping_forever(ws, 3.0, time.monotonic() + 600))

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                msg = json.loads(text)
                if msg["t"] in ("ack", "error") and msg.get("seq") is not None:
                    self.replies[msg["seq"]] = msg
                    self.news.set()

    async def command(self, seq: int, body: dict[str, Any]) -> None:
        await self.ws.send(json.dumps({"t": "cmd", "seq": seq, **body}))
        deadline = time.monotonic() + 20
        while seq not in self.replies and time.monotonic() < deadline:
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), deadline - time.monotonic())
        reply = self.replies.get(seq)
        if reply is None or reply["t"] != "ack":
            raise RuntimeError(f"seeding the attacked table: {body} answered {reply}")

    async def close(self) -> None:
        self.pinger.cancel()
        await self.ws.close()
        self.reader.cancel()


async def _seed(port: int, table_id: str, tokens: dict[str, str], entries: int) -> int:
    """A start, four deployment taps, interrupt switches, then the EO's pauses and
    resumes: about `entries` entries, within each seat's burst of commands (200), each
    seat's spread over its 4 screens, SEED_PER_S a second in all (a socket's messages:
    15 a second). Each command waits for its ack: about 10 s."""
    seats = {
        s: [_Seat(await _open(port, table_id, tokens[s], f"seed-{s}")) for _ in range(4)]
        for s in ("p1", "p2", "eo")
    }
    steps = [("p1", {"c": "start"})]
    steps += [(side, {"c": "pass_turn", "expect": side}) for side in ("p1", "p2", "p1", "p2")]
    switches = [("p1", {"c": "switch", "to": "p2"}), ("p2", {"c": "switch", "to": "p1"})]
    steps += switches * min(SEAT_BURST - 5, (entries - len(steps)) // 2)
    pauses = [("eo", {"c": "pause"}), ("eo", {"c": "resume"})]
    steps += pauses * min(SEAT_BURST // 2, max(0, entries - len(steps)) // 2)
    sent = dict.fromkeys(seats, 0)
    try:
        for seq, (seat, body) in enumerate(steps, start=1):
            due = time.monotonic() + 1 / SEED_PER_S
            await seats[seat][sent[seat] % 4].command(seq, body)
            sent[seat] += 1
            await asyncio.sleep(max(0.0, due - time.monotonic()))
    finally:
        for screens in seats.values():
            for screen in screens:
                await screen.close()
    return len(steps)


async def _read(ws: Any, tally: Tally) -> None:
    with contextlib.suppress(Exception):
        async for text in ws:
            kind = text[6 : text.find('"', 6)] if text.startswith('{"t":"') else ""
            if kind == "log":
                tally.pages += 1
            elif kind == "error":
                msg = json.loads(text)
                if msg.get("code") == "rate_limited" and "log pages" in msg.get("message", ""):
                    tally.refused_reads += 1
                elif msg.get("code") == "rate_limited":
                    tally.refused_messages += 1
                else:
                    tally.other_errors += 1
    tally.closed += 1


async def _ask(ws: Any, tally: Tally, version: int, rate: float, burst: float) -> None:
    """Ask for pages whenever the socket's message budget (as the server counts it) has
    a token: `burst` at once, then `rate` a second, until the socket closes."""
    tokens, at = burst, time.monotonic()
    rng = random.Random()
    with contextlib.suppress(Exception):
        while True:
            now = time.monotonic()
            tokens = min(burst, tokens + (now - at) * rate)
            at = now
            if tokens < 1:
                await asyncio.sleep((1 - tokens) / rate)
                continue
            tokens -= 1
            await ws.send(json.dumps({"t": "log", "after": rng.randrange(0, version + 1)}))
            tally.asked += 1
            tally.first_at = tally.first_at or time.monotonic()
            tally.last_at = time.monotonic()


async def attack(port: int, cfg: dict[str, Any], out_q: Any) -> None:
    await _wait_for_server(port)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0) as http:
        links = (await http.post("/api/tables", json=GAME_BODY)).json()
    tokens = {
        "p1": seat_token(links["p1"]["url"]),
        "p2": seat_token(links["p2"]["url"]),
        "watch": seat_token(links["watch"]),
        "eo": seat_token(links["eo"]),
    }
    version = await _seed(port, links["id"], tokens, cfg["seed_entries"])
    tally = Tally()
    screens = [
        await _open(port, links["id"], tokens[link], f"flood-{link}-{n}")
        for link, count in LINKS
        for n in range(count)
    ]
    log(f"attacker: {len(screens)} screens of one table (log of {version}) asking for pages")
    out_q.put(("ready", "attacker", {"version": version, "screens": len(screens)}))
    tasks = [asyncio.create_task(_read(ws, tally)) for ws in screens]
    rate, burst = cfg["rate"], cfg["burst"]
    tasks += [asyncio.create_task(_ask(ws, tally, version, rate, burst)) for ws in screens]
    cpu0 = cpu_seconds(psutil.Process())
    await asyncio.gather(*tasks[: len(screens)])  # until the server stops
    for task in tasks:
        task.cancel()
    cpu = cpu_seconds(psutil.Process()) - cpu0  # the attacker's own, on the same cores
    out_q.put(("result", "attacker", {**vars(tally), "screens": len(screens), "cpu_s": cpu}))


def attacker_main(port: int, cfg: dict[str, Any], ctrl_q: Any, out_q: Any) -> None:
    run_loop(attack(port, cfg, out_q))


# ----------------------------------------------------------------------------
# The two runs
# ----------------------------------------------------------------------------


def _taps_span(path: Path) -> tuple[float, float] | None:
    """The first and the last measured tap (monotonic s), from the run's timeline."""
    with contextlib.suppress(OSError):
        with path.open() as f:
            times = [float(row["monotonic_s"]) for row in csv.DictReader(f)]
        if times:
            return min(times), max(times)
    return None


def _run(name: str, args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    """One run on a server and a database of its own."""
    args.timeline = args.keep_timeline or str(tmp / "timeline")
    env = {**env, "DEATHCLOCK_DATABASE_URL": f"sqlite:///{tmp / name}.db"}
    result = run_target(name, server_argv, env, args, tmp)
    result["span"] = _taps_span(Path(f"{args.timeline}.{name}.csv"))
    return result


@contextlib.contextmanager
def _tables_once_ready(attacker: Workers) -> Iterator[None]:
    """The load's tables are made once the attacker's screens are asking for pages (the
    attacker starts as soon as the server answers): the attack lasts over all of it."""
    make = table_latency.create_tables

    async def after_attacker(port: int, count: int, concurrency: int) -> Any:
        deadline = time.monotonic() + 180
        while (msg := await asyncio.to_thread(attacker.get, 1.0)) is None or msg[0] != "ready":
            if time.monotonic() > deadline:
                raise RuntimeError("the attacker did not get ready")
        return await make(port, count, concurrency)

    table_latency.create_tables = after_attacker
    try:
        yield
    finally:
        table_latency.create_tables = make


def _attacked(args: argparse.Namespace, env: dict[str, str], tmp: Path) -> dict[str, Any]:
    """The load with the attacker, on a server of the run's own port, from before the
    first table is made until the server stops."""
    port = free_port()
    args.port = port
    attacker = Workers()
    cfg = {"seed_entries": args.seed_entries, "rate": args.attack_rate, "burst": args.attack_burst}
    attacker.start(attacker_main, (port, cfg), "attacker")
    try:
        with _tables_once_ready(attacker):
            result = _run("attacked", args, env, tmp)
        tally: dict[str, Any] = {}
        deadline = time.monotonic() + 30
        while not tally and time.monotonic() < deadline:
            msg = attacker.get(1.0)
            if msg is not None and msg[0] == "result":
                tally = msg[2]
        if not tally:
            raise RuntimeError("the attacker did not report")
        result["attack"] = tally
        return result
    finally:
        attacker.stop(clean=sys.exc_info()[0] is None)
        args.port = 0


def _line(args: argparse.Namespace, floor: dict[str, Any], hit: dict[str, Any]) -> dict[str, Any]:
    f, a = summary(floor), summary(hit)
    tally, span = hit["attack"], hit["span"]
    attack_s = max(0.0, tally["last_at"] - tally["first_at"])

    def ratio(q: str) -> float | None:
        ours, base = a[f"peer_{q}_ms"], f[f"peer_{q}_ms"]
        return rounded(ours / base, 2) if ours is not None and base else None

    out: dict[str, Any] = {
        "tables": hit["tables"],
        "seconds": args.seconds,
        "interval_s": args.interval,
        "attack_sockets": tally["screens"],
        "floor_peer_p50_ms": f["peer_p50_ms"],
        "floor_peer_p99_ms": f["peer_p99_ms"],
        "floor_ack_p99_ms": f["ack_p99_ms"],
        "attacked_peer_p50_ms": a["peer_p50_ms"],
        "attacked_peer_p99_ms": a["peer_p99_ms"],
        "attacked_ack_p99_ms": a["ack_p99_ms"],
        "peer_p50_ratio": ratio("p50"),
        "peer_p99_ratio": ratio("p99"),
        "dropped": hit["counters"].get("socket_closed", 0),
        "floor_dropped": floor["counters"].get("socket_closed", 0),
        "lost": hit["counters"].get("lost", 0),
        "floor_lost": floor["counters"].get("lost", 0),
        "attack_asked": tally["asked"],
        "attack_pages": tally["pages"],
        "refused_reads": tally["refused_reads"],
        "refused_messages": tally["refused_messages"],
        "attack_pages_per_s": rounded(tally["pages"] / attack_s, 1) if attack_s else None,
        "attacker_cpu_pct": rounded(tally["cpu_s"] / attack_s * 100, 1) if attack_s else None,
        "attack_covered_window": bool(
            span and tally["first_at"] <= span[0] and tally["last_at"] >= span[1]
        ),
        "floor_server_full_gc_ms": floor["full_walks"],
        "attacked_server_full_gc_ms": hit["full_walks"],
        **{f"floor_{k}": v for k, v in cpu_fields(floor).items()},
        **{f"attacked_{k}": v for k, v in cpu_fields(hit).items()},
        **machine_fields(),
    }
    out["targets_met"] = {
        "peer_p99_le_2x_floor": (out["peer_p99_ratio"] or 99) <= 2,
        "dropped_0": out["dropped"] == 0,
        "attack_covered_window": out["attack_covered_window"],
    }
    out["all_targets_met"] = all(out["targets_met"].values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.log_flood", description=__doc__)
    add_tapping_options(parser)
    parser.add_argument("--seed-entries", type=int, default=560, help="the attacked log")
    parser.add_argument("--attack-rate", type=float, default=ATTACK_RATE, help="a socket's")
    parser.add_argument("--attack-burst", type=float, default=ATTACK_BURST)
    parser.add_argument(
        "--keep-timeline", metavar="PREFIX", help="write each measured tap to PREFIX.<run>.csv"
    )
    add_common_options(parser)
    add_load_options(parser)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.interval <= 0 or args.warmup < 0:
        parser.error("--tables, --seconds and --interval must be positive")
    with bench_run(4 * args.tables + 1024, args.db_dir, "deathclock-flood-") as (tmp, env):
        floor = _run("floor", args, env, tmp)
        hit = _attacked(args, env, tmp)
    json_line(_line(args, floor, hit))
    return 0


if __name__ == "__main__":
    run_main(main, "servers, clients and the attacker stopped")
