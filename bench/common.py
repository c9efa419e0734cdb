"""What the benchmarks share: the server under test as a subprocess, the phone client
of the table socket, percentiles and CPU accounting.

Everything talks to 127.0.0.1 only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import queue
import random
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
TAP_TIMEOUT_S = 5.0
START_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 20.0
SERVER_READY_TIMEOUT_S = 60.0


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run_main(main: Callable[[], int], stopped: str = "server and clients stopped") -> None:
    """A benchmark's entry point: its exit code; Ctrl-C says what was stopped (130)."""
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        log(f"interrupted; {stopped}")
        sys.exit(130)


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def cpu_fields(result: dict[str, Any]) -> dict[str, Any]:
    """A measured window's CPU and memory, as the latency benchmarks report them."""
    return {
        "server_cpu_pct": rounded(result["server_cpu_pct"], 1),
        "server_cpu_ms_per_tap": rounded(result["server_cpu_ms_per_tap"]),
        "server_rss_mb": rounded(result["server_rss_mb"], 1),
        "server_rss_max_mb": rounded(result["server_rss_max_mb"], 1),
        "client_cpu_pct": rounded(result["client_cpu_pct"], 1),
        "other_cpu_pct": rounded(result["other_cpu_pct"], 1),
        "steal_cpu_pct": rounded(result["steal_cpu_pct"], 1),
    }


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


def steal_seconds() -> float:
    """CPU seconds the hypervisor gave to others while this machine wanted them (all cores)."""
    return float(getattr(psutil.cpu_times(), "steal", 0.0))


def machine_busy_seconds() -> float:
    """CPU seconds spent by every process on the machine (all cores), idle excluded."""
    t = psutil.cpu_times()
    return float(t.user + t.nice + t.system + getattr(t, "irq", 0.0) + getattr(t, "softirq", 0.0))


def wait_for_quiet(max_wait: float, busy_cores: float = 0.25) -> float:
    """Wait (at most max_wait s) until the machine's other processes use < busy_cores."""
    deadline = time.monotonic() + max_wait
    other = 0.0
    while True:
        t0, c0 = time.monotonic(), machine_busy_seconds()
        time.sleep(1.0)
        other = (machine_busy_seconds() - c0) / (time.monotonic() - t0)
        if other < busy_cores or time.monotonic() >= deadline:
            return other * 100
        log(f"other processes use {other * 100:.0f}% of a core; waiting for a quieter machine")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def raise_open_files_limit(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    if hard != resource.RLIM_INFINITY and hard < needed:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))
            return needed
        needed = hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return needed


# ----------------------------------------------------------------------------
# The server under test, as a subprocess
# ----------------------------------------------------------------------------


_FULL_WALK = re.compile(rb"garbage collection \(generation 2\) took (\d+) ms")


