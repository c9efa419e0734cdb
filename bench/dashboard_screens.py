"""The EO dashboard sockets of the dashboard benchmark (one worker process): each joins
the event as the EO, pings as the page does, and keeps what it saw of every table (its
states in arrival order) for the parent to match with the phones' taps."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from typing import Any

import psutil  # type: ignore[import-untyped]

from bench.dashboard_event import Progress, progress_of
from bench.harness.load import run_loop
from bench.harness.measure import cpu_over
from bench.harness.servers import HOST
from bench.harness.sockets import CONNECT_TIMEOUT_S, ping_forever

DASHBOARD_TIMEOUT_S = 5.0  # a dashboard that has not shown a tap after this lost it
DASHBOARD_MAX_BYTES = 64 * 1024 * 1024  # the first message carries the whole event


class Dashboard:
    """One EO dashboard socket and what it saw: each table's states, in arrival order."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.pinger: asyncio.Task[None] | None = None
        self.latest: dict[str, Progress] = {}
        self.seen: dict[str, tuple[list[Progress], list[float]]] = {}
        self.window = (float("inf"), float("inf"))
        self.messages = 0  # `tables` messages inside the measured window
        self.rows = 0
        self.bytes = 0
        self.gaps_ms: list[float] = []
        self.last_message_at: float | None = None
        self.other_messages: dict[str, int] = {}
        self.out_of_order = 0  # a row older than one already shown
        self.snapshot_bytes = 0
        self.closed = False
        self.errors: list[str] = []

    def note(self, message: str) -> None:
        if len(self.errors) < 5:
            self.errors.append(f"dashboard {self.index}: {message}")

    def record(self, rows: list[dict[str, Any]], now: float) -> None:
        for row in rows:
            table_id = str(row.get("id"))
            state = progress_of(row)
            latest = self.latest.get(table_id)
            if latest is not None and state <= latest:
                self.out_of_order += state < latest
                continue
            self.latest[table_id] = state
            states, times = self.seen.setdefault(table_id, ([], []))
            states.append(state)
            times.append(now)

    def on_message(self, text: str, now: float) -> None:
        kind = text[6 : text.find('"', 6)] if text.startswith('{"t":"') else ""
        if kind == "tables":
            msg = json.loads(text)
            rows = msg.get("tables") or []
            if self.window[0] <= now < self.window[1]:
                self.messages += 1
                self.rows += len(rows)
                self.bytes += len(text)
                if self.last_message_at is not None:
                    self.gaps_ms.append((now - self.last_message_at) * 1000)
            self.last_message_at = now
            self.record(rows, now)
        elif kind == "dashboard":  # a resync: the whole event again
            self.record(json.loads(text).get("tables") or [], now)
        elif kind == "error":
            self.note(text[:200])
        if kind != "tables":
            self.other_messages[kind] = self.other_messages.get(kind, 0) + 1


async def _read_dashboard(dash: Dashboard) -> None:
    from websockets.exceptions import ConnectionClosed

    clock = time.monotonic
    try:
        async for text in dash.ws:
            if isinstance(text, str):
                dash.on_message(text, clock())
    except ConnectionClosed as exc:
        dash.note(f"closed by the server: {exc}")
    finally:
        dash.closed = True


async def _open_dashboard(
    port: int, event_id: str, token: str, tables: int, dash: Dashboard, cfg: dict[str, Any]
) -> None:
    from websockets.asyncio.client import connect

    dash.ws = await connect(
        f"ws://{HOST}:{port}/ws/events/{event_id}",
        compression=None if cfg["compression"] == "none" else "deflate",
        open_timeout=CONNECT_TIMEOUT_S,
        ping_interval=None,
        close_timeout=2,
        max_size=DASHBOARD_MAX_BYTES,
    )
    await dash.ws.send(json.dumps({"t": "hello", "token": token}, separators=(",", ":")))
    first = await asyncio.wait_for(dash.ws.recv(), 60)
    if not isinstance(first, str) or not first.startswith('{"t":"dashboard"'):
        raise RuntimeError(f"expected a dashboard message, got {str(first)[:200]}")
    snapshot = json.loads(first)
    if snapshot.get("role") != "eo":
        raise RuntimeError(f"the dashboard joined as {snapshot.get('role')!r}, not as the EO")
    rows = snapshot.get("tables") or []
    if len(rows) != tables:
        raise RuntimeError(f"the dashboard lists {len(rows)} tables, not {tables}")
    dash.snapshot_bytes = len(first)
    dash.record(rows, time.monotonic())
    dash.reader = asyncio.create_task(_read_dashboard(dash))
    dash.pinger = asyncio.create_task(ping_forever(dash.ws, cfg["ping_s"], cfg["stop_pings_at"]))


async def _dashboards_async(
    port: int,
    event_id: str,
    token: str,
    tables: int,
    count: int,
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    dashes = [Dashboard(i) for i in range(count)]
    me = psutil.Process()
    loop = asyncio.get_running_loop()
    try:
        t = time.monotonic()
        sem = asyncio.Semaphore(4)  # each join builds the whole event on the server

        async def one(dash: Dashboard) -> None:
            async with sem:
                await _open_dashboard(port, event_id, token, tables, dash, cfg)

        await asyncio.wait_for(asyncio.gather(*(one(d) for d in dashes)), 60 + 5 * count)
        out_q.put(
            (
                "ready",
                "dashboards",
                {
                    "dashboards": count,
                    "seconds": time.monotonic() - t,
                    "snapshot_kb": dashes[0].snapshot_bytes / 1024 if dashes else None,
                    "errors": [],
                },
            )
        )
        schedule = await loop.run_in_executor(None, ctrl_q.get, True, cfg["schedule_wait_s"])
        if schedule is None:
            return
        _first, _interval, measure_from, end_at, _n = schedule
        for d in dashes:
            d.window = (measure_from, end_at)
        cpu = asyncio.create_task(cpu_over(me, measure_from, end_at))
        # Taps measured up to end_at; their updates may come DASHBOARD_TIMEOUT_S later.
        await asyncio.sleep(max(0.0, end_at + DASHBOARD_TIMEOUT_S + 0.5 - time.monotonic()))
        client_cpu = None
        with contextlib.suppress(TimeoutError):
            client_cpu = await asyncio.wait_for(cpu, timeout=5)
        out_q.put(
            (
                "result",
                "dashboards",
                {
                    "seen": [d.seen for d in dashes],
                    "messages": [d.messages for d in dashes],
                    "rows": [d.rows for d in dashes],
                    "bytes": [d.bytes for d in dashes],
                    "gaps_ms": [g for d in dashes for g in d.gaps_ms],
                    "other_messages": [d.other_messages for d in dashes],
                    "out_of_order": sum(d.out_of_order for d in dashes),
                    "closed": sum(d.closed for d in dashes),
                    "errors": [e for d in dashes for e in d.errors],
                    "client_cpu_pct": client_cpu,
                },
            )
        )
    finally:
        for d in dashes:
            if d.pinger is not None:
                d.pinger.cancel()
        closes = [d.ws.close() for d in dashes if d.ws is not None]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*closes, return_exceptions=True), timeout=10)
        for d in dashes:
            if d.reader is not None:
                d.reader.cancel()


def dashboards_main(
    port: int,
    event_id: str,
    token: str,
    tables: int,
    count: int,
    cfg: dict[str, Any],
    ctrl_q: Any,
    out_q: Any,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    run_loop(_dashboards_async(port, event_id, token, tables, count, cfg, ctrl_q, out_q))
