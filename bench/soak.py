"""Soak benchmark of the table socket: phones that drop, come back and resync.

    python -m bench.soak --tables 1000 --seconds 600

1. Starts the real server (`python -m app.cli serve`, one uvicorn worker, a fresh SQLite
   file in a temporary directory), creates the tables over REST, opens two phone sockets
   per table (the p1 and p2 links) and starts every game.
2. For --seconds, every table taps about every --interval seconds (tables staggered over
   the interval): the phone whose clock is running sends `pass_turn` with the turn-end
   answers its game view says are due (kill box: no; scoring: nothing). As on a real
   phone, only the running side taps, and only once its phone holds the current state;
   while that phone is away, the table waits. Every phone pings every --ping seconds.
   When a game is over, its phones leave and a fresh table takes its place.
3. At random (seeded by --seed), phones drop their socket, abruptly (no close frame) or
   with a normal close, now and then right after sending a tap (--tap-drop). They stay
   away --away-min..--away-max seconds, come back with hello "v": the last version seen,
   and re-send every command not yet acked, with the same seq. Phones do not tap while
   away (queued offline commands are merged by another path, not exercised here).
4. At the end, drops and taps stop; once the away phones are back and every command is
   answered (bounded wait), each table is checked, then the server's RSS is read.

Counted:
  taps         pass_turn commands acked.
  lost         a command that never got an ack or error; an ack whose version never shows
               on a phone (neither as that command's event nor inside a later state); an
               ack saying "dup" for a command that was never applied.
  duplicated   a command applied twice: an ack whose version is not the table's next one
               (the version jumped), the clock passed twice (two pass_turn in a row for
               one side), a version no command of the table claims, two commands acked
               with one version, or a re-send of an applied command not answered dup (it
               ran again: its version jumps, or it is refused as stale).
  rejected     a command refused with an error (targets_met.lost_0 needs none either).
  reconnects   sockets reopened after a drop (the phone's own, or the server's).
  resync_ms    reconnect socket open -> the phone holds the current state: the `state`, or
               the last missed `event` (the table's version at the moment the socket
               opened); when nothing was missed, the first pong after hello (which the
               server queues behind any missed event) is that moment.
  rss          the server's RSS after setup (rss_start_mb) and after the soak (rss_end_mb).
  cpu          the server's CPU (% of one core) over the soak; client_cpu_pct this load
               generator; other_cpu_pct every other process on the machine.
  client_lag   how late this generator's event loop wakes up (sampled every 100 ms): a
               message is timed when the loop reads it, so resync times include this lag.
               After setup the generator freezes its heap and makes its garbage
               collections rare, so that its own pauses stay out of the measurements.

Progress goes to stderr every ~10 s; one JSON line goes to stdout. Everything talks to
127.0.0.1 only and every wait and loop is bounded: the run ends by itself, and the
server is stopped on exit, error, SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.harness.measure import machine_busy_seconds, percentile, rounded
from bench.harness.options import add_common_options
from bench.harness.report import log, machine_fields, run_main
from bench.harness.servers import HOST, ServerProcess, bench_run, free_port, server_argv
from bench.harness.sockets import seat_token

GAME_BODY = {"clock_minutes": 60, "scenario": "bunkers"}
NO_SCORING: dict[str, Any] = {"control": {}, "destroyed": []}
CONNECT_TIMEOUT_S = 10.0
STATE_TIMEOUT_S = 10.0
PONG_LATE_S = 8.0  # a real phone drops a socket whose ping went unanswered this long
SERVER_CLOSE_BACKOFF_S = (0.5, 1.5)
RETIRE_WAIT_S = 45.0  # a finished table waits this long for both phones to be current
DRAIN_S = 40.0  # after the soak: every away phone back, every command answered
PROGRESS_EVERY_S = 10.0
CLOSE_WAIT_S = 5.0
MAX_NOTES = 30
CLIENT_GC_THRESHOLD = (50_000, 20, 20)

Key = tuple[str, str, str]  # (command, expect, by), as an event's "what" shows it


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def what_key(what: Any) -> Key:
    if not isinstance(what, dict):
        return ("?", "", "")
    return (str(what.get("c", "")), str(what.get("expect") or ""), str(what.get("by", "")))


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


# ----------------------------------------------------------------------------
# One phone: a seat's socket, its reader, its pings and its drops
# ----------------------------------------------------------------------------


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
        perf = time.perf_counter
        try:
            async for text in ws:
                if isinstance(text, str):
                    self.on_message(text, perf())
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug here must not look like a dropped socket
            self.soak.c["client_errors"] += 1
            self.soak.note(f"table {self.table.id}: {self.side} reader failed: {exc!r}")
            ws.transport.abort()
        finally:
            self.closed.set()
            self.wake.set()

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
        url = f"ws://{HOST}:{soak.port}/ws/tables/{self.table.id}"
        try:
            ws = await connect(
                url,
                compression="deflate",  # offered as browsers do; the server declines it
                open_timeout=CONNECT_TIMEOUT_S,
                ping_interval=None,  # browsers don't ping; the phone's own pings keep it alive
                close_timeout=2,
            )
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
        hello: dict[str, Any] = {"t": "hello", "token": self.token, "device": self.device}
        if self.last_v >= 0:
            hello["v"] = self.last_v
        with contextlib.suppress(ConnectionClosed):
            await ws.send(dumps(hello))
            # Commands not acked before the drop go again with the same seq.
            for cmd in sorted(self.pending.values(), key=lambda k: k.seq):
                cmd.resent += 1
                soak.c["resends"] += 1
                await ws.send(cmd.text)
            await self.ping()
        return True

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


# ----------------------------------------------------------------------------
# One table: its phones, its commands and the versions it has seen
# ----------------------------------------------------------------------------


class Table:
    def __init__(
        self, soak: Soak, index: int, generation: int, table_id: str, p1: str, p2: str
    ) -> None:
        self.soak = soak
        self.index = index
        self.generation = generation
        self.id = table_id
        self.phones = {"p1": Phone(soak, self, "p1", p1), "p2": Phone(soak, self, "p2", p2)}
        self.version = 0  # the highest version any phone saw or any ack named
        self.game: dict[str, Any] | None = None
        self.game_v = -1
        self.log: dict[int, Key] = {}  # what each version did, from the events seen
        self.claims: dict[int, list[Command]] = {}  # version -> commands acked with it
        self.commands: list[Command] = []
        self.unresolved = 0
        self.checked = False
        self.retiring = False  # the game is over: its players are leaving, no more drops

    def observe(self, v: int, key: Key, game: Any) -> None:
        old = self.log.get(v)
        if old is None:
            self.log[v] = key
        elif old != key:
            self.soak.c["conflicts"] += 1
            self.soak.note(f"table {self.id}: v {v} is {old} on one phone, {key} on the other")
        if v > self.game_v and isinstance(game, dict):
            self.game_v, self.game = v, game
        self.version = max(self.version, v)

    def observe_state(self, v: int, game: Any) -> None:
        if v >= self.game_v and isinstance(game, dict):
            self.game_v, self.game = v, game
        self.version = max(self.version, v)

    async def send(self, phone: Phone, body: dict[str, Any], key: Key) -> Command:
        phone.seq += 1
        text = dumps({"t": "cmd", "seq": phone.seq, **body})
        cmd = Command(phone, phone.seq, text, key, self.version)
        phone.pending[cmd.seq] = cmd
        self.commands.append(cmd)
        self.unresolved += 1
        ws = phone.ws
        sent = False
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(text)
                sent = True
        if not sent:
            self.soak.c["send_failed"] += 1  # stays pending: re-sent on reconnect
        return cmd

    def resolve(self, cmd: Command, v: int, dup: bool) -> None:
        soak, c = self.soak, self.soak.c
        cmd.answered = True
        self.unresolved -= 1
        expected = cmd.base_v + 1
        if cmd.key[0] == "pass_turn":
            c["taps"] += 1
        if cmd.resent:
            c["resent_acked_dup" if dup else "resent_acked_fresh"] += 1
        if v != expected:
            c["duplicated"] += 1
            soak.note(
                f"table {self.id}: {cmd.phone.side} seq {cmd.seq} acked v {v}, "
                f"expected v {expected} (dup {dup}, re-sent {cmd.resent})"
            )
        elif dup and not cmd.resent:
            c["lost"] += 1
            soak.note(f"table {self.id}: first send of seq {cmd.seq} answered dup: not applied")
            return
        # A re-send applied again cannot take base_v + 1: its first application holds it
        # (the table sends nothing else meanwhile), so that shows as a version jump above.
        cmd.acked_v = v
        self.claims.setdefault(v, []).append(cmd)
        self.version = max(self.version, v)

    def reject(self, cmd: Command, error: str) -> None:
        cmd.answered = True
        self.unresolved -= 1
        what = f"table {self.id}: {cmd.phone.side} seq {cmd.seq} {cmd.key}"
        if cmd.resent and self.log.get(cmd.base_v + 1) == cmd.key:
            # Already applied (its event came with the catch-up, ahead of this answer):
            # the re-send should have been answered dup, not run again and refused.
            self.soak.c["duplicated"] += 1
            self.soak.note(f"{what}: re-sent after it was applied, not answered dup: {error}")
            return
        self.soak.c["rejected"] += 1
        self.soak.note(f"{what} -> {error}")

    def settled(self) -> bool:
        return self.unresolved == 0 and all(p.current for p in self.phones.values())

    def over(self) -> bool:
        return self.game is not None and self.game.get("phase") == "over"

    def check(self) -> None:
        """Count what was lost or applied twice; once per table."""
        if self.checked:
            return
        self.checked = True
        soak, c = self.soak, self.soak.c
        for cmd in self.commands:
            if not cmd.answered:
                c["lost"] += 1
                c["lost_unanswered"] += 1
                soak.note(
                    f"table {self.id}: {cmd.phone.side} seq {cmd.seq} {cmd.key} never answered "
                    f"(re-sent {cmd.resent}, phone connected {cmd.phone.ws is not None})"
                )
        for v, cmds in sorted(self.claims.items()):
            if len(cmds) > 1:
                c["duplicated"] += len(cmds) - 1
                soak.note(f"table {self.id}: v {v} acked for {len(cmds)} commands")
            cmd = cmds[0]
            for phone in self.phones.values():
                shown = phone.seen.get(v) == cmd.key or phone.state_v >= v
                if not shown:
                    c["lost"] += 1
                    c["lost_not_shown"] += 1
                    soak.note(
                        f"table {self.id}: v {v} {cmd.key} never showed on {phone.side} "
                        f"(it saw {phone.seen.get(v)}, last v {phone.last_v})"
                    )
                    break
        previous: Key | None = None
        for v in range(1, max(self.log, default=0) + 1):
            key = self.log.get(v)
            if key is not None and v not in self.claims and key[2] != "system":
                c["duplicated"] += 1
                soak.note(f"table {self.id}: v {v} {key} was applied but no command claims it")
            if (
                key is not None
                and previous is not None
                and key[0] == previous[0] == "pass_turn"
                and key[1] == previous[1]
            ):
                c["duplicated"] += 1
                soak.note(f"table {self.id}: {key[1]}'s clock passed twice (v {v - 1}, v {v})")
            previous = key


# ----------------------------------------------------------------------------
# The soak: tables, schedule, drain, accounting
# ----------------------------------------------------------------------------


class Slot:
    """One place in the tap schedule; its table is replaced when a game ends."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.table: Table | None = None
        self.generation = 0