class ServerProcess:
    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_path: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.ps: psutil.Process | None = None
        self._log_file: Any = None

    def start(self) -> None:
        self._log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.ps = psutil.Process(self.proc.pid)
        log(f"{self.name}: started pid {self.proc.pid}: {' '.join(self.argv)}")

    def log_size(self) -> int:
        """How far the server's log has come (an offset for `full_walks`)."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def full_walks(self, since: int) -> list[int]:
        """The collector's full walks the server logged after offset `since`, in ms (it logs
        those of 100 ms or more: app.collector); every tap in flight waited for each."""
        try:
            with self.log_path.open("rb") as f:
                f.seek(since)
                text = f.read()
        except OSError:
            return []
        return [int(m.group(1)) for m in _FULL_WALK.finditer(text)]

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def wait_ready(self, port: int) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + SERVER_READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.proc.returncode}:\n{self.log_tail()}"
                )
            try:
                httpx.get(f"http://{HOST}:{port}/", timeout=1.0)
                log(f"{self.name}: answering on port {port}")
                return
            except httpx.TransportError:
                time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer within {SERVER_READY_TIMEOUT_S:.0f} s")

    def _processes(self) -> list[psutil.Process]:
        assert self.ps is not None
        procs = [self.ps]
        with contextlib.suppress(psutil.Error):
            procs += self.ps.children(recursive=True)
        return procs

    def cpu_seconds(self) -> float:
        total = 0.0
        for p in self._processes():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def rss_mb(self) -> float:
        total = 0
        for p in self._processes():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total / (1024 * 1024)

    def stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            # A --server-prefix wrapper may not pass the signal on: its children go too.
            children: list[psutil.Process] = []
            with contextlib.suppress(psutil.Error):
                children = psutil.Process(proc.pid).children(recursive=True)
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5)
            for child in children:
                with contextlib.suppress(psutil.Error):
                    child.terminate()
            _gone, alive = psutil.wait_procs(children, timeout=10)
            for child in alive:
                with contextlib.suppress(psutil.Error):
                    child.kill()
            log(f"{self.name}: stopped (exit {proc.returncode})")
        if proc is not None:
            # Anything of its session still running (a worker its parent did not wait for).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


# ----------------------------------------------------------------------------
# The phone client of the table socket
# ----------------------------------------------------------------------------


def seat_token(url: str) -> str:
    """The seat token at the end of a table link (".../t/<id>#k=<token>")."""
    return url.split("#k=", 1)[1]


class Stats:
    def __init__(self) -> None:
        self.ack_ms: list[float] = []
        self.peer_ms: list[float] = []
        self.send_lag_ms: list[float] = []
        self.timeline: list[tuple[float, float, float]] = []  # (monotonic t0, ack, peer)
        self.taps = 0  # measured taps sent
        self.taps_total = 0  # every tap sent, warm-up included
        self.completed = 0
        self.lost = 0
        self.lost_no_ack = 0
        self.lost_no_peer = 0
        self.duplicated = 0
        self.rejected = 0
        self.version_mismatch = 0
        self.unsolicited = 0
        self.games_finished = 0
        self.tables_stopped = 0
        self.connect_failures = 0
        self.start_failures = 0
        self.socket_closed = 0
        self.errors: list[str] = []

    def note(self, message: str) -> None:
        if len(self.errors) < 10:
            self.errors.append(message)

    def counters(self) -> dict[str, int]:
        return {
            k: v for k, v in vars(self).items() if isinstance(v, int) and not isinstance(v, bool)
        }


def int_after(text: str, key: str) -> int:
    start = text.index(key) + len(key)
    end = start
    while end < len(text) and text[end] in "-0123456789":
        end += 1
    return int(text[start:end])


class Tap:
    __slots__ = (
        "ack_t",
        "ack_v",
        "done",
        "error",
        "expect_v",
        "peer_events",
        "peer_t",
        "sender",
        "seq",
        "t0",
    )

    def __init__(self, sender: Phone, seq: int, expect_v: int, done: asyncio.Future[None]) -> None:
        self.sender = sender
        self.seq = seq
        self.expect_v = expect_v
        self.done = done
        self.t0 = 0.0
        self.ack_t: float | None = None
        self.ack_v: int | None = None
        self.peer_t: float | None = None
        self.peer_events = 0
        self.error: str | None = None

    def check_done(self) -> None:
        if self.ack_t is not None and self.peer_t is not None and not self.done.done():
            self.done.set_result(None)


class Phone:
    __slots__ = ("last_v", "reader", "seq", "side", "table", "ws")

    def __init__(self, table: Table, side: str) -> None:
        self.table = table
        self.side = side
        self.ws: Any = None
        self.last_v = -1
        self.seq = 0
        self.reader: asyncio.Task[None] | None = None

    def on_message(self, text: str, now: float) -> None:
        # The servers send compact JSON that begins with {"t":"<kind>"; only the kind,
        # the version and the ack's seq are read on this path.
        kind = text[6 : text.find('"', 6)] if text.startswith('{"t":"') else ""
        if kind == "event":
            self._on_event(text, now)
        elif kind == "ack":
            self._on_ack(json.loads(text), now)
        elif kind == "error":
            self._on_error(text)
        elif kind == "state":
            v = int_after(text, '"v":')
            if v >= self.table.latest_v:
                self.table.latest_v = v
                self.table.latest_text = text

    def _on_event(self, text: str, now: float) -> None:
        table, st, tap = self.table, self.table.stats, self.table.pending
        v = int_after(text, '"v":')
        if v <= self.last_v:
            st.duplicated += 1
            st.note(f"table {table.id}: {self.side} saw version {v} again")
        self.last_v = max(self.last_v, v)
        if v > table.latest_v:
            table.latest_v = v
            table.latest_text = text
        if tap is None:
            st.unsolicited += 1
            return
        if self is tap.sender:
            return
        tap.peer_events += 1
        if tap.peer_events > 1:
            st.duplicated += 1
            st.note(f"table {table.id}: a second event (v {v}) for one tap")
        if v == tap.expect_v and tap.peer_t is None:
            tap.peer_t = now
            tap.check_done()
        elif v != tap.expect_v:
            st.version_mismatch += 1

    def _on_ack(self, msg: dict[str, Any], now: float) -> None:
        table, st, tap = self.table, self.table.stats, self.table.pending
        if tap is None or self is not tap.sender or msg.get("seq") != tap.seq:
            st.unsolicited += 1
            return
        v = msg.get("v")
        if msg.get("dup"):
            st.duplicated += 1
            st.note(f"table {table.id}: ack says dup for seq {tap.seq}")
        if v in table.acked:
            st.duplicated += 1
            st.note(f"table {table.id}: version {v} acked twice")
        table.acked.add(v)
        if v != tap.expect_v:
            st.version_mismatch += 1
        tap.ack_t = now
        tap.ack_v = v
        tap.check_done()

    def _on_error(self, text: str) -> None:
        table, tap = self.table, self.table.pending
        msg = json.loads(text)
        if tap is not None and self is tap.sender and msg.get("seq") == tap.seq:
            tap.error = f"{msg.get('code')}: {msg.get('message')}"
            if not tap.done.done():
                tap.done.set_result(None)
        else:
            table.stats.note(f"table {table.id}: error {text[:200]}")


class Table:
    __slots__ = (
        "acked",
        "id",
        "index",
        "latest_text",
        "latest_v",
        "local_running",
        "pending",
        "phones",
        "stats",
        "stopped",
        "tokens",
    )

    def __init__(self, index: int, table_id: str, p1: str, p2: str, stats: Stats) -> None:
        self.index = index
        self.id = table_id
        self.tokens = {"p1": p1, "p2": p2}
        self.phones = {"p1": Phone(self, "p1"), "p2": Phone(self, "p2")}
        self.stats = stats
        self.latest_v = -1
        self.latest_text = ""
        self.local_running: str | None = None
        self.pending: Tap | None = None
        self.acked: set[int] = set()
        self.stopped = False

    def next_tap(self) -> tuple[str, dict[str, Any]] | None:
        """Who taps now and the turn-end answers due, from the latest game view."""
        game = None
        if self.latest_text:
            game = json.loads(self.latest_text).get("game")
        extra: dict[str, Any] = {}
        if isinstance(game, dict):
            if game.get("phase") == "over":
                return None
            running = game.get("running")
            if game.get("kill_box_due"):
                extra["kill_box"] = False
            if game.get("scoring_due"):
                extra["scoring"] = {"control": {}, "destroyed": []}
        else:  # the bare relay has no game: the sides alternate
            running = self.local_running
        if running not in ("p1", "p2"):
            return None
        return running, extra

    async def send(self, phone: Phone, body: dict[str, Any]) -> Tap:
        loop = asyncio.get_running_loop()
        phone.seq += 1
        tap = Tap(phone, phone.seq, self.latest_v + 1, loop.create_future())
        text = json.dumps({"t": "cmd", "seq": phone.seq, **body}, separators=(",", ":"))
        self.pending = tap
        tap.t0 = time.perf_counter()
        await phone.ws.send(text)
        return tap

    async def finish(self, tap: Tap, timeout: float) -> bool:
        """Wait for the tap's ack and peer event; False (and the table stops) if not."""
        st = self.stats
        remaining = timeout - (time.perf_counter() - tap.t0)
        try:
            await asyncio.wait_for(asyncio.shield(tap.done), max(0.0, remaining))
        except TimeoutError:
            pass
        finally:
            self.pending = None
        if tap.error is not None:
            st.rejected += 1
            st.note(f"table {self.id}: seq {tap.seq} rejected: {tap.error}")
            self.stopped = True
            return False
        if tap.ack_t is None or tap.peer_t is None:
            st.lost += 1
            st.lost_no_ack += tap.ack_t is None
            st.lost_no_peer += tap.peer_t is None
            st.note(
                f"table {self.id}: tap seq {tap.seq} v {tap.expect_v} lost "
                f"(ack {tap.ack_t is not None}, peer event {tap.peer_t is not None})"
            )
            self.stopped = True
            return False
        return True


