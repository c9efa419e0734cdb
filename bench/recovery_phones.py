"""The phones of the failover and restart benchmarks: they stay connected as the page's
do (hello with the last version seen, pending commands re-sent with their seq, pings
every 4 s, a jittered backoff between tries), and the run they share: where a phone
connects, the disruption, the counters.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.harness.report import log
from bench.harness.seats import connect_seat, dumps

PING_S = 4.0  # as the page: the server drops a socket silent for 10 s
CONNECT_S = 10.0
BACKOFF_MAX_S = 10.0  # as the page (web/static/lib/socket.js)
RETRY_TROUBLE_S = 0.2  # a command refused with "server trouble" goes again after this


class Cmd:
    __slots__ = (
        "ack_t",
        "ack_v",
        "c",
        "done_t",
        "error",
        "first_t",
        "sent_t",
        "seq",
        "side",
        "text",
    )

    def __init__(self, side: str, seq: int, body: dict[str, Any]) -> None:
        self.side, self.seq, self.c = side, seq, body["c"]
        self.text = dumps({"t": "cmd", "seq": seq, **body})
        self.first_t = self.sent_t = 0.0
        self.ack_t: float | None = None
        self.ack_v: int | None = None
        self.done_t: float | None = None  # acked and seen by the other phone
        self.error: str | None = None


class Run:
    """The run's shared state: where phones connect, the disruption, the counters."""

    def __init__(
        self, route: Callable[[Phone], int], backoff_s: float, grow: float, interval: float
    ) -> None:
        self.route = route
        self.backoff_s, self.grow = backoff_s, grow  # the page: 0.5 s, doubling
        self.interval = interval
        self.c: Counter[str] = Counter()
        self.notes: list[str] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.disrupted_at: float | None = None
        self.kicked = asyncio.Event()
        self.stopping = False
        self.end = float("inf")
        #: Set while a server is down: phones wait for its port to listen, then try at
        #: their next retry, instead of each being refused every retry (which would
        #: steal the starting server's CPU on a small machine).
        self.closed_door: asyncio.Event | None = None

    def note(self, message: str) -> None:
        if len(self.notes) < 12:
            self.notes.append(message)
            log(message)

    def disrupt(self) -> float:
        self.disrupted_at = time.perf_counter()
        self.kicked.set()
        return self.disrupted_at


class Seat(Protocol):
    """The table a phone sits at (bench.recovery.Game), as the phone sees it."""

    id: str
    wake: asyncio.Event
    tasks: set[asyncio.Task[None]]

    def observe(self, v: int, game: Any, now: float) -> None: ...

    def acked(self, cmd: Cmd) -> None: ...