class Soak:
    def __init__(self, cfg: Config, port: int, server: ServerProcess) -> None:
        self.cfg = cfg
        self.port = port
        self.server = server
        self.c: Counter[str] = Counter()
        self.notes: list[str] = []
        self.resync_ms: list[float] = []
        self.resync_events: list[int] = []
        self.lag_ms: list[float] = []  # how late this client's event loop wakes up
        self.slots = [Slot(i) for i in range(cfg.tables)]
        self.t_start: float | None = None
        self.t_end: float | None = None
        self.draining = False
        self.stopping = False
        self.max_run_s = cfg.seconds + 600 + 0.5 * cfg.tables
        self._tasks: set[asyncio.Task[Any]] = set()
        self.http: httpx.AsyncClient | None = None
        self.create_sem = asyncio.Semaphore(cfg.create_concurrency)
        self.connect_sem = asyncio.Semaphore(cfg.connect_concurrency)

    def note(self, message: str) -> None:
        self.c["notes"] += 1
        if len(self.notes) < MAX_NOTES:
            self.notes.append(message)

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
        last = ""
        async with self.create_sem:
            for _attempt in range(3):
                try:
                    response = await self.http.post("/api/tables", json=GAME_BODY)
                except httpx.TransportError as exc:
                    last = repr(exc)
                    await asyncio.sleep(0.5)
                    continue
                if response.status_code == 201:
                    data = response.json()
                    return data["id"], seat_token(data["p1"]["url"]), seat_token(data["p2"]["url"])
                last = f"{response.status_code} {response.text[:200]}"
        raise RuntimeError(f"POST /api/tables failed: {last}")

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
        body: dict[str, Any] = {"c": "pass_turn", "expect": running}
        if game.get("kill_box_due"):
            body["kill_box"] = False
        if game.get("scoring_due"):
            body["scoring"] = NO_SCORING
        drop = self.dropping(time.perf_counter()) and rng.random() < self.cfg.tap_drop
        mode = rng.choice(("abort", "close", "abort_first")) if drop else ""
        if mode == "abort_first":
            # The socket dies as the tap goes: the phone keeps it for the reconnect.
            phone.drop("abort", "at_tap")
        await table.send(phone, body, ("pass_turn", running, running))
        self.c["taps_sent"] += 1
        if mode in ("abort", "close"):
            phone.drop(mode, "after_tap")