async def read_phone(phone: Phone) -> None:
    from websockets.exceptions import ConnectionClosed

    perf = time.perf_counter
    try:
        async for text in phone.ws:
            phone.on_message(text, perf())
    except ConnectionClosed:
        pass
    finally:
        if not phone.table.stopped:
            phone.table.stats.socket_closed += 1


async def open_phone(port: int, phone: Phone, compression: str | None) -> None:
    from websockets.asyncio.client import connect

    table = phone.table
    url = f"ws://{HOST}:{port}/ws/tables/{table.id}"
    phone.ws = await connect(
        url,
        compression=compression,
        open_timeout=CONNECT_TIMEOUT_S,
        ping_interval=None,  # phones' browsers don't ping; the server's pings are answered
        close_timeout=2,
    )
    hello = {"t": "hello", "token": table.tokens[phone.side], "device": f"bench-{phone.side}"}
    await phone.ws.send(json.dumps(hello, separators=(",", ":")))
    first = await asyncio.wait_for(phone.ws.recv(), CONNECT_TIMEOUT_S)
    if not isinstance(first, str) or not first.startswith('{"t":"state"'):
        raise RuntimeError(f"expected a state message, got {str(first)[:200]}")
    phone.on_message(first, time.perf_counter())
    phone.reader = asyncio.create_task(read_phone(phone))


