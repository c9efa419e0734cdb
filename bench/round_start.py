"""A round's start and end, as the organiser's one action reaches every table of it.

    python -m bench.round_start --players 64 256 512

For each --players count, on a fresh SQLite file (the embedded default, synchronous FULL:
every command is acked once it is on disk): an event of that many players (75 points,
SR2019) through the event service, round 1 paired (RP2), then timed:

- `start`: the EO starts the round: every table gets its opening command (the pre-game's
  starting roll), acked;
- `end`: every table's first player goes first and starts deployment, half an hour passes
  and the EO calls the round's end (DC8): every table gets its flag check and its tie.

Prints one JSON line: per field size, the wall time of each action (`start_256_ms`,
`end_256_ms`), the same a table (`start_256_ms_a_table`), and the disk flushes each took
(`start_256_flushes`: one table after another took one each). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.events.base import EventSpec
from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from bench.harness.report import log, machine_fields

HALF_AN_HOUR_MS = 30 * 60_000


async def measure(url: str, players: int) -> dict[str, float]:
    store = Store(url)
    clock = FakeTime()
    hub = TableHub(store, clock, random.Random(1))
    service = EventService(store, hub, clock, random.Random(2), max(players, 512))
    out: dict[str, float] = {}
    try:
        created = service.registration.create_event(EventSpec(name="bench", points=75))
        for n in range(players):
            service.registration.add_player(created.id, f"Player {n + 1:03d}", "Khador")
        service.rounds.pair_next(created.id)
        rooms = service.tables.rooms(created.id)

        flushes, began = store.flushes, time.perf_counter()
        await service.rounds.start(created.id)
        out["start"], out["start_flushes"] = time.perf_counter() - began, store.flushes - flushes

        for room in rooms:  # the first seat goes first and starts deployment
            await room.apply(Side.P1, "bench", 1, c.StartingRoll(at_table=(6, 1)))
            await room.apply(Side.P1, "bench", 2, c.ChooseOrder(first=True))
            await room.apply(Side.P1, "bench", 3, c.StartClock())
        clock.advance(HALF_AN_HOUR_MS)
        flushes, began = store.flushes, time.perf_counter()
        calls = await service.round_clock.call_end(created.id)
        out["end"], out["end_flushes"] = time.perf_counter() - began, store.flushes - flushes
        assert len(calls) == len(rooms), "every table's end is called"
        out["tables"] = len(rooms)
    finally:
        await service.close()
        await hub.close()
        store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.round_start", description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[64, 256, 512])
    args = parser.parse_args(argv)
    if any(n < 2 or n > 1024 for n in args.players):
        parser.error("--players from 2 to 1024")
    line: dict[str, Any] = {"players": args.players}
    with tempfile.TemporaryDirectory(prefix="deathclock-round-start-") as tmp:
        for players in args.players:
            got = asyncio.run(measure(f"sqlite:///{Path(tmp) / f'{players}.db'}", players))
            tables = int(got["tables"])
            for action in ("start", "end"):
                ms = got[action] * 1000
                line[f"{action}_{players}_ms"] = round(ms, 1)
                line[f"{action}_{players}_ms_a_table"] = round(ms / tables, 2)
                line[f"{action}_{players}_flushes"] = int(got[f"{action}_flushes"])
            log(
                f"{players} players, {tables} tables: start {got['start'] * 1000:.0f} ms "
                f"({int(got['start_flushes'])} flushes), end {got['end'] * 1000:.0f} ms "
                f"({int(got['end_flushes'])} flushes)"
            )
    print(json.dumps({**line, **machine_fields()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
