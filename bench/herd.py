"""Thundering-herd benchmark: every phone of the hall drops at once and comes back.

    python -m bench.herd --phones 2000                # 1000 tables, one worker
    python -m bench.herd --phones 2000 --workers 2    # two workers on PostgreSQL + Redis

1. Starts the real server (`python -m app.cli serve`; with --workers N > 1 on a PostgreSQL
   schema and a Redis prefix of the run's own: DEATHCLOCK_TEST_POSTGRES_URL and
   DEATHCLOCK_TEST_REDIS_URL), creates --phones / 2 tables over REST, opens both phones of
   each (the p1 and p2 links) and starts every game.
2. Games go on: every table taps about every --interval s (tables staggered over the
   interval): the phone whose clock runs sends `pass_turn` with the turn-end answers its
   game view says are due, once its phone holds the current state and the table's last
   command is answered (as on a real phone). Every phone pings every --ping s.
3. After --before s of taps, EVERY phone drops its socket at the same moment, abruptly
   (--drop reset: a TCP reset, no close frame; --drop silent: the socket is left open and
   unread, as a phone whose Wi-Fi vanished, and the server finds out by its heartbeat).
4. Each phone comes back after a uniform random delay of 0..--spread s, as a phone does:
   hello with "v", the last version it saw (the server sends what was missed, or the whole
   state), then every command not acked before the drop again with the same seq (the
   server answers "dup" for one it had applied), and a ping.
5. Taps go on for --after s after the last phone's return, then stop; once every command
   is answered and every phone current (bounded wait), each table asks for its state
   ("sync") and is checked.

Counted:
  resync_ms    per phone: reconnect start (before the socket opens) -> the phone holds
               the table's version at that moment AND has the pong of the ping sent after
               hello (the server queues it behind whatever it sends for the hello), so the
               phone has everything the server had for it. A phone that is not resynced
               within RESYNC_BOUND_S, or not at all, is an incomplete resync.
  lost         a command never answered; an ack whose version is above the table's final
               version; an ack saying "dup" for a command sent once (it was not applied).
  duplicated   an ack whose version is not the table's next one, two commands acked with
               one version, a version of the final state no command claims (something was
               applied twice), or a phone that saw one version twice.
  rejected     a command refused with an error (targets_met.lost_0 needs none either).
  cpu          server, client and every other process over the herd (the drop -> the last
               return + HERD_TAIL_S); client_lag_p99_ms how late this generator's event
               loop woke up meanwhile (resync times include it).

One JSON line goes to stdout, progress to stderr; everything talks to 127.0.0.1 and every
wait is bounded. The server, its workers and the client processes are stopped on exit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import shlex
import signal
import socket
import struct
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import psutil  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.harness.load import Workers, run_loop
from bench.harness.measure import (
    cpu_over,
    machine_busy_seconds,
    percentile,
    rounded,
    steal_seconds,
    wait_for_quiet,
)
from bench.harness.options import add_common_options, add_load_options
from bench.harness.report import log, machine_fields, run_main
from bench.harness.servers import HOST, ServerProcess, bench_run, free_port, server_argv
from bench.table_latency import cluster_env, create_tables

CONNECT_TIMEOUT_S = 10.0
RESYNC_BOUND_S = 10.0
HERD_TAIL_S = 2.0  # the herd's CPU window ends this long after the last phone's return
SETTLE_S = 20.0
SYNC_WAIT_S = 10.0
SERVER_CLOSE_BACKOFF_S = 0.5
NO_SCORING: dict[str, Any] = {"control": {}, "destroyed": []}
MAX_NOTES = 20


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


@dataclass(frozen=True)
class Schedule:
    """Monotonic times, shared by every client process."""

    first_at: float  # the first tap slot
    interval: float
    n_tables: int
    drop_at: float
    spread: float
    end_at: float  # no tap slot from here on


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


# ----------------------------------------------------------------------------
# One phone
# ----------------------------------------------------------------------------


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
        perf = time.perf_counter
        try:
            async for text in ws:
                if isinstance(text, str):
                    self.on_message(text, perf())
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug here must not look like a dropped socket
            self.herd.count("client_errors", f"{self.side} reader failed: {exc!r}")
            ws.transport.abort()
        finally:
            if self.ws is ws:
                self.ws = None
                if not self.dropped and not self.herd.stopping:
                    self.herd.count(
                        "server_closes", f"{self.side}: {ws.close_code} {ws.close_reason}"
                    )
                    self.herd.spawn(self.come_back(time.perf_counter() + SERVER_CLOSE_BACKOFF_S))

    async def open(self) -> bool:
        herd = self.herd
        url = f"ws://{HOST}:{herd.port}/ws/tables/{self.table.id}"
        try:
            ws = await connect(
                url,
                compression=herd.compression,
                open_timeout=CONNECT_TIMEOUT_S,
                ping_interval=None,  # browsers don't ping; the phone's own pings keep it alive
                close_timeout=2,
                proxy=None,  # 127.0.0.1: no proxy lookup in the environment on every connect
            )
        except (OSError, TimeoutError, WebSocketException) as exc:
            herd.count("connect_failures", f"{self.side} could not connect: {exc!r}")
            return False
        opened = time.perf_counter()
        self.ws, self.dropped = ws, False
        herd.spawn(self.read(ws))
        hello: dict[str, Any] = {"t": "hello", "token": self.token, "device": self.device}
        if self.last_v >= 0:
            hello["v"] = self.last_v
        with contextlib.suppress(ConnectionClosed):
            await ws.send(dumps(hello))
            # Commands not acked before the drop go again with the same seq.
            for cmd in sorted(self.pending.values(), key=lambda k: k.seq):
                cmd.resent += 1
                herd.c["resends"] += 1
                await ws.send(cmd.text)
            self.ping_id += 1
            if self.resync is not None:
                self.resync.ping_id = self.ping_id
                self.resync.t_open = opened
            self.next_ping = time.perf_counter() + herd.ping_s
            await ws.send(dumps({"t": "ping", "id": self.ping_id}))
        return True

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


# ----------------------------------------------------------------------------
# One table
# ----------------------------------------------------------------------------


class Table:
    def __init__(self, herd: Herd, index: int, table_id: str, p1: str, p2: str) -> None:
        self.herd = herd
        self.index = index
        self.id = table_id
        self.phones = {"p1": Phone(herd, self, "p1", p1), "p2": Phone(herd, self, "p2", p2)}
        self.version = 0  # the highest version any phone saw or any ack named
        self.game: dict[str, Any] | None = None
        self.game_v = -1
        self.commands: list[Command] = []
        self.claims: dict[int, list[Command]] = {}
        self.final_v: int | None = None
        self.broken = False

    def observe(self, v: int, game: Any) -> None:
        if v >= self.game_v and isinstance(game, dict):
            self.game_v, self.game = v, game
        self.version = max(self.version, v)

    @property
    def unanswered(self) -> bool:
        return any(not cmd.answered for cmd in self.commands)

    def settled(self) -> bool:
        return not self.unanswered and all(p.current for p in self.phones.values())

    async def send(self, phone: Phone, body: dict[str, Any], now: float) -> Command:
        phone.seq += 1
        text = dumps({"t": "cmd", "seq": phone.seq, **body})
        herd = self.herd
        after = herd.schedule is not None and now >= herd.schedule.drop_at
        cmd = Command(phone, phone.seq, text, self.version, now, body["c"] == "pass_turn", after)
        phone.pending[cmd.seq] = cmd
        self.commands.append(cmd)
        ws = phone.ws
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(text)
                return cmd
        herd.c["send_failed"] += 1  # stays pending: sent again on the reconnect
        return cmd

    def resolve(self, cmd: Command, v: int, dup: bool, now: float) -> None:
        herd = self.herd
        cmd.answered = True
        if cmd.resent:
            herd.c["resent_acked_dup" if dup else "resent_acked_fresh"] += 1
        if v != cmd.base_v + 1:
            herd.count(
                "duplicated", f"table {self.id}: seq {cmd.seq} acked v {v}, not {cmd.base_v + 1}"
            )
        elif dup and not cmd.resent:
            herd.count("lost", f"table {self.id}: seq {cmd.seq} sent once, answered dup")
            return
        cmd.acked_v = v
        self.claims.setdefault(v, []).append(cmd)
        self.version = max(self.version, v)
        if cmd.tap:
            herd.c["taps_after" if cmd.after_drop else "taps_before"] += 1
            if not cmd.resent:
                (herd.ack_after_ms if cmd.after_drop else herd.ack_before_ms).append(
                    (now - cmd.sent_at) * 1000
                )

    def tapper(self) -> tuple[Phone, dict[str, Any]] | None:
        """The running side's phone and its pass_turn, if it may tap now."""
        game = self.game
        if self.unanswered or game is None or self.game_v < self.version:
            return None
        running = game.get("running")
        if running not in ("p1", "p2") or not self.phones[running].current:
            return None
        body: dict[str, Any] = {"c": "pass_turn", "expect": running}
        if game.get("kill_box_due"):
            body["kill_box"] = False
        if game.get("scoring_due"):
            body["scoring"] = NO_SCORING
        return self.phones[running], body

    def check(self) -> None:
        """Count what was lost or applied twice, against the server's final state."""
        herd = self.herd
        final = self.final_v
        if final is None:
            herd.count("unchecked_tables", f"table {self.id}: no final state")
            return
        for cmd in self.commands:
            if not cmd.answered:
                herd.count("lost", f"table {self.id}: {cmd.phone.side} seq {cmd.seq} unanswered")
            elif cmd.acked_v is not None and cmd.acked_v > final:
                herd.count("lost", f"table {self.id}: acked v {cmd.acked_v} > final v {final}")
        for v in range(1, final + 1):
            claimed = len(self.claims.get(v, ()))
            if claimed != 1:
                herd.c["duplicated"] += max(1, claimed - 1)
                herd.note(f"table {self.id}: v {v} claimed by {claimed} commands")
        for phone in self.phones.values():
            if phone.last_v != final:
                herd.count("phones_behind", f"table {self.id}: {phone.side} at v {phone.last_v}")