async def ping_forever(ws: Any, every: float, until: float) -> None:
    """{"t":"ping"} every `every` s (first one at a random offset) until `until` (monotonic).

    Each phone keeps its own beat: the n-th ping is due at its start plus n times `every`,
    however late the one before went. A phone that slept `every` after each send would be
    pushed back by every stall of the load generator's loop, and every phone with it: after
    a few stalls their pings come in bunches, which independent phones never do."""
    if every <= 0:
        return
    loop = asyncio.get_running_loop()
    start = loop.time() + random.uniform(0.0, every)
    for n in range(int(max(0.0, until - time.monotonic()) / every) + 1):
        await asyncio.sleep(max(0.0, start + n * every - loop.time()))
        if time.monotonic() >= until:
            return
        ping = {"t": "ping", "id": n, "client_ms": time.time() * 1000}
        try:
            await ws.send(json.dumps(ping, separators=(",", ":")))
        except Exception:  # the socket is gone; its reader counts that
            return


# ----------------------------------------------------------------------------
# A phone worker process: opens its share of the tables, taps on the parent's schedule
# ----------------------------------------------------------------------------


def run_loop(coro: Any) -> None:
    """Run a worker's coroutine on uvloop when installed (as the server does)."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


def cpu_seconds(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return float(t.user + t.system)


async def cpu_over(proc: psutil.Process, start: float, end: float) -> float | None:
    """A process's CPU (% of one core) between two monotonic times."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    t0, c0 = time.monotonic(), cpu_seconds(proc)
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    t1, c1 = time.monotonic(), cpu_seconds(proc)
    return (c1 - c0) / (t1 - t0) * 100 if t1 > t0 else None


