"""What the failover and restart benchmarks share: tables tapping at a steady rate on the
phones of bench/recovery_phones.py, the moment each table is served again after a
disruption, and the loop that runs them.

A table is served again once a tap first sent after the disruption is acked to its
sender and its version reached the other phone (an event, or the state a reconnected
phone gets). Everything runs on one event loop; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable, Iterator
from typing import Any

from bench.harness.report import log
from bench.harness.seats import pass_turn
from bench.recovery_phones import Cmd, Phone, Run

SETTLE_S = 30.0  # a tap without its ack and peer event by then: the table stops


class Game:
    """A table: its two phones, the latest view of its game, every ack."""

    def __init__(self, run: Run, index: int, row: tuple[str, str, str], homes: tuple[int, int]):
        self.run, self.index, self.id = run, index, row[0]
        self.phones = {
            "p1": Phone(run, self, "p1", row[1], homes[0]),
            "p2": Phone(run, self, "p2", row[2], homes[1]),
        }
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.wake = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()
        self.acks: dict[int, Cmd] = {}
        self.sent: list[Cmd] = []
        self.served_at: float | None = None
        self.stopped = False

    def observe(self, v: int, game: Any, now: float) -> None:
        if v >= self.version and isinstance(game, dict):
            self.version, self.view = v, game

    def acked(self, cmd: Cmd) -> None:
        assert cmd.ack_v is not None
        other = self.acks.get(cmd.ack_v)
        if other is not None and other is not cmd:
            self.run.c["same_version_acked_twice"] += 1
            self.run.note(f"table {self.id}: version {cmd.ack_v} acked for two commands")
        self.acks[cmd.ack_v] = cmd

    def next_tap(self) -> tuple[str, dict[str, Any]] | None:
        """Who taps now, and the pass_turn with the turn-end answers due; None: no clock runs."""
        game = self.view or {}
        if game.get("phase") == "over" or game.get("running") not in ("p1", "p2"):
            return None
        running = str(game["running"])
        return running, pass_turn(running, game)

    async def _until(self, check: Callable[[], bool], within: float) -> bool:
        deadline = time.perf_counter() + within
        for _ in range(100_000):
            if check():
                return True
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), remaining)
        return False

    async def tap(self, side: str, body: dict[str, Any]) -> Cmd | None:
        """As a real phone: send once it holds the current state; wait for the ack and
        the other phone seeing its version. None: not settled in time (the table stops)."""
        phone, peer = self.phones[side], self.phones["p2" if side == "p1" else "p1"]
        if not await self._until(
            lambda: phone.ws is not None and phone.last_v >= self.version, SETTLE_S
        ):
            self.run.c["phone_not_back"] += 1
            return None
        cmd = phone.command(body)
        self.sent.append(cmd)

        def settled() -> bool:
            return cmd.error is not None or (cmd.ack_v is not None and peer.last_v >= cmd.ack_v)

        if await self._until(settled, SETTLE_S):
            cmd.done_t = time.perf_counter()
        else:
            self.run.c["unsettled"] += 1
            self.run.note(
                f"table {self.id}: {side} seq {cmd.seq} not settled in {SETTLE_S:g} s "
                f"(ack {cmd.ack_v}, peer at v {peer.last_v})"
            )
            return None
        if cmd.error is not None:
            self.run.c["rejected"] += 1
            self.run.note(f"table {self.id}: {side} seq {cmd.seq} refused: {cmd.error}")
        return cmd

    async def _wait_due(self, due: float) -> None:
        run = self.run
        delay = due - time.perf_counter()
        if delay <= 0 or (run.disrupted_at is not None and self.served_at is None):
            return
        if run.kicked.is_set():
            await asyncio.sleep(delay)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.kicked.wait(), delay)

    async def drive(self, first_due: float) -> None:
        """Tap every interval until the run ends; right after a disruption, again and
        again until the table is served."""
        run = self.run
        due = first_due
        for _ in range(100_000):
            await self._wait_due(due)
            if run.stopping or self.stopped or time.perf_counter() >= run.end:
                return
            nxt = self.next_tap()
            if nxt is None:
                run.c["games_over"] += 1
                return
            side, body = nxt
            cmd = await self.tap(side, body)
            if cmd is None:
                self.stopped = True
                return
            if cmd.ack_v is not None:
                run.c["taps"] += 1
                self.note_served(cmd)
            due = max(due + run.interval, time.perf_counter())
            if cmd.error is not None:
                due = time.perf_counter() + 0.5

    def note_served(self, cmd: Cmd) -> None:
        at = self.run.disrupted_at
        if at is None or self.served_at is not None or cmd.first_t < at:
            return
        self.served_at = cmd.done_t

    def pending(self) -> int:
        return sum(len(p.pending) for p in self.phones.values())


def start_phones(tables: list[Game]) -> None:
    for table in tables:
        for phone in table.phones.values():
            phone.task = asyncio.create_task(phone.live())


async def start_games(tables: list[Game], within: float) -> int:
    """Every table's two phones connected and its game started (p1's clock runs)."""

    async def one(table: Game) -> bool:
        ok = await table._until(
            lambda: all(p.last_v >= 0 and p.ws is not None for p in table.phones.values()),
            within,
        )
        if ok and await table.tap("p1", {"c": "start"}) is not None:
            return True
        table.stopped = True
        return False

    return sum(await asyncio.gather(*(one(t) for t in tables)))


async def settle(tables: list[Game], within: float) -> int:
    """Wait (bounded) until no phone has a command unanswered; how many are left."""
    deadline = time.perf_counter() + within
    while time.perf_counter() < deadline:
        left = sum(t.pending() for t in tables)
        if not left:
            return 0
        await asyncio.sleep(0.1)
    return sum(t.pending() for t in tables)


async def close_all(tables: list[Game]) -> None:
    run = tables[0].run if tables else None
    if run is not None:
        run.stopping = True
    closes = [p.close() for t in tables for p in t.phones.values()]
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*closes, return_exceptions=True), 30)


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """This load generator's own collector stays out of the measured window. It holds every
    phone of every table, and with it on, the reconnects of a restart or a takeover set off
    its full collections: 150-210 ms each, three of them in one restart here, every one
    counted in the time the server took. What was built so far is frozen, and the collector
    stays off until the tables are served again (a few seconds of garbage)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def wait_served(tables: list[Game], within: float, label: str) -> float:
    """Until every table still in play is served again (bounded), progress every 1 s; how
    late this client's own loop woke up at most meanwhile (its lag counts in every time)."""
    deadline = time.perf_counter() + within
    lag = 0.0
    next_log = time.perf_counter()
    while time.perf_counter() < deadline:
        waiting = [t for t in tables if t.served_at is None and not t.stopped]
        if not waiting:
            break
        if time.perf_counter() >= next_log:
            run = tables[0].run
            log(
                f"{label}: {len(tables) - len(waiting)}/{len(tables)} tables served again, "
                f"{run.c['reconnects']} reconnects, {run.c['server_trouble']} 'server trouble'"
            )
            next_log += 1.0
        asked = time.perf_counter()
        await asyncio.sleep(0.05)
        lag = max(lag, time.perf_counter() - asked - 0.05)
    return lag
