"""The soak's hall: a slot per table in the tap schedule, each table opened, tapped and,
once its game is over, retired for a fresh one."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass

import httpx

from bench.harness.report import Counts
from bench.harness.seats import pass_turn
from bench.harness.servers import ServerProcess
from bench.harness.tables import post_table
from bench.soak_phone import CLOSE_WAIT_S, Phone
from bench.soak_table import Table

STATE_TIMEOUT_S = 10.0
RETIRE_WAIT_S = 45.0  # a finished table waits this long for both phones to be current
MAX_NOTES = 30


@dataclass(frozen=True)
class Config:
    tables: int
    seconds: float
    interval: float
    ping_s: float
    away_min: float
    away_max: float
    drop_mean: float
    tap_drop: float
    seed: int
    connect_concurrency: int
    create_concurrency: int


class Slot:
    """One place in the tap schedule; its table is replaced when a game ends."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.table: Table | None = None
        self.generation = 0


class Soak(Counts):
    """The soak's counts (each note counted too), its tables and its schedule."""

    def __init__(self, cfg: Config, port: int, server: ServerProcess) -> None:
        super().__init__(MAX_NOTES, count_notes=True)
        self.cfg = cfg
        self.port = port
        self.server = server
        self.resync_ms: list[float] = []
        self.resync_events: list[int] = []
        self.lag_ms: list[float] = []  # how late this client's event loop wakes up
        self.slots = [Slot(i) for i in range(cfg.tables)]
        self.t_start: float | None = None
        self.t_end: float | None = None
        self.draining = False
        self.stopping = False
        self.max_run_s = cfg.seconds + 600 + 0.5 * cfg.tables
        self.http: httpx.AsyncClient | None = None
        self.create_sem = asyncio.Semaphore(cfg.create_concurrency)
        self.connect_sem = asyncio.Semaphore(cfg.connect_concurrency)

    def dropping(self, now: float) -> bool:
        return (
            self.t_start is not None
            and self.t_end is not None
            and self.t_start <= now < self.t_end
            and not self.draining
        )

    def tables(self) -> list[Table]:
        return [s.table for s in self.slots if s.table is not None]

    def phones(self) -> list[Phone]:
        return [p for t in self.tables() for p in t.phones.values()]

    # -- creating and retiring tables -------------------------------------------

    async def create_table(self) -> tuple[str, str, str]:
        assert self.http is not None
        async with self.create_sem:
            return await post_table(self.http, pause_s=0.5)

    async def open_table(self, slot: Slot) -> bool:
        """A fresh table in the slot: create it, connect both phones, start the game."""
        try:
            table_id, p1, p2 = await self.create_table()
        except RuntimeError as exc:
            self.c["create_failures"] += 1
            self.note(str(exc))
            return False
        slot.generation += 1
        table = Table(self, slot.index, slot.generation, table_id, p1, p2)
        slot.table = table
        self.c["tables_created"] += 1
        async with self.connect_sem:
            for phone in table.phones.values():
                for _attempt in range(3):
                    if await phone.open(reconnect=False):
                        break
                    await asyncio.sleep(0.5)
                else:
                    self.discard(slot)
                    return False
        for phone in table.phones.values():
            phone.life = asyncio.create_task(phone.live())
        deadline = time.perf_counter() + STATE_TIMEOUT_S
        while time.perf_counter() < deadline and any(p.last_v < 0 for p in table.phones.values()):
            await asyncio.sleep(0.05)
        if any(p.last_v < 0 for p in table.phones.values()):
            self.c["state_timeouts"] += 1
            self.note(f"table {table.id}: no state within {STATE_TIMEOUT_S:g} s of hello")
            self.discard(slot)
            return False
        await table.send(table.phones["p1"], {"c": "start"}, ("start", "", "p1"))
        return True

    def discard(self, slot: Slot) -> None:
        """A table that could not be set up: its phones leave at once, nothing is counted."""
        table, slot.table = slot.table, None
        if table is None:
            return
        for phone in table.phones.values():
            phone.retire = True
            phone.wake.set()
            if phone.ws is not None:
                phone.ws.transport.abort()
        self.c["tables_discarded"] += 1

    async def retire(self, slot: Slot, wait_s: float) -> None:
        """Wait (bounded) until both phones hold every version, check, and leave."""
        table = slot.table
        if table is None:
            return
        table.retiring = True
        deadline = time.perf_counter() + wait_s
        while time.perf_counter() < deadline and not table.settled():
            await asyncio.sleep(0.1)
        if not table.settled():
            self.c["unsettled_tables"] += 1
            self.note(
                f"table {table.id}: not settled after {wait_s:g} s "
                f"(unanswered {table.unresolved}, "
                + ", ".join(
                    f"{p.side} connected {p.ws is not None} v {p.last_v}/{table.version}"
                    for p in table.phones.values()
                )
                + ")"
            )
        table.check()
        for phone in table.phones.values():
            phone.retire = True
            phone.wake.set()
        lives = [p.life for p in table.phones.values() if p.life is not None]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*lives, return_exceptions=True), 2 * CLOSE_WAIT_S)

    # -- the tap schedule -------------------------------------------------------

    async def drive(self, slot: Slot) -> None:
        cfg = self.cfg
        assert self.t_start is not None and self.t_end is not None
        rng = random.Random(f"{cfg.seed}:drive:{slot.index}")
        perf = time.perf_counter
        due = self.t_start + slot.index * cfg.interval / cfg.tables
        for _ in range(int(cfg.seconds / (0.5 * cfg.interval)) + 10):
            if due >= self.t_end or self.stopping:
                return
            await asyncio.sleep(max(0.0, due - perf()))
            due += cfg.interval * rng.uniform(0.9, 1.1)
            table = slot.table
            if table is None:
                return
            if table.over():
                if not await self.replace(slot):
                    return
                due = max(due, perf() + cfg.interval)
                continue
            await self.tap(table, rng)

    async def replace(self, slot: Slot) -> bool:
        """The slot's game is over: its table retires, a fresh one opens (False: none did)."""
        assert self.t_end is not None
        self.c["games_finished"] += 1
        await self.retire(slot, RETIRE_WAIT_S)
        slot.table = None
        if time.perf_counter() >= self.t_end or self.stopping:
            return False
        return await self.open_table(slot)

    def tapper(self, table: Table) -> Phone | None:
        """The phone of the running side, if it may tap now (else the slot is skipped)."""
        c = self.c
        if table.unresolved:
            c["slots_waiting_ack"] += 1
            return None
        game = table.game
        running = game.get("running") if game is not None else None
        if game is None or table.game_v < table.version or running not in ("p1", "p2"):
            c["slots_no_game"] += 1
            return None
        phone = table.phones[running]
        if not phone.current:
            c["slots_phone_away"] += 1
            return None
        return phone

    async def tap(self, table: Table, rng: random.Random) -> None:
        """The running side passes the turn, answering what is due; now and then it drops."""
        phone = self.tapper(table)
        if phone is None:
            return
        game = table.game
        assert game is not None
        running = phone.side
        body = pass_turn(running, game)
        drop = self.dropping(time.perf_counter()) and rng.random() < self.cfg.tap_drop
        mode = rng.choice(("abort", "close", "abort_first")) if drop else ""
        if mode == "abort_first":
            # The socket dies as the tap goes: the phone keeps it for the reconnect.
            phone.drop("abort", "at_tap")
        await table.send(phone, body, ("pass_turn", running, running))
        self.c["taps_sent"] += 1
        if mode in ("abort", "close"):
            phone.drop(mode, "after_tap")