async def open_phones(
    port: int | dict[str, int],
    table: Table,
    compression: str | None,
    ping_s: float,
    ping_until: float,
    pingers: set[asyncio.Task[None]],
) -> bool:
    """Open both phones of a table (three tries each; `port` may name each side's) and
    start their pings, as the page does; False, and the table stopped, when one cannot
    connect."""
    for side in ("p1", "p2"):
        phone = table.phones[side]
        last: BaseException | None = None
        for _attempt in range(3):
            try:
                await open_phone(port if isinstance(port, int) else port[side], phone, compression)
                break
            except Exception as exc:  # any failure is retried, then counted
                last = exc
                with contextlib.suppress(Exception):
                    if phone.ws is not None:
                        await phone.ws.close()
                phone.ws = None
                await asyncio.sleep(0.2)
        else:
            table.stats.connect_failures += 1
            table.stats.note(f"table {table.id}: {side} could not connect: {last!r}")
            table.stopped = True
            return False
    for side in ("p1", "p2"):
        task = asyncio.create_task(ping_forever(table.phones[side].ws, ping_s, ping_until))
        pingers.add(task)
        task.add_done_callback(pingers.discard)
    return True


#: Called for each measured tap: (table, tap, its send time on the monotonic clock, ack
#: latency ms, peer latency ms).
Measured = Callable[[Table, Tap, float, float, float], None]


async def tap_table(
    table: Table,
    shift: float,
    first_at: float,
    interval: float,
    measure_from: float,
    end_at: float,
    measured: Measured,
) -> None:
    """Tap every `interval` s (perf_counter times) until `end_at`: the phone whose clock
    runs sends `pass_turn` with the turn-end answers due; taps from `measure_from` count."""
    st = table.stats
    perf = time.perf_counter
    due = first_at
    for _ in range(int((end_at - first_at) / interval) + 2):  # bounded: one tap per slot
        if due >= end_at or table.stopped:
            return
        delay = due - perf()
        if delay > 0:
            await asyncio.sleep(delay)
        nxt = table.next_tap()
        if nxt is None:
            st.games_finished += 1
            table.stopped = True
            return
        side, extra = nxt
        counted = due >= measure_from
        tap = await table.send(table.phones[side], {"c": "pass_turn", "expect": side, **extra})
        st.taps_total += 1
        if counted:
            st.taps += 1
            st.send_lag_ms.append((tap.t0 - due) * 1000)
        if not await table.finish(tap, TAP_TIMEOUT_S):
            st.tables_stopped += 1
            return
        assert tap.ack_t is not None and tap.peer_t is not None
        st.completed += 1
        if counted:
            ack_ms = (tap.ack_t - tap.t0) * 1000
            peer_ms = (tap.peer_t - tap.t0) * 1000
            st.ack_ms.append(ack_ms)
            st.peer_ms.append(peer_ms)
            measured(table, tap, tap.t0 - shift, ack_ms, peer_ms)
        table.local_running = "p2" if side == "p1" else "p1"
        due += interval


