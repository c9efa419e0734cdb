"""Pairing a round: how long the worker's loop is held while the EO pairs the next round.

    python -m bench.pairing --players 64 256

The event service runs on the worker's loop: while it pairs a round and opens the round's
tables, no tap of any other table on that worker (another event of a league, say) is
served. For each --players count, on a fresh SQLite file (the embedded default) and, when
DEATHCLOCK_TEST_POSTGRES_URL is set, on a schema of its own on that PostgreSQL:

1. creates an event of that many players (75 points, SR2019) through the service;
2. pairs round 1 (RP2), --repeat times on as many such events, and keeps each time the
   call held the loop (wall clock), and how many statements it sent to the database.

Prints one JSON line: per store and field size, the median and the slowest time the loop
was held (`sqlite_64_ms`, `sqlite_64_max_ms`, ...) and the statements sent
(`sqlite_64_statements`). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

from app.events.base import EventSpec
from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from bench.harness.report import log
from bench.harness.servers import postgres_schema


async def measure(url: str, players: int, repeat: int) -> tuple[list[float], int]:
    """How long each pairing held the loop (ms), and the statements the last one sent."""
    store = Store(url)
    clock = FakeTime()
    hub = TableHub(store, clock, random.Random(1))
    service = EventService(store, hub, clock, random.Random(2), max(players, 512))
    held: list[float] = []
    sent: list[str] = []
    try:
        for _ in range(repeat):
            spec = EventSpec(name=f"{players} players", points=75)
            created = service.registration.create_event(spec)
            for n in range(players):
                service.registration.add_player(created.id, f"Player {n + 1:03d}", "Khador")
            sent.clear()

            def note(*args: Any) -> None:
                sent.append(args[2])

            event.listen(store.engine, "before_cursor_execute", note)
            began = time.perf_counter()
            service.rounds.pair_next(created.id)
            held.append((time.perf_counter() - began) * 1000)
            event.remove(store.engine, "before_cursor_execute", note)
    finally:
        await service.close()
        await hub.close()
        store.close()
    return held, len(sent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pairing", description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--repeat", type=int, default=5, help="pairings measured per size")
    args = parser.parse_args(argv)
    if args.repeat < 1 or any(n < 2 or n > 1024 for n in args.players):
        parser.error("--repeat must be 1 or more, --players from 2 to 1024")
    out: dict[str, Any] = {"players": args.players, "repeat": args.repeat}
    pg_url = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL", "")
    with tempfile.TemporaryDirectory(prefix="deathclock-pairing-") as tmp:
        for players in args.players:
            sqlite = (f"sqlite:///{Path(tmp) / f'{players}.db'}", "")
            stores: list[tuple[str, contextlib.AbstractContextManager[tuple[str, str]]]] = [
                ("sqlite", contextlib.nullcontext(sqlite))
            ]
            if pg_url:
                stores.append(("postgres", postgres_schema(pg_url)))
            for name, where in stores:
                with where as (url, _schema):
                    held, statements = asyncio.run(measure(url, players, args.repeat))
                log(
                    f"{name}, {players} players: held the loop {statistics.median(held):.0f} ms "
                    f"(max {max(held):.0f}), {statements} statements"
                )
                out[f"{name}_{players}_ms"] = round(statistics.median(held), 1)
                out[f"{name}_{players}_max_ms"] = round(max(held), 1)
                out[f"{name}_{players}_statements"] = statements
    if not pg_url:
        out["postgres"] = "skipped: DEATHCLOCK_TEST_POSTGRES_URL is not set"
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
