"""What a benchmark says: progress lines on stderr, its exit code, and the machine
fields every JSON line carries."""

from __future__ import annotations

import asyncio
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run_main(main: Callable[[], int], stopped: str = "server and clients stopped") -> None:
    """A benchmark's entry point: its exit code; Ctrl-C says what was stopped (130)."""
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        log(f"interrupted; {stopped}")
        sys.exit(130)


#: A table's event as a worker encodes and decodes it, for `machine_ref_ms`.
_REF_EVENT = {
    "t": "event",
    "v": 12,
    "what": {"c": "pass_turn", "by": "p1", "at_ms": 1_700_000_000_000, "turn": [3, "p2"]},
    "game": {"clocks": [1_234_567, 2_345_678], "running": "p2", "turn": 3, "cp": [1, 2]},
}


def machine_ref_ms(rounds: int = 5) -> float:
    """Milliseconds this machine takes for one fixed piece of pure-Python work (a loop and
    5,000 JSON round trips of a table's event), the best of `rounds`. Machines of one kind
    have differed by twice that here: a benchmark's figures compare across runs in
    proportion to it, not as they stand."""
    best = math.inf
    for _ in range(rounds):
        t0 = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i
        for _ in range(5_000):
            json.loads(json.dumps(_REF_EVENT))
        best = min(best, time.perf_counter() - t0)
    return round(best * 1000, 1)


def machine_fields() -> dict[str, Any]:
    """What every benchmark line says of the machine: its cores, and its speed (taken now,
    when the line is made, once the load has stopped)."""
    return {"cores": os.cpu_count(), "machine_ref_ms": machine_ref_ms()}


class Counts:
    """A run's counters, the first `max_notes` notes of what went wrong (with
    `count_notes`, counted as "notes" too), and the tasks it spawned."""

    def __init__(self, max_notes: int, count_notes: bool = False) -> None:
        self.c: Counter[str] = Counter()
        self.notes: list[str] = []
        self.max_notes = max_notes
        self.count_notes = count_notes
        self.tasks: set[asyncio.Task[Any]] = set()

    def note(self, message: str) -> None:
        if self.count_notes:
            self.c["notes"] += 1
        if len(self.notes) < self.max_notes:
            self.notes.append(message)

    def count(self, key: str, message: str) -> None:
        self.c[key] += 1
        self.note(f"{key}: {message}")

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def json_line(out: dict[str, Any]) -> None:
    """The benchmark's one line on stdout."""
    print(json.dumps(out, separators=(",", ":")), flush=True)