# ----------------------------------------------------------------------------
# The run
# ----------------------------------------------------------------------------


async def watch_lag(soak: Soak, period: float = 0.1) -> None:
    """The client's own event-loop lag: what it adds to every latency it measures."""
    perf = time.perf_counter
    for _ in range(int(soak.max_run_s / period)):
        t = perf()
        await asyncio.sleep(period)
        soak.lag_ms.append(max(0.0, (perf() - t - period) * 1000))


CpuSample = tuple[float, float, float, float]  # wall, server CPU, client CPU, machine busy


def cpu_sample(server: ServerProcess) -> CpuSample:
    return time.perf_counter(), server.cpu_seconds(), time.process_time(), machine_busy_seconds()


@dataclass(slots=True)
class Readings:
    """What the run measured besides the soak's counts: the report's raw figures."""

    live: int  # tables set up
    setup_counts: Counter[str]  # the counts when the soak began
    cpu0: CpuSample
    cpu1: CpuSample
    rss_start: float
    rss_end: float
    rss_max: float


class Progress:
    """A line on stderr every PROGRESS_EVERY_S: the counts, and the last window's figures."""

    def __init__(self, soak: Soak, cpu0: CpuSample) -> None:
        assert soak.t_start is not None
        self.soak = soak
        self.cpu_last = cpu0
        self.next_at = soak.t_start + PROGRESS_EVERY_S
        self.seen_resyncs = 0
        self.seen_lags = 0

    def tick(self, now: float, rss: float) -> None:
        if now < self.next_at:
            return
        soak, c = self.soak, self.soak.c
        assert soak.t_start is not None
        cpu_now = cpu_sample(soak.server)
        wall = cpu_now[0] - self.cpu_last[0]
        d_server, d_client, d_machine = (
            (cpu_now[k] - self.cpu_last[k]) / wall * 100 for k in (1, 2, 3)
        )
        away = sum(p.away or p.ws is None for p in soak.phones())
        blocked = sum(t.unresolved > 0 for t in soak.tables())
        p99 = percentile(soak.resync_ms[self.seen_resyncs :], 99)
        lag = percentile(soak.lag_ms[self.seen_lags :], 99)
        self.seen_resyncs, self.seen_lags = len(soak.resync_ms), len(soak.lag_ms)
        log(
            f"t+{now - soak.t_start:.0f}s taps {c['taps']} lost {c['lost']} "
            f"dup {c['duplicated']} rejected {c['rejected']} "
            f"reconnects {c['reconnects']} (away {away}, waiting on an ack "
            f"{blocked} tables), games {c['games_finished']}; last 10 s: resync p99 "
            f"{'-' if p99 is None else f'{p99:.0f}'} ms, client lag p99 "
            f"{'-' if lag is None else f'{lag:.0f}'} ms; "
            f"cpu: server {d_server:.0f}% client {d_client:.0f}% "
            f"other {max(0.0, d_machine - d_server - d_client):.0f}%; "
            f"rss {rss:.1f} MB"
        )
        self.cpu_last = cpu_now
        self.next_at += PROGRESS_EVERY_S


