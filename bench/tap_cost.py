"""The server's CPU per tap in one process: `python -m bench.tap_cost [--profile PATH]`.

Quick games (60-minute clocks, Bunkers, as bench.table_latency's) on a SQLite store in a
temporary directory, two phones a table, each served by the socket's own loop
(`app.api.guard.serve`, `app.api.ws`) over a socket that hands text in as uvicorn does and
takes what is written (`app.sockets`' direct write). Every game starts; then each round
every table taps at once (the running side's `pass_turn` with the turn-end answers due:
kill box no, nothing scored) and its phones ping 2.5 times a tap (table_latency's load: a
tap each 5 s, a ping each 4 s a phone). Two rounds warm up; a young collection follows
each round (`app.collector`). One JSON line: the main thread's CPU per tap (thread_time;
the best of --runs) split into taps, pings and collector; `process_ms_per_tap` counts
every thread. --profile: the best run's measured rounds' cProfile stats. Compare lines of
one machine, each the best of several runs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import gc
import json
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.api.budgets import ReadBudget
from app.api.guard import serve
from app.api.limits import Heartbeats, command_rate, rate_limit
from app.api.ws import Reads, Screen, _handle
from app.settings import Settings
from app.sockets import WRITE
from app.store.log_rows import log_rows
from app.store.repository import Store
from app.tables.fanout import Subscriber
from app.tables.hub import TableHub
from app.tables.log_page import LogPages
from app.tables.offline import device_key
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import SystemTime
from bench.harness.seats import pass_turn

GAME, WARMUP_ROUNDS = QuickGame(clock_minutes=60, scenario="bunkers"), 2


class Phone:
    """One screen's socket: text in as uvicorn hands it; its acks noticed as written."""

    def __init__(self, role: str) -> None:
        self.role = role
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.scope = {"extensions": {WRITE: {"write": self.write}}}
        self.seq = 0
        self.acked: asyncio.Future[None] | None = None

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    def write(self, texts: Sequence[str]) -> int:
        for text in texts:
            text.encode()
            if text.startswith('{"t":"ack"') and self.acked is not None:
                self.acked.set_result(None)
                self.acked = None
        return len(texts)

    async def send_text(self, text: str) -> None:  # the writer's, for what was queued
        self.write((text,))

    def send(self, text: str) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": text})

    def command(self, body: dict[str, Any]) -> tuple[Phone, str]:
        self.seq += 1
        return self, json.dumps({"t": "cmd", "seq": self.seq, **body})

    def tap(self, text: str) -> asyncio.Future[None]:
        """Send a command: acked once the future is done."""
        self.acked = asyncio.get_running_loop().create_future()
        self.send(text)
        return self.acked

    def ping(self) -> tuple[Phone, str]:
        return self, json.dumps({"t": "ping", "id": 1, "client_ms": time.time() * 1000})


def _serve(hub: TableHub, room: TableRoom, phone: Phone, reads: Reads) -> asyncio.Task[None]:
    """The phone's socket served as `app.api.ws.table_socket` serves it after its hello."""
    settings, clock, role = Settings(), hub.time, phone.role
    sub = Subscriber(role, settings.queue_limit, settings.queue_bytes)
    device = f"bench-{role}"
    key = device_key(role, device)
    rate = command_rate(settings, clock)
    screen = Screen(room, hub.placement, role, device, key, room.arrive(key), sub, rate, reads)
    room.join(sub, None, device)
    handle = functools.partial(_handle, screen)
    read, beats = room.engine.command_from_wire, Heartbeats(clock)
    loop = serve(phone, sub, beats, rate_limit(settings, clock), handle, read)  # type: ignore[arg-type]
    return asyncio.create_task(loop)


def _tap(room: TableRoom) -> tuple[str, dict[str, Any]] | None:
    """The running side's pass_turn with the answers its view says are due, as the load
    generator sends it (bench.harness.seats.pass_turn); None: the game is over."""
    game = room.game
    running = game.clock.running
    if game.phase.value == "over" or running is None:
        return None
    side = running.name.lower()
    return side, pass_turn(side, room.engine.view(game, room.time.now_ms()))