# ----------------------------------------------------------------------------
# A client process's share of the hall
# ----------------------------------------------------------------------------


@dataclass
class Herd:
    port: int
    compression: str | None
    ping_s: float
    seed: int
    drop_mode: str
    c: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    resync_ms: list[float] = field(default_factory=list)
    open_ms: list[float] = field(default_factory=list)  # of each resync: until the socket opened
    ack_before_ms: list[float] = field(default_factory=list)
    ack_after_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)  # over the herd only
    schedule: Schedule | None = None
    stopping: bool = False
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def note(self, message: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(message)

    def count(self, key: str, message: str) -> None:
        self.c[key] += 1
        self.note(f"{key}: {message}")

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @property
    def phones(self) -> list[Phone]:
        return [p for t in self.tables for p in t.phones.values()]

    async def set_up(self, table: Table, sem: asyncio.Semaphore) -> None:
        async with sem:
            for phone in table.phones.values():
                if not await phone.open():
                    table.broken = True
                    return
        for _ in range(200):
            if all(p.last_v >= 0 for p in table.phones.values()):
                break
            await asyncio.sleep(0.05)
        start = await table.send(table.phones["p1"], {"c": "start"}, time.perf_counter())
        for _ in range(200):
            if start.answered:
                return
            await asyncio.sleep(0.05)
        table.broken = True
        self.count("setup_failures", f"table {table.id}: the game did not start")

    async def drive(self, table: Table, s: Schedule, shift: float) -> None:
        perf = time.perf_counter
        due = s.first_at + shift + table.index * s.interval / s.n_tables
        for _ in range(int((s.end_at - s.first_at) / s.interval) + 2):
            if due >= s.end_at + shift or self.stopping:
                return
            await asyncio.sleep(max(0.0, due - perf()))
            due += s.interval
            if table.game is not None and table.game.get("phase") == "over":
                self.c["games_finished"] += 1
                return
            tap = table.tapper()
            if tap is None:
                self.c["slots_skipped"] += 1
                continue
            await table.send(tap[0], tap[1], perf())

    async def pinger(self) -> None:
        while not self.stopping:
            now = time.perf_counter()
            for phone in self.phones:
                await phone.ping(now)
            await asyncio.sleep(0.25)

    async def drop_all(self, s: Schedule, shift: float) -> None:
        """Every phone drops at drop_at and comes back within `spread`."""
        rng = random.Random(self.seed)
        await asyncio.sleep(max(0.0, s.drop_at + shift - time.perf_counter()))
        phones = [p for t in self.tables if not t.broken for p in t.phones.values()]
        for phone in phones:
            phone.drop(self.drop_mode)
        for phone in phones:
            at = s.drop_at + shift + rng.uniform(0.0, s.spread)
            self.spawn(phone.come_back(at, measured=True))

    async def watch_lag(self, start: float, end: float) -> None:
        perf = time.perf_counter
        await asyncio.sleep(max(0.0, start - perf()))
        for _ in range(int((end - start) / 0.05) + 1):
            t = perf()
            await asyncio.sleep(0.05)
            self.lag_ms.append(max(0.0, (perf() - t - 0.05) * 1000))

    async def settle_and_check(self) -> None:
        perf = time.perf_counter
        deadline = perf() + SETTLE_S
        live = [t for t in self.tables if not t.broken]
        while perf() < deadline and not all(t.settled() for t in live):
            await asyncio.sleep(0.1)
        for table in live:
            phone = table.phones["p1"]
            if phone.ws is not None:
                phone.sync_asked = True
                with contextlib.suppress(ConnectionClosed):
                    await phone.ws.send(dumps({"t": "sync"}))
        deadline = perf() + SYNC_WAIT_S
        while perf() < deadline and any(t.final_v is None for t in live):
            await asyncio.sleep(0.1)
        for phone in self.phones:
            if phone.resync is not None and phone.resync.measured:
                self.count("resync_incomplete", f"table {phone.table.id}: {phone.side} not back")
        for table in live:
            table.check()


def client_main(
    idx: int,
    port: int,
    rows: list[tuple[int, str, str, str]],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    run_loop(client(idx, port, rows, cfg, ctrl_q, out_q))


async def client(
    idx: int,
    port: int,
    rows: list[tuple[int, str, str, str]],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    compression = None if cfg["compression"] == "none" else "deflate"
    herd = Herd(port, compression, cfg["ping_s"], cfg["seed"] * 1000 + idx, cfg["drop"])
    herd.tables = [Table(herd, i, tid, p1, p2) for i, tid, p1, p2 in rows]
    name = f"client-{idx}"
    loop = asyncio.get_running_loop()
    try:
        t = time.monotonic()
        sem = asyncio.Semaphore(cfg["connect_concurrency"])
        pinger = asyncio.create_task(herd.pinger())
        await asyncio.wait_for(
            asyncio.gather(*(herd.set_up(tb, sem) for tb in herd.tables)),
            timeout=60 + 0.2 * len(herd.tables),
        )
        live = sum(not tb.broken for tb in herd.tables)
        ready = {"tables": live, "seconds": time.monotonic() - t, "errors": herd.notes[:5]}
        out_q.put(("ready", name, ready))
        # What setup built is frozen, and the collector stays off until the run is over:
        # with it on, the reconnects set off this generator's own collections in the middle
        # of the herd, and every resync in flight counted them.
        gc.collect()
        gc.freeze()
        gc.disable()
        s: Schedule | None = await loop.run_in_executor(None, ctrl_q.get, True, 600)
        if s is None:
            return
        herd.schedule = s
        shift = time.perf_counter() - time.monotonic()
        herd_end = s.drop_at + s.spread + HERD_TAIL_S
        cpu = asyncio.create_task(cpu_over(psutil.Process(), s.drop_at, herd_end))
        herd.spawn(herd.watch_lag(s.drop_at + shift, herd_end + shift))
        herd.spawn(herd.drop_all(s, shift))
        drives = [herd.drive(tb, s, shift) for tb in herd.tables if not tb.broken]
        bound = s.end_at - time.monotonic() + 30
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*drives), timeout=bound)
        await herd.settle_and_check()
        herd.stopping = True
        pinger.cancel()
        client_cpu = None
        with contextlib.suppress(TimeoutError):
            client_cpu = await asyncio.wait_for(cpu, timeout=5)
        out_q.put(("result", name, _result(herd, client_cpu)))
    finally:
        gc.enable()
        herd.stopping = True
        for phone in herd.phones:
            await phone.close()
        for task in list(herd.tasks):
            task.cancel()


def _result(herd: Herd, client_cpu: float | None) -> dict[str, Any]:
    return {
        "resync_ms": herd.resync_ms,
        "open_ms": herd.open_ms,
        "ack_before_ms": herd.ack_before_ms,
        "ack_after_ms": herd.ack_after_ms,
        "lag_ms": herd.lag_ms,
        "counters": dict(herd.c),
        "notes": herd.notes,
        "client_cpu_pct": client_cpu,
    }


# ----------------------------------------------------------------------------
# The parent: server, tables, client processes, the herd's CPU and the report
# ----------------------------------------------------------------------------


def cpu_sample(server: ServerProcess) -> tuple[float, float, float, float]:
    return time.monotonic(), server.cpu_seconds(), machine_busy_seconds(), steal_seconds()


def collect(
    workers: Workers, server: ServerProcess, s: Schedule, label: str
) -> tuple[dict[str, dict[str, Any]], list[tuple[float, ...]], float]:
    """Every client's result; CPU samples at the drop and at the herd's end; peak RSS."""
    herd_end = s.drop_at + s.spread + HERD_TAIL_S
    edges: list[tuple[float, ...]] = []
    results: dict[str, dict[str, Any]] = {}
    rss_max = 0.0
    deadline = s.end_at + SETTLE_S + SYNC_WAIT_S + 60
    next_log = s.drop_at
    while len(results) < len(workers.procs):
        now = time.monotonic()
        if now > deadline:
            raise RuntimeError("the clients did not report in time")
        if len(edges) < 2 and now >= (s.drop_at, herd_end)[len(edges)]:
            edges.append(cpu_sample(server))
        if now >= next_log:
            rss_max = max(rss_max, server.rss_mb())
            log(f"{label}t{now - s.drop_at:+.0f}s from the drop, server rss {rss_max:.0f} MB")
            next_log += 5.0
        msg = workers.get(0.05)
        if msg is not None and msg[0] == "result":
            results[msg[1]] = msg[2]
    while len(edges) < 2:
        edges.append(cpu_sample(server))
    return results, edges, max(rss_max, server.rss_mb())


def run_herd(args: argparse.Namespace, env: dict[str, str], tmp: Any) -> dict[str, Any]:
    port = args.port or free_port()
    argv = [*server_argv(port), "--workers", str(args.workers)]
    prefix = shlex.split(args.server_prefix) if args.server_prefix else []
    server = ServerProcess("deathclock", prefix + argv, env, tmp / "server.log")
    workers = Workers()
    try:
        server.start()
        server.wait_ready(port)
        t = time.monotonic()
        rows = asyncio.run(create_tables(port, args.phones // 2, args.create_concurrency))
        log(f"created {len(rows)} tables in {time.monotonic() - t:.1f} s")
        cfg = {
            "compression": args.compression,
            "connect_concurrency": args.connect_concurrency,
            "ping_s": args.ping,
            "seed": args.seed,
            "drop": args.drop,
        }
        n_clients = workers.start_phones(client_main, port, rows, cfg, args.clients, "client")
        ready = workers.wait_ready(90 + 0.3 * len(rows))
        live = sum(r["tables"] for r in ready.values())
        log(f"{2 * live} phones connected, {live} games started")
        rss_before = server.rss_mb()
        if args.quiet_wait > 0:
            log(f"other processes use {wait_for_quiet(args.quiet_wait):.0f}% of a core")
        first_at = time.monotonic() + 1.0
        drop_at = first_at + args.before
        s = Schedule(
            first_at,
            args.interval,
            len(rows),
            drop_at,
            args.spread,
            drop_at + args.spread + args.after,
        )
        for q in workers.ctrl_qs:
            q.put(s)
        log(
            f"taps every {args.interval:g} s per table; every phone drops in {args.before + 1:g} s "
            f"({args.drop}) and comes back within {args.spread:g} s; taps for {args.after:g} s more"
        )
        results, edges, rss_max = collect(workers, server, s, "")
        rss_end = server.rss_mb()
    finally:
        workers.stop(clean=sys.exc_info()[0] is None)
        server.stop()
    return report(args, live, n_clients, results, edges, (rss_before, rss_end, rss_max))


def report(
    args: argparse.Namespace,
    live: int,
    n_clients: int,
    results: dict[str, dict[str, Any]],
    edges: list[tuple[float, ...]],
    rss: tuple[float, float, float],
) -> dict[str, Any]:
    merged: dict[str, list[Any]] = {
        k: [] for k in ("resync_ms", "open_ms", "ack_before_ms", "ack_after_ms", "lag_ms", "notes")
    }
    c: Counter[str] = Counter()
    client_cpu = 0.0
    for r in results.values():
        for key, values in merged.items():
            values += r[key]
        c.update(r["counters"])
        client_cpu += r["client_cpu_pct"] or 0.0
    for n in merged["notes"][:MAX_NOTES]:
        log(f"note: {n}")
    (t0, s0, m0, st0), (t1, s1, m1, st1) = edges[0], edges[1]
    wall = max(t1 - t0, 1e-9)
    server_cpu = (s1 - s0) / wall * 100
    resync = merged["resync_ms"]
    out: dict[str, Any] = {
        "phones": 2 * live,
        "tables": live,
        "workers": args.workers,
        "drop": args.drop,
        "spread_s": args.spread,
        "interval_s": args.interval,
        "taps_before": c["taps_before"],
        "taps_after": c["taps_after"],
        "resyncs": len(resync),
        "resync_p50_ms": rounded(percentile(resync, 50)),
        "resync_p99_ms": rounded(percentile(resync, 99)),
        "resync_max_ms": rounded(max(resync) if resync else None),
        # Of which the socket's opening (TCP and WebSocket handshakes, as the client saw them).
        "resync_open_p50_ms": rounded(percentile(merged["open_ms"], 50)),
        "resync_open_p99_ms": rounded(percentile(merged["open_ms"], 99)),
        # Every phone of a live table drops once: those without a measured resync did not
        # get one within RESYNC_BOUND_S (or at all).
        "resync_incomplete": 2 * live - len(resync),
        "resync_by": {k: c[f"resync_{k}"] for k in ("events", "state", "none")},
        "lost": c["lost"],
        "duplicated": c["duplicated"],
        "rejected": c["rejected"],
        "phones_behind": c["phones_behind"],
        "unchecked_tables": c["unchecked_tables"],
        "resends": c["resends"],
        "resent_acked_dup": c["resent_acked_dup"],
        "resent_acked_fresh": c["resent_acked_fresh"],
        "reconnects": c["reconnects"],
        "connect_failures": c["connect_failures"],
        "server_closes": c["server_closes"],
        "server_errors": c["server_errors"],
        "client_errors": c["client_errors"],
        "ack_p99_before_ms": rounded(percentile(merged["ack_before_ms"], 99)),
        "ack_p99_after_ms": rounded(percentile(merged["ack_after_ms"], 99)),
        "server_cpu_pct": rounded(server_cpu, 1),
        "client_cpu_pct": rounded(client_cpu, 1),
        "other_cpu_pct": rounded(max(0.0, (m1 - m0) / wall * 100 - server_cpu - client_cpu), 1),
        "steal_cpu_pct": rounded((st1 - st0) / wall * 100, 1),
        "client_lag_p99_ms": rounded(percentile(merged["lag_ms"], 99), 1),
        "server_rss_before_mb": rounded(rss[0], 1),
        "server_rss_end_mb": rounded(rss[1], 1),
        "server_rss_max_mb": rounded(rss[2], 1),
        "clients": n_clients,
        **machine_fields(),
    }
    p99 = out["resync_p99_ms"]
    targets = {
        "resync_p99_le_1000ms": p99 is not None and p99 <= 1000,
        "resync_complete": out["resync_incomplete"] == 0,
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
    }
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.herd", description=__doc__)
    parser.add_argument("--phones", type=int, default=2000, help="two per table")
    parser.add_argument("--workers", type=int, default=1, help="server workers")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--before", type=float, default=10.0, help="seconds of taps first")
    parser.add_argument("--spread", type=float, default=1.0, help="phones return within S s")
    parser.add_argument("--after", type=float, default=10.0, help="seconds of taps after")
    parser.add_argument("--ping", type=float, default=4.0, help="seconds between pings")
    parser.add_argument("--drop", choices=("reset", "silent"), default="reset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--create-concurrency", type=int, default=16)
    add_common_options(parser)
    add_load_options(parser)
    args = parser.parse_args(argv)
    if args.phones < 2 or args.phones % 2:
        parser.error("--phones must be an even number, 2 or more (two phones a table)")
    if args.interval <= 0 or args.before < 0 or args.after < 0 or args.spread < 0:
        parser.error("--interval must be positive; --before, --after and --spread not negative")
    if not 0 < args.ping < 10:
        parser.error("--ping must be under the server's 10 s heartbeat")
    with (
        bench_run(2 * args.phones + 1024, args.db_dir, "deathclock-herd-") as (tmp, env),
        cluster_env(env, args.workers) as app_env,
    ):
        out = run_herd(args, app_env, tmp)
    print(json.dumps(out, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    run_main(main)