class Phone:
    def __init__(self, run: Run, table: Seat, side: str, token: str, home: int) -> None:
        self.run, self.table, self.side, self.token, self.home = run, table, side, token, home
        self.device = f"bench-{table.id}-{side}"
        self.ws: ClientConnection | None = None
        self.port = home
        self.last_v = -1
        self.seq = 0
        self.pending: dict[int, Cmd] = {}
        self.task: asyncio.Task[None] | None = None

    # -- messages -------------------------------------------------------------------

    def on_message(self, text: str, now: float) -> None:
        msg = json.loads(text)
        kind = msg.get("t")
        if kind in ("event", "state"):
            v = int(msg["v"])
            self.last_v = max(self.last_v, v)
            self.table.observe(v, msg.get("game"), now)
        elif kind == "ack":
            self.on_ack(msg, now)
        elif kind == "error":
            self.on_error(msg)
        self.table.wake.set()

    def on_ack(self, msg: dict[str, Any], now: float) -> None:
        cmd = self.pending.pop(msg.get("seq", -1), None)
        if cmd is None:
            self.run.c["stray_acks"] += 1
            return
        cmd.ack_v, cmd.ack_t = int(msg["v"]), now
        self.last_v = max(self.last_v, cmd.ack_v)  # the sender gets no event of its own
        if msg.get("dup") and cmd.first_t == cmd.sent_t:
            self.run.c["dup_first_send"] += 1  # said applied before it was ever re-sent
            self.run.note(f"table {self.table.id}: dup ack for a first send (seq {cmd.seq})")
        self.table.acked(cmd)

    def on_error(self, msg: dict[str, Any]) -> None:
        cmd = self.pending.get(msg.get("seq", -1))
        text = f"{msg.get('code')}: {msg.get('message')}"
        if cmd is None:
            self.run.c["server_errors"] += 1
            self.run.note(f"table {self.table.id}: {self.side} error {text[:160]}")
            return
        if msg.get("code") == "server_trouble":
            self.run.c["server_trouble"] += 1  # not applied: it goes again, same seq
            asyncio.get_running_loop().call_later(RETRY_TROUBLE_S, self.resend, cmd)
            return
        del self.pending[cmd.seq]
        cmd.error = text

    # -- commands -------------------------------------------------------------------

    def command(self, body: dict[str, Any]) -> Cmd:
        self.seq += 1
        cmd = Cmd(self.side, self.seq, body)
        self.pending[cmd.seq] = cmd
        cmd.first_t = time.perf_counter()
        self.resend(cmd, first=True)
        return cmd

    def resend(self, cmd: Cmd, first: bool = False) -> None:
        ws = self.ws
        if ws is None or cmd.seq not in self.pending:
            return  # sent on the next reconnect
        if not first:
            self.run.c["resends"] += 1
            cmd.sent_t = time.perf_counter()
        else:
            cmd.sent_t = cmd.first_t
        task = asyncio.get_running_loop().create_task(self._send(ws, cmd.text))
        self.table.tasks.add(task)
        task.add_done_callback(self.table.tasks.discard)

    async def _send(self, ws: ClientConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)

    # -- the socket -----------------------------------------------------------------

    async def open(self, port: int) -> bool:
        try:
            # 127.0.0.1: no proxy lookup in the environment on every connect
            ws = await connect_seat(port, self.table.id, "deflate", CONNECT_S, proxy=None)
            hello: dict[str, Any] = {"t": "hello", "token": self.token, "device": self.device}
            if self.last_v >= 0:
                hello["v"] = self.last_v
            await ws.send(dumps(hello))
        except (OSError, TimeoutError, WebSocketException) as exc:
            self.run.c["connect_failures"] += 1
            if self.run.disrupted_at is None:
                self.run.note(f"table {self.table.id}: {self.side} could not connect: {exc!r}")
            return False
        self.ws, self.port = ws, port
        for cmd in sorted(self.pending.values(), key=lambda k: k.seq):
            self.resend(cmd)  # not answered before the drop: again, with the same seq
        # Back with nothing missed, the server says nothing more: the phone may tap now.
        self.table.wake.set()
        return True

    async def read(self, ws: ClientConnection) -> None:
        perf = time.perf_counter
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                if isinstance(text, str):
                    self.on_message(text, perf())

    async def ping(self, ws: ClientConnection) -> None:
        """Every PING_S from the connect, on a fixed beat as the page's setInterval (see
        `bench.harness.sockets.ping_forever`: a stall of this loop does not bunch the phones)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        for n in range(10**6):
            await asyncio.sleep(max(0.0, start + (n + 1) * PING_S - loop.time()))
            now = time.perf_counter() * 1000
            with contextlib.suppress(ConnectionClosed):
                await ws.send(dumps({"t": "ping", "id": n, "client_ms": round(now, 1)}))

    async def live(self) -> None:
        """Stay connected until the run stops: reconnect with the page's backoff."""
        run = self.run
        backoff = run.backoff_s
        opened = False
        for _try in range(100_000):
            if run.stopping:
                return
            if await self.open(run.route(self)):
                if opened:
                    run.c["reconnects"] += 1
                opened, backoff = True, run.backoff_s
                ws = self.ws
                assert ws is not None
                pinger = asyncio.create_task(self.ping(ws))
                try:
                    await self.read(ws)
                finally:
                    pinger.cancel()
                    self.ws = None
                self.table.wake.set()
                if run.stopping:
                    return
            await asyncio.sleep(backoff * (0.5 + random.random() * 0.5))
            backoff = min(BACKOFF_MAX_S, backoff * run.grow)
            door = run.closed_door
            if door is not None and not door.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(door.wait(), 60)
                await asyncio.sleep(backoff * random.random())  # the retry timer's phase

    async def close(self) -> None:
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.task, 2)