async def one_run(
    tables: int, rounds: int, db_dir: Path, profile: cProfile.Profile | None
) -> dict[str, float]:
    store = Store(f"sqlite:///{db_dir / 'tap_cost.db'}")
    clock = SystemTime()
    hub = TableHub(store, clock, random.Random(7))
    pages = LogPages(lambda table_id, after, limit: log_rows(store.engine, table_id, after, limit))
    reads = Reads(pages, ReadBudget.from_settings(Settings(), clock), "127.0.0.1")
    rooms = hub.open_tables([(GAME.setup(hub.rng), None) for _ in range(tables)])
    phones = [{"p1": Phone("p1"), "p2": Phone("p2")} for _ in rooms]
    served = [
        _serve(hub, r, p, reads) for r, ph in zip(rooms, phones, strict=True) for p in ph.values()
    ]
    await asyncio.gather(*(ph["p1"].tap(ph["p1"].command({"c": "start"})[1]) for ph in phones))
    gc.collect()
    gc.disable()
    taps, spent = 0, [0.0, 0.0, 0.0, 0.0]  # taps, pings, collector; every thread's
    for n in range(rounds):
        due = [(ph, _tap(room)) for room, ph in zip(rooms, phones, strict=True)]
        taps_due = [ph[tap[0]].command(tap[1]) for ph, tap in due if tap]
        pings = [p.ping() for ph in phones for p in ph.values()]
        if n % 2:  # 2.5 pings a tap: both phones, and one of them once more
            pings += [ph[f"p{n % 4 // 2 + 1}"].ping() for ph in phones]
        measured = profile if n >= WARMUP_ROUNDS else None
        if measured is not None:  # the server's work only, not this generator's taps
            measured.enable()
        t0, p0 = time.thread_time(), time.process_time()
        await asyncio.gather(*(phone.tap(text) for phone, text in taps_due))
        t1 = time.thread_time()
        for phone, text in pings:
            phone.send(text)
        while any(not p.inbox.empty() for ph in phones for p in ph.values()):
            await asyncio.sleep(0)
        t2 = time.thread_time()
        gc.collect(0)
        gc.freeze()
        t3, p3 = time.thread_time(), time.process_time()
        if measured is not None:
            measured.disable()
        if n >= WARMUP_ROUNDS:
            taps += len(taps_due)
            spent = [
                a + b for a, b in zip(spent, (t1 - t0, t2 - t1, t3 - t2, p3 - p0), strict=True)
            ]
    for task in served:
        task.cancel()
    await asyncio.gather(*served, return_exceptions=True)
    await hub.close()
    pages.close()
    store.close()
    gc.unfreeze()
    gc.enable()
    per = dict(zip(("tap_ms", "pings_ms", "gc_ms", "process_ms_per_tap"), spent, strict=True))
    per = {k: v * 1000 / taps for k, v in per.items()}
    return {"cpu_ms_per_tap": sum(spent[:3]) * 1000 / taps, **per}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=12, help="taps a table (a game has 18)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the best one is printed")
    parser.add_argument("--profile", help="write the best run's cProfile stats here")
    args = parser.parse_args()
    runs: list[dict[str, float]] = []
    for _ in range(args.runs):
        profile = cProfile.Profile() if args.profile else None
        with tempfile.TemporaryDirectory() as tmp:
            run = asyncio.run(one_run(args.tables, args.rounds, Path(tmp), profile))
        if profile is not None and all(run["cpu_ms_per_tap"] < r["cpu_ms_per_tap"] for r in runs):
            profile.dump_stats(args.profile)
        runs.append(run)
    best = min(runs, key=lambda r: r["cpu_ms_per_tap"])
    line: dict[str, Any] = {"tables": args.tables, "rounds": args.rounds, "runs": args.runs}
    line |= {k: round(v, 4) for k, v in best.items()}
    line["cpu_ms_per_tap_runs"] = [round(r["cpu_ms_per_tap"], 4) for r in runs]
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
