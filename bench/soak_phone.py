"""A phone of the soak: a seat's socket that pings, drops at random, stays away and comes
back with what it missed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.harness.seats import connect_seat, dumps, hello_again, read_messages

if TYPE_CHECKING:
    from bench.soak_hall import Soak
    from bench.soak_table import Table

CONNECT_TIMEOUT_S = 10.0
PONG_LATE_S = 8.0  # a real phone drops a socket whose ping went unanswered this long
SERVER_CLOSE_BACKOFF_S = (0.5, 1.5)
CLOSE_WAIT_S = 5.0

Key = tuple[str, str, str]  # (command, expect, by), as an event's "what" shows it


def what_key(what: Any) -> Key:
    if not isinstance(what, dict):
        return ("?", "", "")
    return (str(what.get("c", "")), str(what.get("expect") or ""), str(what.get("by", "")))


@dataclass(slots=True, eq=False)
class Command:
    phone: Phone
    seq: int
    text: str
    key: Key
    base_v: int  # the table's version when it was sent: it applies as base_v + 1
    resent: int = 0
    answered: bool = False
    acked_v: int | None = None


@dataclass(slots=True)
class Resync:
    t_open: float
    target: int
    events: int = 0


class Phone:
    def __init__(self, soak: Soak, table: Table, side: str, token: str) -> None:
        self.soak = soak
        self.table = table
        self.side = side
        self.token = token
        self.device = f"soak-{table.index}-{table.generation}-{side}"
        self.rng = random.Random(f"{soak.cfg.seed}:{table.index}:{table.generation}:{side}")
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.life: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.closed = asyncio.Event()
        self.last_v = -1
        self.state_v = -1  # the highest version a state message covered
        self.seen: dict[int, Key] = {}
        self.pending: dict[int, Command] = {}
        self.seq = 0
        self.ping_id = 0
        self.probe_at = 0.0
        self.dropped_by_us = False
        self.retire = False
        self.resync: Resync | None = None
        self.away = False

    @property
    def current(self) -> bool:
        """Connected and holding the table's latest version."""
        return (
            self.ws is not None
            and not self.closed.is_set()
            and not self.dropped_by_us
            and self.last_v >= self.table.version
        )

    # -- messages ---------------------------------------------------------------

    def on_message(self, text: str, now: float) -> None:
        msg = json.loads(text)
        kind = msg.get("t")
        if kind == "event":
            self.on_event(msg)
        elif kind == "state":
            self.on_state(msg)
        elif kind == "ack":
            self.on_ack(msg, text)
        elif kind == "error":
            self.on_error(msg, text)
        elif kind == "pong":
            self.probe_at = 0.0
        if kind in ("event", "state", "pong"):
            self.note_resynced(now)

    def on_event(self, msg: dict[str, Any]) -> None:
        soak, table, c = self.soak, self.table, self.soak.c
        v = int(msg["v"])
        if v <= self.last_v:
            c["redelivered"] += 1
            soak.note(f"table {table.id}: {self.side} got version {v} again")
            return
        if self.last_v >= 0 and v != self.last_v + 1:
            c["event_gaps"] += 1
            soak.note(f"table {table.id}: {self.side} jumped from v {self.last_v} to {v}")
            soak.spawn(self.send_quietly({"t": "sync"}))  # as a real phone does
        self.last_v = v
        key = what_key(msg.get("what"))
        self.seen[v] = key
        table.observe(v, key, msg.get("game"))
        if self.resync is not None:
            self.resync.events += 1

    def on_state(self, msg: dict[str, Any]) -> None:
        v = int(msg["v"])
        if v < self.last_v:
            self.soak.c["state_behind"] += 1
            self.soak.note(
                f"table {self.table.id}: {self.side} got state v {v} after v {self.last_v}"
            )
        self.last_v = max(self.last_v, v)
        self.state_v = max(self.state_v, v)
        self.table.observe_state(v, msg.get("game"))

    def take_pending(self, seq: Any) -> Command | None:
        """The command an answer names by its seq, no longer pending (None: no such one)."""
        return self.pending.pop(seq, None)

    def on_ack(self, msg: dict[str, Any], text: str) -> None:
        cmd = self.take_pending(msg.get("seq"))
        if cmd is None:
            self.soak.c["stray_acks"] += 1
            self.soak.note(f"table {self.table.id}: {self.side} ack for no pending command: {text}")
        else:
            self.table.resolve(cmd, int(msg["v"]), bool(msg.get("dup")))

    def on_error(self, msg: dict[str, Any], text: str) -> None:
        cmd = self.take_pending(msg.get("seq"))
        if cmd is None:
            self.soak.c["server_errors"] += 1
            self.soak.note(f"table {self.table.id}: {self.side} error {text[:200]}")
        else:
            self.table.reject(cmd, f"{msg.get('code')}: {msg.get('message')}")

    def note_resynced(self, now: float) -> None:
        """A reconnected phone that now holds the table's version has resynced."""
        resync = self.resync
        if resync is not None and self.last_v >= resync.target:
            self.soak.resync_ms.append((now - resync.t_open) * 1000)
            self.soak.resync_events.append(resync.events)
            self.resync = None

    async def read(self, ws: ClientConnection) -> None:
        try:
            await read_messages(ws, self.on_message, self.reader_failed)
        finally:
            self.closed.set()
            self.wake.set()

    def reader_failed(self, exc: Exception) -> None:
        self.soak.c["client_errors"] += 1
        self.soak.note(f"table {self.table.id}: {self.side} reader failed: {exc!r}")

    async def send_quietly(self, message: dict[str, Any]) -> None:
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(dumps(message))

    async def ping(self) -> None:
        ws = self.ws
        if ws is None:
            return
        now = time.perf_counter()
        if self.probe_at and now - self.probe_at > PONG_LATE_S:
            self.soak.c["pong_late"] += 1
            self.soak.note(f"table {self.table.id}: {self.side} no pong for {PONG_LATE_S:g} s")
            self.probe_at = now
        if not self.probe_at:
            self.probe_at = now
        self.ping_id += 1
        message = {"t": "ping", "id": self.ping_id, "client_ms": round(now * 1000, 1)}
        await ws.send(dumps(message))

    # -- the socket -------------------------------------------------------------

    async def open(self, reconnect: bool) -> bool:
        soak = self.soak
        try:
            # deflate is offered as browsers do; the server declines it
            ws = await connect_seat(soak.port, self.table.id, "deflate", CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, WebSocketException) as exc:
            soak.c["connect_failures"] += 1
            soak.note(f"table {self.table.id}: {self.side} could not connect: {exc!r}")
            return False
        t_open = time.perf_counter()
        self.ws = ws
        self.closed.clear()
        self.dropped_by_us = False
        self.probe_at = 0.0
        self.away = False
        if reconnect:
            soak.c["reconnects"] += 1
            self.resync = Resync(t_open, self.table.version)
        self.reader = asyncio.create_task(self.read(ws))
        with contextlib.suppress(ConnectionClosed):
            await hello_again(
                ws, self.token, self.device, self.last_v, self.pending.values(), self.resent
            )
            await self.ping()
        return True

    def resent(self) -> None:
        self.soak.c["resends"] += 1

    def drop(self, mode: str, why: str) -> None:
        ws = self.ws
        if ws is None or self.dropped_by_us or self.closed.is_set():
            return
        self.dropped_by_us = True
        self.soak.c[f"drops_{why}_{mode}"] += 1
        if mode == "abort":
            ws.transport.abort()  # no close frame: as a phone losing its network
        else:
            self.soak.spawn(ws.close())

    async def _sleep_away(self, seconds: float) -> None:
        """Stay away; cut short only when the table is retired or the run stops."""
        soak = self.soak
        self.away = True
        deadline = time.perf_counter() + seconds
        for _ in range(1000):
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or self.retire or soak.stopping:
                return
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), remaining)

    async def live(self) -> None:
        """Keep the phone connected: ping, drop at random, come back, until retired."""
        soak = self.soak
        for _cycle in range(int(soak.max_run_s / 0.5) + 10):
            if self.retire or soak.stopping:
                break
            if self.ws is None and not await self.open(reconnect=self.last_v >= 0):
                await self._sleep_away(self.rng.uniform(*SERVER_CLOSE_BACKOFF_S))
                continue
            ws = self.ws
            assert ws is not None
            await self._stay_connected()
            if self.retire or soak.stopping:
                break
            await self._sleep_away(await self._away_after_close(ws))
        await self.close()

    async def _stay_connected(self) -> None:
        """Ping, and drop at random during the soak, until the socket goes or the phone leaves."""
        soak, cfg = self.soak, self.soak.cfg
        perf = time.perf_counter
        max_ticks = int(soak.max_run_s / min(cfg.ping_s, 1.0)) + 100
        drop_at = math.inf
        next_ping = perf() + cfg.ping_s
        for _tick in range(max_ticks):
            now = perf()
            if self.retire or soak.stopping or self.closed.is_set() or self.dropped_by_us:
                return
            if drop_at == math.inf and soak.t_start is not None:
                drop_at = max(now, soak.t_start) + self.rng.expovariate(1 / cfg.drop_mean)
            if now >= drop_at:
                if soak.dropping(now) and not self.table.retiring:
                    self.drop(self.rng.choice(("abort", "close")), "idle")
                    return
                drop_at = now + 1e9  # the soak is over: no more drops
            if now >= next_ping:
                with contextlib.suppress(ConnectionClosed):
                    await self.ping()
                next_ping = max(next_ping + cfg.ping_s, now + 0.1)
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), max(0.0, min(next_ping, drop_at) - now))

    async def _away_after_close(self, ws: ClientConnection) -> float:
        """Wait (bounded) for the socket to close; how long the phone now stays away."""
        soak, cfg, c = self.soak, self.soak.cfg, self.soak.c
        try:
            await asyncio.wait_for(self.closed.wait(), CLOSE_WAIT_S)
        except TimeoutError:
            ws.transport.abort()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.closed.wait(), 1.0)
        self.ws = None
        if self.resync is not None:
            c["resync_incomplete"] += 1
            soak.note(f"table {self.table.id}: {self.side} closed before it resynced")
            self.resync = None
        if self.dropped_by_us:
            return self.rng.uniform(cfg.away_min, cfg.away_max)
        c[f"server_closes_{ws.close_code}"] += 1
        soak.note(
            f"table {self.table.id}: the server closed {self.side}'s socket: "
            f"{ws.close_code} {ws.close_reason!r}"
        )
        return self.rng.uniform(*SERVER_CLOSE_BACKOFF_S)

    async def close(self) -> None:
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), CLOSE_WAIT_S)
            ws.transport.abort()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 1.0)
