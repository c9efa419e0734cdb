"""Crash recovery: the real server process is killed with SIGKILL mid-burst and restarted.

Unlike the other integration tests, the server runs as a subprocess on the wall clock: the
test never waits for game time, it only polls for conditions with deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.conftest import token_of

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
TABLES = 100
CLOCK_MINUTES = 60
CLOCK_TOLERANCE_MS = 100
READY_TIMEOUT_S = 120.0  # a guard against a hang, not a speed test: a busy machine starts slowly
REPLY_TIMEOUT_S = 60.0
PING_EVERY_S = 4.0  # as the phones do: the server drops a socket silent for 10 s
SIDES = ("p1", "p2")


def other(side: str) -> str:
    return "p2" if side == "p1" else "p1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


async def poll(check: Callable[[], bool], what: str, timeout: float) -> None:
    """Wait until `check()` holds, looking again every few milliseconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.01)


# ----------------------------------------------------------------------------
# The server under test, as a subprocess (`python -m app.cli serve`)
# ----------------------------------------------------------------------------


class ServerProcess:
    def __init__(self, database_url: str, port: int, log_path: Path) -> None:
        self.database_url = database_url
        self.port = port
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: BinaryIO | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEATHCLOCK_")}
        env["PYTHONUNBUFFERED"] = "1"
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.cli",
                "serve",
                "--host",
                HOST,
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + READY_TIMEOUT_S
        async with httpx.AsyncClient(base_url=self.base, timeout=2.0) as http:
            while True:
                if self.proc.poll() is not None:
                    raise AssertionError(
                        f"server exited with {self.proc.returncode}:\n{self.log_tail()}"
                    )
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/api/formats")).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise AssertionError(f"server not ready in time:\n{self.log_tail()}")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed by the process."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    async def wait_exit(self, timeout: float) -> int:
        assert self.proc is not None
        proc = self.proc
        await poll(lambda: proc.poll() is not None, "the server process to exit", timeout)
        return proc.returncode

    def cleanup(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None


ServerFactory = Callable[..., ServerProcess]


@pytest.fixture
async def servers(tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """Make server processes on one SQLite file; every one is gone after the test."""
    made: list[ServerProcess] = []
    database_url = f"sqlite:///{tmp_path / 'deathclock.db'}"

    def make(port: int) -> ServerProcess:
        server = ServerProcess(database_url, port, tmp_path / f"server-{len(made) + 1}.log")
        made.append(server)
        return server

    try:
        yield make
    finally:
        for server in made:
            server.cleanup()


# ----------------------------------------------------------------------------
# A phone that reads its socket in the background and keeps everything it gets
# ----------------------------------------------------------------------------


class LivePhone:
    def __init__(self, ws: websockets.ClientConnection, table_id: str, side: str) -> None:
        self.ws = ws
        self.table_id = table_id
        self.side = side
        self.device = f"phone-{side}"
        self.seq = 0
        self.version = 0
        self.events: dict[int, dict[str, Any]] = {}
        self.states: list[dict[str, Any]] = []
        self.replies: dict[int, list[dict[str, Any]]] = {}
        self.logs: list[list[dict[str, Any]]] = []
        self.pongs: set[int] = set()
        self.pings = 0
        self.close_code: int | None = None
        self._news = asyncio.Event()
        self.reader = asyncio.create_task(self._read())
        self.pinger = asyncio.create_task(self._ping_now_and_then())

    @classmethod
    async def connect(
        cls, ws_base: str, table_id: str, token: str, side: str, last_version: int | None = None
    ) -> LivePhone:
        ws = await websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=None)
        hello: dict[str, Any] = {"t": "hello", "token": token, "device": f"phone-{side}"}
        if last_version is not None:
            hello["v"] = last_version
        await ws.send(json.dumps(hello))
        return cls(ws, table_id, side)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message["t"]
                if kind == "event":
                    self.events[message["v"]] = message
                    self.version = max(self.version, message["v"])
                elif kind == "state":
                    self.states.append(message)
                    self.version = message["v"]
                elif kind in ("ack", "error") and message.get("seq") is not None:
                    self.replies.setdefault(message["seq"], []).append(message)
                elif kind == "log":
                    self.logs.append(message["entries"])
                elif kind == "pong":
                    self.pongs.add(message["id"])
                self._news.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.pinger.cancel()
            self._news.set()

    async def _ping_now_and_then(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.sleep(PING_EVERY_S)
                await self.ping()

    async def ping(self) -> int:
        self.pings += 1
        await self.send({"t": "ping", "id": self.pings, "client_ms": 0})
        return self.pings

    @property
    def closed(self) -> bool:
        return self.reader.done()

    async def until(self, check: Callable[[], bool], what: str) -> None:
        deadline = asyncio.get_running_loop().time() + REPLY_TIMEOUT_S
        while not check():
            if self.closed:
                raise AssertionError(
                    f"table {self.table_id} {self.device}: socket closed "
                    f"({self.close_code}) while waiting for {what}"
                )
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"table {self.table_id} {self.device}: no {what}")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), left)

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def send_command(self, body: dict[str, Any], seq: int | None = None) -> int:
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.send({"t": "cmd", "seq": seq, **body})
        return seq

    async def command(self, body: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        """Send a command and wait for its reply (an ack or an error)."""
        before = len(self.replies.get(seq, [])) if seq is not None else 0
        seq = await self.send_command(body, seq)
        await self.until(lambda: len(self.replies.get(seq, [])) > before, f"reply to seq {seq}")
        return self.replies[seq][-1]

    async def state(self) -> dict[str, Any]:
        """A fresh snapshot: sync, then a ping whose pong proves the state came first."""
        await self.send({"t": "sync"})
        ping = await self.ping()
        await self.until(lambda: ping in self.pongs, "the state after sync")
        return self.states[-1]

    async def log(self) -> list[dict[str, Any]]:
        count = len(self.logs)
        await self.send({"t": "log"})
        await self.until(lambda: len(self.logs) > count, "the table log")
        return self.logs[-1]

    async def close(self) -> None:
        self.pinger.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()
        with contextlib.suppress(Exception):
            await self.reader


# ----------------------------------------------------------------------------
# What the test knows of each table
# ----------------------------------------------------------------------------


@dataclass
class Acked:
    """A command its sender saw acked, with the event that announced it."""

    side: str
    device: str
    seq: int
    version: int
    body: dict[str, Any]
    event: dict[str, Any]


@dataclass
class InFlight:
    side: str
    seq: int
    body: dict[str, Any]
    acked: bool = False


@dataclass
class Table:
    index: int
    id: str
    tokens: dict[str, str]
    phones: dict[str, LivePhone] = field(default_factory=dict)
    acked: list[Acked] = field(default_factory=list)
    in_flight: InFlight | None = None

    @property
    def last(self) -> Acked:
        return self.acked[-1]

    @property
    def running(self) -> str:
        running: str = self.last.event["game"]["running"]
        return running

    def record(self, side: str, seq: int, reply: dict[str, Any], body: dict[str, Any]) -> Acked:
        assert reply["t"] == "ack" and not reply["dup"], (self.id, body, reply)
        phone = self.phones[side]
        version = reply["v"]
        # The event is published before the ack, on the same socket.
        assert version in phone.events, f"table {self.id}: ack of v{version} before its event"
        acked = Acked(side, phone.device, seq, version, body, phone.events[version])
        assert not self.acked or version > self.last.version
        self.acked.append(acked)
        return acked

    async def do(self, side: str, body: dict[str, Any]) -> Acked:
        phone = self.phones[side]
        seq = phone.seq + 1
        reply = await phone.command(body, seq)
        phone.seq = seq
        return self.record(side, seq, reply, body)

    async def connect(self, ws_base: str, resume: bool = False) -> None:
        old = dict(self.phones)
        for side in SIDES:
            last = old[side].version if resume else None
            self.phones[side] = await LivePhone.connect(
                ws_base, self.id, self.tokens[side], side, last
            )


def remaining_at_change(event: dict[str, Any]) -> list[int]:
    """Both clocks at the moment of the change (the event's view is a little later)."""
    game = event["game"]
    at_ms = event["what"]["at_ms"]
    remaining = list(game["remaining_ms"])
    if game["running"] is not None:
        index = SIDES.index(game["running"])
        remaining[index] += game["as_of_ms"] - at_ms
    return remaining


def without_clock_readings(game: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in game.items() if k not in ("remaining_ms", "as_of_ms")}


async def create_tables(base: str, count: int) -> list[Table]:
    tables = []
    async with httpx.AsyncClient(base_url=base, timeout=10.0) as http:
        for index in range(count):
            response = await http.post(
                "/api/tables", json={"clock_minutes": CLOCK_MINUTES, "scenario": "bunkers"}
            )
            assert response.status_code == 201, response.text
            links = response.json()
            tokens = {side: token_of(links[side]["url"]) for side in SIDES}
            tables.append(Table(index, links["id"], tokens))
    return tables


async def open_game(table: Table, taps: int) -> None:
    """P1 starts, then `taps` taps pass the clock (deployment, advance deployment, turns)."""
    await table.do("p1", {"c": "start"})
    assert table.running == "p1"
    for _ in range(taps):
        side = table.running
        await table.do(side, {"c": "pass_turn", "expect": side})
        assert table.running == other(side)


# ----------------------------------------------------------------------------
# The checks after the restart
# ----------------------------------------------------------------------------


def check_recovered(
    table: Table, state: dict[str, Any], log: list[dict[str, Any]], seen: dict[int, dict[str, Any]]
) -> list[str]:
    """Everything acked is there once, nothing else changed, the clocks kept running."""
    unacked = table.in_flight if table.in_flight and not table.in_flight.acked else None
    problems = check_versions(table, state["v"], log, unacked)
    if problems:
        return problems
    by_version = {e["v"]: e for e in log}
    problems += check_logged(table, state["v"], by_version, seen)
    problems += check_clocks(table, state, by_version, unacked)
    return problems


def check_versions(
    table: Table, version: int, log: list[dict[str, Any]], unacked: InFlight | None
) -> list[str]:
    """The table is at the last acked version (or one more, the tap in flight); no gap."""
    tid, last = table.id, table.last
    if version < last.version:
        return [f"{tid}: lost acked commands: v{version} < last acked v{last.version}"]
    if version > last.version + (1 if unacked else 0):
        return [f"{tid}: v{version} after last acked v{last.version}, in flight: {unacked}"]
    if [e["v"] for e in log] != list(range(1, version + 1)):
        return [f"{tid}: log versions {[e['v'] for e in log]} for v{version}"]
    return []


def check_logged(
    table: Table,
    version: int,
    by_version: dict[int, dict[str, Any]],
    seen: dict[int, dict[str, Any]],
) -> list[str]:
    """Each acked command is in the log as acked, and so is every event a phone saw."""
    problems: list[str] = []
    tid = table.id
    for acked in table.acked:
        entry = by_version[acked.version]
        what = acked.event["what"]
        if entry != {"v": acked.version, **what}:
            problems.append(f"{tid}: log v{acked.version} is {entry}, acked as {what}")
    for v, event in seen.items():  # an event any phone saw was durable before it was sent
        if v > version or by_version[v] != {"v": v, **event["what"]}:
            problems.append(f"{tid}: event v{v} seen before the crash is not in the log")
    return problems


def check_clocks(
    table: Table,
    state: dict[str, Any],
    by_version: dict[int, dict[str, Any]],
    unacked: InFlight | None,
) -> list[str]:
    """The right clock runs, and each shows what a chess clock would at server_ms."""
    tid, last, game = table.id, table.last, state["game"]
    now = state["server_ms"]
    problems: list[str] = []
    if game["as_of_ms"] != now:
        problems.append(f"{tid}: state's game is as of {game['as_of_ms']}, server_ms {now}")
    if state["v"] == last.version:
        running, expected = clocks_since_last_ack(table, now)
        if without_clock_readings(game) != without_clock_readings(last.event["game"]):
            problems.append(
                f"{tid}: game changed without a command:\n  before {last.event['game']}"
                f"\n  after  {game}"
            )
    else:
        assert unacked is not None
        entry = by_version[state["v"]]
        wanted = {"by": unacked.side, **unacked.body}
        if {k: entry.get(k) for k in wanted} != wanted:
            problems.append(f"{tid}: v{state['v']} is {entry}, not the tap in flight {wanted}")
        running, expected = clocks_since_tap_in_flight(table, unacked, entry["at_ms"], now)
    if game["running"] != running:
        problems.append(f"{tid}: {game['running']} runs, {running} should")
    since = now - last.event["what"]["at_ms"]
    for index, side in enumerate(SIDES):
        off = game["remaining_ms"][index] - expected[index]
        if abs(off) > CLOCK_TOLERANCE_MS:
            problems.append(
                f"{tid}: {side} shows {game['remaining_ms'][index]} ms, a chess clock "
                f"{expected[index]} ms ({off:+} ms; running {running}, "
                f"{since} ms since the last acked change)"
            )
    return problems


def clocks_since_last_ack(table: Table, now: int) -> tuple[str | None, list[int]]:
    """Nothing applied after the last ack: its running clock alone ran on until now."""
    last = table.last
    running: str | None = last.event["game"]["running"]
    expected = remaining_at_change(last.event)
    if running is not None:
        expected[SIDES.index(running)] -= now - last.event["what"]["at_ms"]
    return running, expected


def clocks_since_tap_in_flight(
    table: Table, unacked: InFlight, tapped_at: int, now: int
) -> tuple[str | None, list[int]]:
    """The tap in flight was applied: the tapper's clock ran until it, the other's since."""
    last = table.last
    running = other(unacked.side)
    expected = remaining_at_change(last.event)
    expected[SIDES.index(unacked.side)] -= tapped_at - last.event["what"]["at_ms"]
    expected[SIDES.index(running)] -= now - tapped_at
    return running, expected


def check_caught_up(phone: LivePhone, state: dict[str, Any], hello_version: int) -> list[str]:
    """A phone that says hello with the last version it saw is brought up to date unasked."""
    before_sync = [s["v"] for s in phone.states[:-1]] + list(phone.events)
    caught_up = max(before_sync, default=hello_version)
    if caught_up != state["v"]:
        return [
            f"{phone.table_id} {phone.device}: hello with v{hello_version} brought it to "
            f"v{caught_up}, the table is at v{state['v']}"
        ]
    return []


async def resend_everything(table: Table, version: int) -> list[str]:
    """Re-sent acked commands are duplicates; a re-sent tap in flight counts exactly once."""
    problems: list[str] = []
    tid = table.id
    for acked in table.acked:
        reply = await table.phones[acked.side].command(acked.body, acked.seq)
        want = {"t": "ack", "seq": acked.seq, "v": acked.version, "dup": True}
        if reply != want:
            problems.append(f"{tid}: re-sent {acked.device} seq {acked.seq}: {reply}, not {want}")
    final = table.last.version
    flight = table.in_flight
    if flight is not None and not flight.acked:
        final += 1
        reply = await table.phones[flight.side].command(flight.body, flight.seq)
        want = {"t": "ack", "seq": flight.seq, "v": final, "dup": version == final}
        if reply != want:
            problems.append(f"{tid}: re-sent tap in flight: {reply}, not {want}")
    state = await table.phones["p1"].state()
    if state["v"] != final:
        problems.append(f"{tid}: v{state['v']} after the re-sends, not v{final}")
    if flight is not None and state["game"]["running"] != other(flight.side):
        problems.append(f"{tid}: {state['game']['running']} runs after the tap in flight")
    return problems


# ----------------------------------------------------------------------------
# The tests
# ----------------------------------------------------------------------------


async def close_phones(tables: list[Table]) -> None:
    await asyncio.gather(*(p.close() for t in tables for p in t.phones.values()))


async def test_sigkill_mid_burst_loses_no_acked_command_and_clocks_keep_running(
    servers: ServerFactory,
) -> None:
    port = free_port()
    first = servers(port)
    await first.start()
    tables = await create_tables(first.base, TABLES)
    try:
        await crash_and_recover(servers, port, first, tables)
    finally:
        await close_phones(tables)


async def crash_and_recover(
    servers: ServerFactory, port: int, first: ServerProcess, tables: list[Table]
) -> None:
    await asyncio.gather(*(table.connect(first.ws_base) for table in tables))
    phones = [phone for table in tables for phone in table.phones.values()]
    await poll(lambda: all(p.states for p in phones), "every phone's first state", 10)
    # 0–5 taps after the start: deployment, advance deployment or turn 1, either side running.
    await asyncio.gather(*(open_game(table, table.index % 6) for table in tables))
    assert {t.running for t in tables} == {"p1", "p2"}
    assert len({len(t.acked) for t in tables}) == 6

    # The burst: one tap on three tables of four, none waits for its ack. Once the server
    # acks the first half, the second half goes out and the kill follows at once.
    burst = [t for t in tables if t.index % 4 != 3]
    for table in burst:
        side = table.running
        table.in_flight = InFlight(side, 0, {"c": "pass_turn", "expect": side})
    half = len(burst) // 2

    async def fire(table: Table) -> None:
        assert table.in_flight is not None
        flight = table.in_flight
        flight.seq = await table.phones[flight.side].send_command(flight.body)

    def some_acked() -> bool:
        return any(
            t.in_flight is not None and t.in_flight.seq in t.phones[t.in_flight.side].replies
            for t in burst[:half]
        )

    await asyncio.gather(*(fire(t) for t in burst[:half]))
    await poll(some_acked, "an ack of the burst", REPLY_TIMEOUT_S)
    await asyncio.gather(*(fire(t) for t in burst[half:]))
    first.kill()
    await poll(lambda: all(p.closed for p in phones), "the sockets to close after the kill", 10)

    # Every ack that reached a phone was sent before the kill: those taps are acked.
    acked_in_flight = 0
    for table in burst:
        flight = table.in_flight
        assert flight is not None
        replies = table.phones[flight.side].replies.get(flight.seq, [])
        if replies:
            table.record(flight.side, flight.seq, replies[0], flight.body)
            flight.acked = True
            acked_in_flight += 1
    seen = {
        table.id: {v: e for p in table.phones.values() for v, e in p.events.items()}
        for table in tables
    }
    resumed_from = {t.id: {side: p.version for side, p in t.phones.items()} for t in tables}

    second = servers(port)
    await second.start()
    await asyncio.gather(*(table.connect(second.ws_base, resume=True) for table in tables))

    async def recover(table: Table) -> tuple[list[str], bool]:
        problems: list[str] = []
        states = {}
        for side, phone in table.phones.items():
            states[side] = await phone.state()
            problems += check_caught_up(phone, states[side], resumed_from[table.id][side])
        state = states["p1"]
        log = await table.phones["p1"].log()
        problems += check_recovered(table, state, log, seen[table.id])
        problems += await resend_everything(table, state["v"])
        return problems, state["v"] > table.last.version

    recovered = await asyncio.gather(*(recover(t) for t in tables))
    problems = [p for found, _ in recovered for p in found]
    applied = sum(1 for _, unacked_applied in recovered if unacked_applied)
    print(
        f"\n{len(burst)} taps in flight at the kill: {acked_in_flight} acked, "
        f"{applied} applied without an ack, {len(burst) - acked_in_flight - applied} lost"
    )
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
async def test_planned_restart_closes_phone_sockets_with_1012(
    servers: ServerFactory, stop_signal: signal.Signals
) -> None:
    port = free_port()
    server = servers(port)
    await server.start()
    tables = await create_tables(server.base, 3)
    try:
        for table in tables:
            await table.connect(server.ws_base)
            await open_game(table, table.index)
        phones = [phone for table in tables for phone in table.phones.values()]
        await poll(lambda: all(p.states for p in phones), "every phone's first state", 10)

        os.kill(server.pid, stop_signal)
        await poll(lambda: all(p.closed for p in phones), "the sockets to close", 15)
        await server.wait_exit(15)
        codes = {f"{p.table_id} {p.device}": p.close_code for p in phones}
        assert set(codes.values()) == {1012}, f"close codes (1012 = service restart): {codes}"

        again = servers(port)
        await again.start()
        for table in tables:
            await table.connect(again.ws_base, resume=True)
            state = await table.phones["p2"].state()
            assert state["v"] == table.last.version
            assert state["game"]["running"] == table.running
    finally:
        await close_phones(tables)
