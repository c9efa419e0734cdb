"""The phone client of the table socket: a table's two phones, their taps (sent, acked,
seen by the peer), pings, and what went wrong, counted."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from typing import Any

from bench.harness.servers import HOST

TAP_TIMEOUT_S = 5.0
START_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 20.0
PING_S = 4.0  # a phone's page pings every 4 s
PING_BOUND_S = 4 * 3600.0  # and stops after 4 hours: longer than any run


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