async def phone_worker(
    name: str,
    tables: list[Table],
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
    prepare: Callable[[Table], Awaitable[None]],
    measured: Measured,
    result: Callable[[], dict[str, Any]],
) -> None:
    """One worker's life: `prepare` every table (at most cfg["connect_concurrency"] at a
    time), say "ready", wait for the parent's schedule, tap it, send the "result" (the
    common figures and `result()`'s), and close every socket. Progress goes to `out_q`
    every second."""
    stats = tables[0].stats if tables else Stats()
    me = psutil.Process()
    loop = asyncio.get_running_loop()
    try:
        t = time.monotonic()
        sem = asyncio.Semaphore(cfg["connect_concurrency"])

        async def prepare_one(table: Table) -> None:
            async with sem:
                await prepare(table)

        opening = asyncio.gather(*(prepare_one(tb) for tb in tables))
        await asyncio.wait_for(opening, timeout=60 + 0.2 * len(tables))
        ready = {
            "tables": sum(not tb.stopped for tb in tables),
            "seconds": time.monotonic() - t,
            "counters": stats.counters(),
            "errors": stats.errors,
        }
        out_q.put(("ready", name, ready))
        # The load generator's own collector must not pause it in the middle of the
        # measured window (its young collections take tens of ms on a slow machine, and
        # every tap in flight would count them): what setup built is frozen, and the
        # collector stays off until the run is over (a minute of garbage at most).
        gc.collect()
        gc.freeze()
        gc.disable()
        schedule = await loop.run_in_executor(
            None, ctrl_q.get, True, cfg.get("schedule_wait_s", 600)
        )
        if schedule is None:
            return
        first_mono, interval, measure_mono, end_mono, n_total = schedule
        shift = time.perf_counter() - time.monotonic()
        first_at, measure_from, end_at = first_mono + shift, measure_mono + shift, end_mono + shift

        async def report_progress() -> None:
            for _ in range(int(end_mono - time.monotonic() + TAP_TIMEOUT_S + 120)):
                await asyncio.sleep(1.0)
                out_q.put(("progress", name, stats.counters()))

        reporter = asyncio.create_task(report_progress())
        cpu = asyncio.create_task(cpu_over(me, measure_mono, end_mono))
        runs = [
            tap_table(
                tb,
                shift,
                first_at + tb.index * interval / n_total,
                interval,
                measure_from,
                end_at,
                measured,
            )
            for tb in tables
            if not tb.stopped
        ]
        bound = end_at - time.perf_counter() + TAP_TIMEOUT_S + 30
        try:
            await asyncio.wait_for(asyncio.gather(*runs), timeout=bound)
        except TimeoutError:
            stats.note("the tap schedule did not finish in time")
        client_cpu = None
        with contextlib.suppress(TimeoutError):
            client_cpu = await asyncio.wait_for(cpu, timeout=5)
        reporter.cancel()
        out = {
            "ack_ms": stats.ack_ms,
            "peer_ms": stats.peer_ms,
            "send_lag_ms": stats.send_lag_ms,
            "counters": stats.counters(),
            "errors": stats.errors,
            "client_cpu_pct": client_cpu,
        }
        out_q.put(("result", name, {**out, **result()}))
    finally:
        gc.enable()
        for tb in tables:
            tb.stopped = True
        closes = [ph.ws.close() for tb in tables for ph in tb.phones.values() if ph.ws is not None]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*closes, return_exceptions=True), timeout=15)
        for tb in tables:
            for ph in tb.phones.values():
                if ph.reader is not None:
                    ph.reader.cancel()


# ----------------------------------------------------------------------------
# What every benchmark's command line and run share
# ----------------------------------------------------------------------------


def server_argv(port: int) -> list[str]:
    """The real server, as `deathclock serve` starts it (one uvicorn worker)."""
    return [sys.executable, "-m", "app.cli", "serve", "--host", HOST, "--port", str(port)]


def add_common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    parser.add_argument("--connect-concurrency", type=int, default=64)
    parser.add_argument(
        "--db-dir",
        metavar="DIR",
        help="where the temporary SQLite file goes (default: the system temp dir)",
    )


def add_load_options(parser: argparse.ArgumentParser) -> None:
    """The latency benchmarks' options: browser-like compression, quiet wait, profiler."""
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="permessage-deflate offered by the clients, as browsers do",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=0.0,
        metavar="S",
        help="on a shared machine, wait up to S s for other processes to go quiet first",
    )
    parser.add_argument(
        "--server-prefix",
        metavar="CMD",
        help="run the server under CMD (e.g. 'py-spy record -o prof.svg --'); "
        "its CPU then counts in server_cpu_pct",
    )


