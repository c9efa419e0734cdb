"""A phone of the herd: a seat's socket that drops with every other phone of the hall
and comes back, timed until it holds everything the server had for it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.harness.seats import connect_seat, dumps, hello_again, read_messages

if TYPE_CHECKING:
    from bench.herd_client import Herd
    from bench.herd_table import Table

CONNECT_TIMEOUT_S = 10.0
RESYNC_BOUND_S = 10.0
SERVER_CLOSE_BACKOFF_S = 0.5


@dataclass(slots=True, eq=False)
class Command:
    phone: Phone
    seq: int
    text: str
    base_v: int  # the table's version when sent: it applies as base_v + 1
    sent_at: float
    tap: bool
    after_drop: bool
    resent: int = 0
    answered: bool = False
    acked_v: int | None = None


@dataclass(slots=True)
class Resync:
    t_start: float
    target: int  # the table's version when the phone started back
    measured: bool  # the herd's (True) or a server close's
    t_open: float = 0.0  # the socket opened (its handshake done)
    ping_id: int = -1
    pong: bool = False
    state: bool = False
    events: int = 0


class Phone:
    def __init__(self, herd: Herd, table: Table, side: str, token: str) -> None:
        self.herd = herd
        self.table = table
        self.side = side
        self.token = token
        self.device = f"herd-{table.index}-{side}"
        self.ws: ClientConnection | None = None
        self.stale: list[ClientConnection] = []  # --drop silent: left open, unread
        self.last_v = -1
        self.seq = 0
        self.ping_id = 0
        self.next_ping = 0.0
        self.pending: dict[int, Command] = {}
        self.resync: Resync | None = None
        self.dropped = False
        self.sync_asked = False

    @property
    def current(self) -> bool:
        return self.ws is not None and self.resync is None and self.last_v >= self.table.version

    # -- messages ---------------------------------------------------------------

    def on_message(self, text: str, now: float) -> None:
        msg = json.loads(text)
        kind = msg.get("t")
        if kind == "event":
            self.on_version(int(msg["v"]), msg.get("game"), event=True)
        elif kind == "state":
            self.on_version(int(msg["v"]), msg.get("game"), event=False)
            if self.sync_asked:
                self.table.final_v = int(msg["v"])
                self.sync_asked = False
        elif kind == "ack":
            cmd = self.pending.pop(msg.get("seq"), None)
            if cmd is None:
                self.herd.count("stray_acks", f"{self.side} ack for nothing pending: {text}")
            else:
                self.table.resolve(cmd, int(msg["v"]), bool(msg.get("dup")), now)
        elif kind == "error":
            cmd = self.pending.pop(msg.get("seq"), None)
            self.herd.count("rejected" if cmd else "server_errors", f"{self.side}: {text[:200]}")
            if cmd is not None:
                cmd.answered = True
        elif kind == "pong" and self.resync is not None and msg.get("id") == self.resync.ping_id:
            self.resync.pong = True
        self.check_resynced(now)

    def on_version(self, v: int, game: Any, event: bool) -> None:
        if event and v <= self.last_v:
            self.herd.count("duplicated", f"table {self.table.id}: {self.side} saw v {v} again")
        if self.resync is not None:
            self.resync.events += event
            self.resync.state |= not event
        self.last_v = max(self.last_v, v)
        self.table.observe(v, game)

    def check_resynced(self, now: float) -> None:
        r = self.resync
        if r is None or not r.pong or self.last_v < r.target:
            return
        self.resync = None
        if not r.measured:
            return
        herd = self.herd
        took = now - r.t_start
        if took > RESYNC_BOUND_S:
            herd.count("resync_incomplete", f"{self.side} resynced only after {took:.1f} s")
            return
        herd.resync_ms.append(took * 1000)
        herd.open_ms.append((r.t_open - r.t_start) * 1000)
        herd.c["resync_state" if r.state else "resync_events" if r.events else "resync_none"] += 1

    # -- the socket ---------------------------------------------------------------

    async def read(self, ws: ClientConnection) -> None:
        try:
            await read_messages(ws, self.on_message, self.reader_failed)
        finally:
            if self.ws is ws:
                self.ws = None
                if not self.dropped and not self.herd.stopping:
                    self.herd.count(
                        "server_closes", f"{self.side}: {ws.close_code} {ws.close_reason}"
                    )
                    self.herd.spawn(self.come_back(time.perf_counter() + SERVER_CLOSE_BACKOFF_S))

    def reader_failed(self, exc: Exception) -> None:
        self.herd.count("client_errors", f"{self.side} reader failed: {exc!r}")

    async def open(self) -> bool:
        herd = self.herd
        try:
            ws = await connect_seat(
                herd.port,
                self.table.id,
                herd.compression,
                CONNECT_TIMEOUT_S,
                proxy=None,  # 127.0.0.1: no proxy lookup in the environment on every connect
            )
        except (OSError, TimeoutError, WebSocketException) as exc:
            herd.count("connect_failures", f"{self.side} could not connect: {exc!r}")
            return False
        opened = time.perf_counter()
        self.ws, self.dropped = ws, False
        herd.spawn(self.read(ws))
        with contextlib.suppress(ConnectionClosed):
            await hello_again(
                ws, self.token, self.device, self.last_v, self.pending.values(), self.resent
            )
            self.ping_id += 1
            if self.resync is not None:
                self.resync.ping_id = self.ping_id
                self.resync.t_open = opened
            self.next_ping = time.perf_counter() + herd.ping_s
            await ws.send(dumps({"t": "ping", "id": self.ping_id}))
        return True

    def resent(self) -> None:
        self.herd.c["resends"] += 1

    def drop(self, mode: str) -> None:
        ws, self.ws = self.ws, None
        if ws is None:
            return
        self.dropped = True
        if mode == "silent":
            ws.transport.pause_reading()  # nothing more is read or answered on it
            self.stale.append(ws)
            return
        sock = ws.transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError):  # a reset, not a close frame
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        ws.transport.abort()

    async def come_back(self, at: float, measured: bool = False) -> None:
        """Back at `at` (perf_counter): reopen until resynced or out of time."""
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        if self.ws is not None or self.herd.stopping:
            return
        start = time.perf_counter()
        if self.resync is None or measured:
            self.resync = Resync(start, self.table.version, measured)
        self.herd.c["reconnects"] += 1
        for attempt in range(20):
            if self.herd.stopping or await self.open():
                return
            if time.perf_counter() - start > RESYNC_BOUND_S:
                break
            await asyncio.sleep(min(1.0, 0.1 * (attempt + 1)))
        self.herd.count("reconnect_gave_up", f"{self.side} could not come back")

    async def ping(self, now: float) -> None:
        ws = self.ws
        if ws is None or now < self.next_ping:
            return
        self.ping_id += 1
        self.next_ping = now + self.herd.ping_s
        with contextlib.suppress(ConnectionClosed):
            await ws.send(dumps({"t": "ping", "id": self.ping_id}))

    async def close(self) -> None:
        for ws in [*self.stale, self.ws]:
            if ws is not None:
                ws.transport.abort()
        self.ws, self.stale = None, []
