"""What the failover and restart benchmarks share: phones that stay connected as the
page's do (hello with the last version seen, pending commands re-sent with their seq,
pings every 4 s, a jittered backoff between tries), tables tapping at a steady rate, the
moment each table is served again after a disruption, and the check of every table's
log afterwards (REST `GET /api/tables/{id}/log`).

A table is served again once a tap first sent after the disruption is acked to its
sender and its version reached the other phone (an event, or the state a reconnected
phone gets). Everything runs on one event loop; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.common import HOST, log, percentile, rounded

T = TypeVar("T")
PING_S = 4.0  # as the page: the server drops a socket silent for 10 s
CONNECT_S = 10.0
BACKOFF_MAX_S = 10.0  # as the page (web/static/lib/socket.js)
RETRY_TROUBLE_S = 0.2  # a command refused with "server trouble" goes again after this
SETTLE_S = 30.0  # a tap without its ack and peer event by then: the table stops


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


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


class Phone:
    def __init__(self, run: Run, table: Game, side: str, token: str, home: int) -> None:
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
        url = f"ws://{HOST}:{port}/ws/tables/{self.table.id}"
        try:
            ws = await connect(
                url,
                compression="deflate",
                open_timeout=CONNECT_S,
                ping_interval=None,
                close_timeout=2,
                proxy=None,  # 127.0.0.1: no proxy lookup in the environment on every connect
            )
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
        `bench.common.ping_forever`: a stall of this loop does not bunch the phones)."""
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
        game = self.view or {}
        if game.get("phase") == "over" or game.get("running") not in ("p1", "p2"):
            return None
        extra: dict[str, Any] = {}
        if game.get("kill_box_due"):
            extra["kill_box"] = False
        if game.get("scoring_due"):
            extra["scoring"] = {"control": {}, "destroyed": []}
        return str(game["running"]), extra

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
            side, extra = nxt
            cmd = await self.tap(side, {"c": "pass_turn", "expect": side, **extra})
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


def run_fast(coro: Coroutine[Any, Any, T]) -> T:
    """Run the benchmark's loop on uvloop when installed (as the server does)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


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


def recovery_times(tables: list[Game], since: float) -> dict[str, float | None]:
    times = [t.served_at - since for t in tables if t.served_at is not None]
    return {
        "max_s": rounded(max(times) if times else None),
        "p99_s": rounded(percentile(times, 99)),
        "p50_s": rounded(percentile(times, 50)),
        "min_s": rounded(min(times) if times else None),
    }


def outcome(tables: list[Game], left: int) -> dict[str, Any]:
    """What every recovery benchmark reports of its phones' commands: lost, twice,
    unanswered, and how the phones got back."""
    c = tables[0].run.c
    return {
        "not_served": sum(t.served_at is None for t in tables),
        "acked_lost": c["acked_lost"],
        "duplicated": c["duplicated"] + c["same_version_acked_twice"],
        "dup_flag_on_first_send": c["dup_first_send"],
        "unanswered": left,
        "taps": c["taps"],
        "rejected": c["rejected"],
        "server_trouble": c["server_trouble"],
        "reconnects": c["reconnects"],
        "resends": c["resends"],
        "connect_failures": c["connect_failures"],
        "phones_behind": c["phones_behind"],
        "log_holes": c["log_holes"],
    }


def with_targets(
    out: dict[str, Any], goal: str, took_s: float | None, goal_s: float, unsettled: int
) -> dict[str, Any]:
    """`out` with its targets: every table served within `goal_s`, nothing acked lost,
    nothing twice, every command answered."""
    targets = {
        goal: took_s is not None and took_s <= goal_s and out["not_served"] == 0,
        "acked_lost_0": out["acked_lost"] == 0 and out["log_holes"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "every_command_answered": out["unanswered"] == 0 and unsettled == 0,
    }
    return {**out, "targets_met": targets, "all_targets_met": all(targets.values())}


def add_recovery_options(parser: argparse.ArgumentParser, before: str, after: str) -> None:
    """The options every recovery benchmark takes (`before`/`after`: what happens between
    the warm-up and the tapping after, in its own words)."""
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--warmup", type=float, default=10.0, help=f"tapping before {before}")
    parser.add_argument("--after", type=float, default=10.0, help=f"tapping after {after}")
    parser.add_argument("--recovery-timeout", type=float, default=60.0)
    parser.add_argument("--create-concurrency", type=int, default=16)