def compile_app() -> None:
    """Compile the app's modules, as the Dockerfile does: with PYTHONDONTWRITEBYTECODE
    set, a server started from the source tree would otherwise compile every module
    again at each start, and a restart would measure the compiler."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "app"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[tuple[str, str]]:
    """A schema of this run's own on the PostgreSQL at `url` (dropped afterwards): the URL
    that uses it, and its name."""
    import psycopg

    schema = f"bench_{secrets.token_hex(4)}"
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}", schema
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextlib.contextmanager
def bench_run(
    open_files: int, db_dir: str | None, prefix: str = "deathclock-bench-"
) -> Iterator[tuple[Path, dict[str, str]]]:
    """Raise the open-files limit, stop cleanly on SIGTERM, and give a temporary folder
    with the server's environment: a fresh SQLite file there, unbuffered output."""
    limit = raise_open_files_limit(open_files)
    log(f"open-files limit {limit}; {os.cpu_count()} cores shared by client and server")

    def on_term(_signum: int, _frame: Any) -> None:
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, on_term)
    compile_app()
    with tempfile.TemporaryDirectory(prefix=prefix, dir=db_dir) as tmpdir:
        tmp = Path(tmpdir)
        env = dict(os.environ)
        env["DEATHCLOCK_DATABASE_URL"] = f"sqlite:///{tmp / 'bench.db'}"
        env.pop("DEATHCLOCK_PUBLIC_URL", None)
        env["PYTHONUNBUFFERED"] = "1"
        # Every client of a benchmark is 127.0.0.1: lift the per-address budget for new
        # tables and sockets (the server's guard for a venue's phones, not for a load test).
        env.setdefault("DEATHCLOCK_CLIENT_PER_S", "1e9")
        env.setdefault("DEATHCLOCK_CLIENT_BURST", "1e9")
        yield tmp, env


# ----------------------------------------------------------------------------
# The parent side: worker processes, their schedule, and the measured window
# ----------------------------------------------------------------------------

Message = tuple[str, str, dict[str, Any]]


class Workers:
    """Spawned worker processes, each with its own control queue and one output queue
    for all: workers say ("ready" | "progress" | "result", name, payload)."""

    def __init__(self) -> None:
        self.ctx = mp.get_context("spawn")
        self.out_q: Any = self.ctx.Queue()
        self.procs: list[Any] = []
        self.ctrl_qs: list[Any] = []

    def start(self, target: Callable[..., None], args: tuple[Any, ...], name: str) -> None:
        """Start `target(*args, ctrl_q, out_q)` in a new process."""
        ctrl_q = self.ctx.Queue()
        proc = self.ctx.Process(
            target=target, args=(*args, ctrl_q, self.out_q), name=name, daemon=True
        )
        proc.start()
        self.procs.append(proc)
        self.ctrl_qs.append(ctrl_q)

    def start_phones(
        self,
        target: Callable[..., None],
        port: int,
        rows: list[tuple[str, str, str]],
        cfg: dict[str, Any],
        clients: int,
        name: str,
    ) -> int:
        """Share the tables out between `clients` phone processes; returns how many."""
        n = max(1, min(clients, len(rows)))
        for k in range(n):
            share = [(i, *rows[i]) for i in range(k, len(rows), n)]
            self.start(target, (k, port, share, cfg), f"{name}-{k}")
        return n

    def get(self, timeout: float) -> Message | None:
        try:
            msg: Message = self.out_q.get(timeout=timeout)
            return msg
        except queue.Empty:
            for proc in self.procs:
                if proc.exitcode not in (None, 0):
                    raise RuntimeError(f"{proc.name} died with exit code {proc.exitcode}") from None
            return None

    def wait_ready(self, within_s: float) -> dict[str, dict[str, Any]]:
        ready: dict[str, dict[str, Any]] = {}
        deadline = time.monotonic() + within_s
        while len(ready) < len(self.procs):
            if time.monotonic() > deadline:
                raise RuntimeError("the clients did not open their sockets in time")
            msg = self.get(0.5)
            if msg is not None and msg[0] == "ready":
                ready[msg[1]] = msg[2]
        for r in ready.values():
            for e in r["errors"]:
                log(e)
        return ready

    def schedule(self, *schedule: float) -> None:
        for q in self.ctrl_qs:
            q.put(schedule)

    def stop(self, clean: bool) -> None:
        """After a clean run the workers are closing their sockets; after an error or
        Ctrl-C they are stopped at once."""
        for q in self.ctrl_qs:
            with contextlib.suppress(Exception):
                q.put(None)
        for proc in self.procs:
            proc.join(timeout=20 if clean else 0.5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)