async def set_up(soak: Soak) -> int:
    """A table in every slot, each game started and answered; how many tables are live."""
    cfg = soak.cfg
    perf = time.perf_counter
    t = perf()
    opened = await asyncio.wait_for(
        asyncio.gather(*(soak.open_table(s) for s in soak.slots)),
        timeout=120 + 0.3 * cfg.tables,
    )
    deadline = perf() + 30
    while perf() < deadline and any(t.unresolved for t in soak.tables()):
        await asyncio.sleep(0.1)
    live = sum(opened)
    log(f"setup: {live} tables, {2 * live} sockets open and games started in {perf() - t:.1f} s")
    if live < cfg.tables:
        log(f"setup: {cfg.tables - live} tables failed: {soak.notes[:5]}")
    return live


def quiet_client_collector() -> None:
    """This generator's own collector must not pause it in the middle of a measurement:
    what setup built is frozen, and collections become rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*CLIENT_GC_THRESHOLD)


async def watch_server(soak: Soak, rss_start: float, cpu0: CpuSample) -> float:
    """Until the soak ends: fail if the server exited, log progress; the peak RSS."""
    server = soak.server
    assert soak.t_end is not None
    perf = time.perf_counter
    rss_max = rss_start
    progress = Progress(soak, cpu0)
    for _ in range(int(soak.cfg.seconds) + 10):
        now = perf()
        if now >= soak.t_end:
            break
        if server.proc is not None and server.proc.poll() is not None:
            raise RuntimeError(
                f"the server exited with {server.proc.returncode}:\n{server.log_tail()}"
            )
        rss = server.rss_mb()
        rss_max = max(rss_max, rss)
        progress.tick(now, rss)
        await asyncio.sleep(min(1.0, max(0.0, soak.t_end - perf())))
    return rss_max


async def drain(soak: Soak, drivers: list[asyncio.Task[None]]) -> None:
    """No more taps or drops; away phones come back when their time is up; every table
    is checked."""
    perf = time.perf_counter
    soak.draining = True
    log("soak over: waiting for away phones and every answer")
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*drivers, return_exceptions=True), RETIRE_WAIT_S + 30)
    deadline = perf() + soak.cfg.away_max + DRAIN_S
    while perf() < deadline and not all(t.settled() for t in soak.tables()):
        await asyncio.sleep(0.2)
    await asyncio.gather(*(soak.retire(s, 0.0) for s in soak.slots if s.table))


def stop_everything(soak: Soak, drivers: list[asyncio.Task[None]]) -> None:
    soak.stopping = True
    for task in drivers:
        task.cancel()
    for phone in soak.phones():
        phone.wake.set()
        if phone.ws is not None:
            phone.ws.transport.abort()
    for phone in soak.phones():
        if phone.life is not None:
            phone.life.cancel()
    for task in list(soak._tasks):
        task.cancel()


async def run(cfg: Config, port: int, server: ServerProcess) -> dict[str, Any]:
    soak = Soak(cfg, port, server)
    perf = time.perf_counter
    limits = httpx.Limits(
        max_connections=cfg.create_concurrency, max_keepalive_connections=cfg.create_concurrency
    )
    drivers: list[asyncio.Task[None]] = []
    try:
        async with httpx.AsyncClient(
            base_url=f"http://{HOST}:{port}", timeout=30.0, limits=limits
        ) as http:
            soak.http = http
            live = await set_up(soak)
            quiet_client_collector()
            await asyncio.sleep(1.0)
            rss_start = server.rss_mb()
            setup_counts = Counter(soak.c)
            soak.t_start = perf() + 0.5
            soak.t_end = soak.t_start + cfg.seconds
            cpu0 = cpu_sample(server)
            log(
                f"soak: {cfg.seconds:g} s, taps every ~{cfg.interval:g} s per table, "
                f"pings every {cfg.ping_s:g} s, a phone drops every ~{cfg.drop_mean:g} s "
                f"and after {cfg.tap_drop:.0%} of its taps, away {cfg.away_min:g}-"
                f"{cfg.away_max:g} s; server RSS {rss_start:.1f} MB"
            )
            drivers = [asyncio.create_task(soak.drive(s)) for s in soak.slots if s.table]
            soak.spawn(watch_lag(soak))
            rss_max = await watch_server(soak, rss_start, cpu0)
            cpu1 = cpu_sample(server)
            await drain(soak, drivers)
            rss_end = server.rss_mb()
    finally:
        stop_everything(soak, drivers)
    log_notes(soak)
    readings = Readings(live, setup_counts, cpu0, cpu1, rss_start, rss_end, max(rss_max, rss_end))
    return report(soak, readings)


def log_notes(soak: Soak) -> None:
    for n in soak.notes[:MAX_NOTES]:
        log(f"note: {n}")
    if soak.c["notes"] > len(soak.notes):
        log(f"... {soak.c['notes'] - len(soak.notes)} more notes")


def report(soak: Soak, r: Readings) -> dict[str, Any]:
    """The JSON line: the counts, the readings, and which targets were met."""
    cfg, c = soak.cfg, soak.c
    wall = r.cpu1[0] - r.cpu0[0]
    server_cpu = (r.cpu1[1] - r.cpu0[1]) / wall * 100
    client_cpu = (r.cpu1[2] - r.cpu0[2]) / wall * 100
    machine_cpu = (r.cpu1[3] - r.cpu0[3]) / wall * 100
    soak_counts = c - r.setup_counts
    drops = {k.removeprefix("drops_"): v for k, v in sorted(c.items()) if k.startswith("drops_")}
    closes = {
        k.removeprefix("server_closes_"): v
        for k, v in sorted(c.items())
        if k.startswith("server_closes_")
    }
    resync_p99 = percentile(soak.resync_ms, 99)
    growth = (r.rss_end - r.rss_start) / r.rss_start * 100 if r.rss_start else None
    out: dict[str, Any] = {
        "tables": r.live,
        "sockets": 2 * r.live,
        "seconds": cfg.seconds,
        "seed": cfg.seed,
        "taps": soak_counts["taps"],
        "taps_sent": soak_counts["taps_sent"],
        "lost": c["lost"],
        "lost_unanswered": c["lost_unanswered"],
        "lost_not_shown": c["lost_not_shown"],
        "duplicated": c["duplicated"],
        "rejected": c["rejected"],
        "reconnects": c["reconnects"],
        "drops": drops,
        "server_closes": closes,
        "resends": c["resends"],
        "resent_acked_dup": c["resent_acked_dup"],
        "resent_acked_fresh": c["resent_acked_fresh"],
        "resyncs": len(soak.resync_ms),
        "resync_p50_ms": rounded(percentile(soak.resync_ms, 50)),
        "resync_p99_ms": rounded(resync_p99),
        "resync_max_ms": rounded(max(soak.resync_ms) if soak.resync_ms else None),
        "resync_events_max": max(soak.resync_events, default=0),
        "resync_incomplete": c["resync_incomplete"],
        "client_lag_p99_ms": rounded(percentile(soak.lag_ms, 99), 1),
        "client_lag_max_ms": rounded(max(soak.lag_ms, default=0.0), 1),
        "event_gaps": c["event_gaps"],
        "state_behind": c["state_behind"],
        "stray_acks": c["stray_acks"],
        "redelivered": c["redelivered"],
        "conflicts": c["conflicts"],
        "pong_late": c["pong_late"],
        "connect_failures": c["connect_failures"],
        "server_errors": c["server_errors"],
        "client_errors": c["client_errors"],
        "unsettled_tables": c["unsettled_tables"],
        "setup_failures": c["create_failures"] + c["tables_discarded"],
        "games_finished": c["games_finished"],
        "tap_slots_skipped": {
            "phone_away": c["slots_phone_away"],
            "waiting_ack": c["slots_waiting_ack"],
            "no_game": c["slots_no_game"],
        },
        "tables_created": soak_counts["tables_created"],
        "rss_start_mb": rounded(r.rss_start, 1),
        "rss_end_mb": rounded(r.rss_end, 1),
        "rss_max_mb": rounded(r.rss_max, 1),
        "rss_growth_pct": rounded(growth, 1),
        "server_cpu_pct": rounded(server_cpu, 1),
        "client_cpu_pct": rounded(client_cpu, 1),
        "other_cpu_pct": rounded(max(0.0, machine_cpu - server_cpu - client_cpu), 1),
        **machine_fields(),
    }
    targets = {
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "resync_p99_le_1000ms": resync_p99 is not None and resync_p99 <= 1000,
        "rss_growth_le_10pct": growth is not None and growth <= 10,
    }
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=600.0, help="length of the soak")
    parser.add_argument("--seed", type=int, default=1, help="seeds the drops and the schedule")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--ping", type=float, default=4.0, help="seconds between a phone's pings")
    parser.add_argument(
        "--drop-mean", type=float, default=60.0, help="mean connected seconds between drops"
    )
    parser.add_argument(
        "--tap-drop", type=float, default=0.03, help="chance a phone drops right after a tap"
    )
    parser.add_argument("--away-min", type=float, default=0.5)
    parser.add_argument("--away-max", type=float, default=20.0)
    parser.add_argument("--create-concurrency", type=int, default=16)
    add_common_options(parser)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.interval <= 0 or args.drop_mean <= 0:
        parser.error("--tables, --seconds, --interval and --drop-mean must be positive")
    if not 0 < args.ping < 10:
        parser.error("--ping must be under the server's 10 s heartbeat")
    if not 0 <= args.away_min <= args.away_max or not 0 <= args.tap_drop <= 1:
        parser.error("need 0 <= --away-min <= --away-max and 0 <= --tap-drop <= 1")
    cfg = Config(
        tables=args.tables,
        seconds=args.seconds,
        interval=args.interval,
        ping_s=args.ping,
        away_min=args.away_min,
        away_max=args.away_max,
        drop_mean=args.drop_mean,
        tap_drop=args.tap_drop,
        seed=args.seed,
        connect_concurrency=args.connect_concurrency,
        create_concurrency=args.create_concurrency,
    )

    with bench_run(4 * args.tables + 1024, args.db_dir, "deathclock-soak-") as (tmp, env):
        port = args.port or free_port()
        server = ServerProcess("deathclock", server_argv(port), env, tmp / "server.log")
        try:
            server.start()
            server.wait_ready(port)
            coro = asyncio.wait_for(
                run(cfg, port, server), timeout=cfg.seconds + 600 + 0.5 * cfg.tables
            )
            try:
                import uvloop
            except ImportError:
                out = asyncio.run(coro)
            else:
                out = uvloop.run(coro)
        except BaseException:
            tail = server.log_tail(10)
            if tail:
                log(f"server log tail:\n{tail}")
            raise
        finally:
            server.stop()
    print(json.dumps(out, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    run_main(main, "server stopped")