class Window:
    """The measured window as the parent sees it: CPU samples at its edges, the server's
    RSS every second, progress every 5 s, until every worker sent its result."""

    def __init__(
        self,
        label: str,
        server: ServerProcess,
        first_at: float,
        measure_from: float,
        end_at: float,
        sample: Callable[[], tuple[float, ...]],
    ) -> None:
        self.label = label
        self.server = server
        self.first_at, self.measure_from, self.end_at = first_at, measure_from, end_at
        self.sample = sample  # (monotonic, server CPU s, machine busy s, ...)
        self.cpu0: tuple[float, ...] | None = None
        self.cpu1: tuple[float, ...] | None = None
        self.rss_max = 0.0
        self.rss_end = 0.0
        self.progress: dict[str, dict[str, int]] = {}
        self.results: dict[str, dict[str, Any]] = {}

    @classmethod
    def begin(
        cls,
        label: str,
        server: ServerProcess,
        workers: Workers,
        args: argparse.Namespace,
        n_tables: int,
        sample: Callable[[], tuple[float, ...]],
    ) -> Window:
        """Wait for a quiet machine if asked (--quiet-wait), then send every worker the
        schedule: taps from a second on, --warmup s unmeasured, --seconds s measured."""
        if args.quiet_wait > 0:
            other = wait_for_quiet(args.quiet_wait)
            log(f"{label}other processes use {other:.0f}% of a core before tapping")
        first_at = time.monotonic() + 1.0
        measure_from = first_at + args.warmup
        end_at = measure_from + args.seconds
        workers.schedule(first_at, args.interval, measure_from, end_at, n_tables)
        log(
            f"{label}tapping every {args.interval:g} s per table; "
            f"{args.warmup:g} s warm-up, then {args.seconds:g} s measured"
        )
        return cls(label, server, first_at, measure_from, end_at, sample)

    def run(self, workers: Workers, grace_s: float, extra: Callable[[float], str]) -> None:
        """Collect every worker's result; `extra(now)` adds to each progress line."""
        next_print = self.first_at + 5.0
        next_rss = time.monotonic()
        hard_deadline = self.end_at + grace_s
        server = self.server
        while len(self.results) < len(workers.procs):
            now = time.monotonic()
            if now > hard_deadline:
                raise RuntimeError("the clients did not report in time")
            if self.cpu0 is None and now >= self.measure_from:
                self.cpu0 = self.sample()
            if self.cpu1 is None and now >= self.end_at:
                self.cpu1 = self.sample()
            if now >= next_rss:
                self.rss_max = max(self.rss_max, server.rss_mb())
                next_rss = now + 1.0
            if now >= next_print:
                self._progress_line(now, extra)
                next_print += 5.0
            wait = min(0.05, max(0.0, min(next_print, next_rss) - now))
            msg = workers.get(wait if self.cpu1 is None else 0.2)
            if msg is None:
                continue
            kind, who, payload = msg
            if kind == "progress":
                self.progress[who] = payload
            elif kind == "result":
                self.results[who] = payload
        if self.cpu1 is None:
            self.cpu1 = self.sample()
        self.rss_end = server.rss_mb()
        self.rss_max = max(self.rss_max, self.rss_end)

    def _progress_line(self, now: float, extra: Callable[[float], str]) -> None:
        server = self.server
        c = {
            k: sum(p.get(k, 0) for p in self.progress.values())
            for k in ("taps_total", "completed", "lost", "duplicated", "rejected")
        }
        cpu_now = ""
        if self.cpu0 is not None and now > self.cpu0[0]:
            pct = (server.cpu_seconds() - self.cpu0[1]) / (now - self.cpu0[0]) * 100
            cpu_now = f", server cpu {pct:.0f}%"
        phase = "warm-up" if now < self.measure_from else "measuring"
        if now >= self.end_at:
            phase = "draining"
        log(
            f"{self.label}{phase} t+{now - self.first_at:.0f}s taps {c['taps_total']} "
            f"done {c['completed']} lost {c['lost']} dup {c['duplicated']} "
            f"rejected {c['rejected']}{cpu_now}{extra(now)}, "
            f"rss {server.rss_mb():.0f} MB"
        )

    @property
    def edges(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        assert self.cpu0 is not None and self.cpu1 is not None
        return self.cpu0, self.cpu1
