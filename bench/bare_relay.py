"""A bare FastAPI relay: the floor that the table socket's latency is compared with.

Same URL shapes as the real server, no rules and no storage:

- POST /api/tables -> {"id", "p1": {"url": ".../t/<id>#k=<token>"}, "p2": {...}}
- WS /ws/tables/<id>: the first message is {"t": "hello", "token": ...}; the reply is
  {"t": "state", "v": N}. Every later {"t": "cmd", "seq": n, ...} bumps the table's
  version, is relayed to the other socket of the table as {"t": "event", "v": N,
  "what": <the command as sent>} and acked to the sender with
  {"t": "ack", "seq": n, "v": N, "dup": false}. A {"t": "ping"} gets a {"t": "pong"}, as
  from the real server (the phones' heartbeat is part of the load).

Run: `python -m bench.bare_relay --port 8001` (one uvicorn worker, same options as
`deathclock serve`).

With `--workers N --redis URL` it is the floor of a cluster: N uvicorn workers on one port,
as `deathclock serve --workers N` runs, and Redis between them. Any worker accepts any
socket: a seat's token is derived from the table id with a secret the workers share, so no
worker needs a table list. A command whose other seat is on another worker goes there
through Redis, on the server's own Redis connection (`app.cluster.resp`), gathered into one
PUBLISH per turn of the event loop as the server's backplane does. No rules, no storage, no
owner: what is left is what several processes and the hop between them cost.

With `--log URL` (PostgreSQL) each command is also written to a table of its own before it
is relayed or acked, as DESIGN.md asks of the server: one INSERT a batch in autocommit with
`synchronous_commit = on`, batches gathered by the server's own rule (`app.store.pg_log`'s
BUSY and GATHER_MS). That is the floor of any design that writes each tap durably first.

With `--busy-us N` each command also costs N microseconds of the worker's CPU (a spin on the
thread's CPU clock) before it is relayed or written, standing for a server's own work on a
tap (its rules, its views, its checks): how the floor moves with the CPU a tap costs, on a
machine whose cores the load generator shares.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect

SEATS = ("p1", "p2")
SECRET, REDIS_URL, CHANNEL = "BARE_RELAY_SECRET", "BARE_RELAY_REDIS_URL", "BARE_RELAY_CHANNEL"
LOG_URL, LOG_TABLE = "BARE_RELAY_LOG_URL", "BARE_RELAY_LOG_TABLE"
BUSY_US = "BARE_RELAY_BUSY_US"
Elsewhere = Callable[[str, str, int, str], None]  # table id, seat, version, event


def _seat_token(secret: bytes, table_id: str, seat: str) -> str:
    return hmac.new(secret, f"{table_id}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


class _Table:
    __slots__ = ("sockets", "tokens", "version")

    def __init__(self, secret: bytes, table_id: str) -> None:
        self.tokens = {_seat_token(secret, table_id, seat): seat for seat in SEATS}
        self.sockets: dict[str, WebSocket] = {}
        self.version = 0


class _Link:
    """Redis between the workers: every worker hears every batch and skips its own."""

    def __init__(self, url: str, channel: str, tables: dict[str, _Table]) -> None:
        self.url, self.channel, self.tables = url, channel.encode(), tables
        self.me = secrets.token_hex(4)
        self._outbox: list[list[Any]] = []
        self._deliveries: asyncio.Queue[tuple[WebSocket, str]] = asyncio.Queue()
        self._publisher: Any = None
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        from app.cluster import resp

        listener = await resp.connect(self.url, self._pushed)
        await listener.call("SUBSCRIBE", self.channel)
        self._publisher = await resp.connect(self.url)
        self._tasks = [
            asyncio.create_task(self._deliver()),
            asyncio.create_task(self._watch(listener, self._publisher)),
        ]

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    def send(self, table_id: str, seat: str, version: int, event: str) -> None:
        if not self._outbox:
            asyncio.get_running_loop().call_soon(self._flush)
        self._outbox.append([table_id, seat, version, event])

    def _flush(self) -> None:
        from app.cluster import resp

        batch = _compact({"w": self.me, "m": self._outbox})
        self._outbox = []
        self._publisher.send(resp.encode(b"PUBLISH", self.channel, batch))

    def _pushed(self, message: list[Any]) -> None:
        batch = json.loads(message[2]) if message[0] == b"message" else None
        if batch is None or batch["w"] == self.me:
            return
        for table_id, seat, version, event in batch["m"]:
            table = self.tables.get(table_id)
            if table is None:
                continue
            table.version = max(table.version, version)
            socket = table.sockets.get(seat)
            if socket is not None:
                self._deliveries.put_nowait((socket, event))

    async def _deliver(self) -> None:
        while True:
            socket, event = await self._deliveries.get()
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await socket.send_text(event)

    async def _watch(self, *connections: Any) -> None:
        while True:  # as the backplane does: a PING when quiet
            await asyncio.sleep(0.5)
            for conn in connections:
                conn.check(2.0)


class _Log:
    """Commands in PostgreSQL, a batch a round trip: what came while one batch was on its
    way goes in the next."""

    def __init__(self, url: str, table: str) -> None:
        self.url = url
        self.insert = (
            f"INSERT INTO {table} (table_id, version, command) SELECT * FROM "
            "json_to_recordset(%s::json) AS r(table_id text, version int, command text)"
        )
        self._conn: Any = None
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._draining = False

    async def start(self) -> None:
        import psycopg

        from app.store.group_commit import PG_SYNC_COMMIT

        self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self._conn.execute(PG_SYNC_COMMIT)

    async def write(self, table_id: str, version: int, command: str) -> None:
        done = asyncio.get_running_loop().create_future()
        self._pending.append(({"table_id": table_id, "version": version, "command": command}, done))
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().create_task(self._drain())
        await done

    async def _drain(self) -> None:
        from app.store.pg_log import BUSY, GATHER_MS

        last = 0
        while self._pending:
            if last >= BUSY:
                await asyncio.sleep(GATHER_MS / 1000)
            batch, self._pending = self._pending, []
            last = len(batch)
            await self._conn.execute(self.insert, [json.dumps([row for row, _ in batch])])
            for _, done in batch:
                done.set_result(None)
        self._draining = False


def _spin(busy_ns: int) -> None:
    """Spend `busy_ns` of this thread's CPU time (time the core really gave it)."""
    end = time.thread_time_ns() + busy_ns
    while time.thread_time_ns() < end:
        pass


def _compact(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


async def _seat_of(websocket: WebSocket, table: _Table) -> str | None:
    """The seat the hello's token opens, or None (the socket is then closed or gone)."""
    try:
        hello = json.loads(await websocket.receive_text())
    except (WebSocketDisconnect, ValueError):
        return None
    token = hello.get("token") if isinstance(hello, dict) else None
    seat = table.tokens.get(token) if isinstance(token, str) else None
    if seat is None:
        await websocket.close(code=4403)
    return seat


async def _pong(websocket: WebSocket, ping: dict[str, Any]) -> None:
    """The phones' heartbeat, answered as the server does."""
    await websocket.send_text(
        _compact(
            {
                "t": "pong",
                "id": ping.get("id"),
                "client_ms": ping.get("client_ms"),
                "server_ms": time.time_ns() // 1_000_000,
            }
        )
    )


async def _relay_command(
    websocket: WebSocket,
    where: tuple[str, _Table, str],
    text: str,
    command: dict[str, Any],
    elsewhere: Elsewhere | None,
    log: _Log | None,
    busy_ns: int,
) -> None:
    """Bump the version, write the command (when there is a log), pass it to the other seat
    (here, or through `elsewhere` to the worker that has it), ack it to the sender."""
    table_id, table, other_seat = where
    if busy_ns:
        _spin(busy_ns)
    table.version += 1
    version = table.version
    if log is not None:
        await log.write(table_id, version, text)
    event = f'{{"t":"event","v":{version},"what":{text}}}'
    other = table.sockets.get(other_seat)
    if other is not None:
        await other.send_text(event)
    elif elsewhere is not None:
        elsewhere(table_id, other_seat, version, event)
    await websocket.send_text(
        _compact({"t": "ack", "seq": command.get("seq"), "v": version, "dup": False})
    )


async def _serve_seat(
    websocket: WebSocket,
    table_id: str,
    table: _Table,
    seat: str,
    links: tuple[Elsewhere | None, _Log | None, int],
) -> None:
    """Answer pings and relay commands until the socket goes."""
    where = (table_id, table, "p2" if seat == "p1" else "p1")
    while True:
        text = await websocket.receive_text()
        message = json.loads(text)
        if not isinstance(message, dict):
            continue
        if message.get("t") == "ping":
            await _pong(websocket, message)
        elif message.get("t") == "cmd":
            await _relay_command(websocket, where, text, message, *links)


def create_app() -> FastAPI:
    secret = os.environ.get(SECRET, "").encode() or secrets.token_bytes(16)
    tables: dict[str, _Table] = {}
    link = (
        _Link(os.environ[REDIS_URL], os.environ[CHANNEL], tables)
        if REDIS_URL in os.environ
        else None
    )

    log = _Log(os.environ[LOG_URL], os.environ[LOG_TABLE]) if LOG_URL in os.environ else None
    busy_ns = int(os.environ.get(BUSY_US, "0")) * 1000

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if link is not None:
            await link.start()
        if log is not None:
            await log.start()
        yield
        if link is not None:
            link.close()

    app = FastAPI(title="bare relay", lifespan=lifespan)

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        table_id = secrets.token_hex(4)
        base = str(request.base_url).rstrip("/")
        out: dict[str, Any] = {"id": table_id}
        for seat in SEATS:
            out[seat] = {"url": f"{base}/t/{table_id}#k={_seat_token(secret, table_id, seat)}"}
        return out

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = tables.get(table_id) or _Table(secret, table_id)
        seat = await _seat_of(websocket, table)
        if seat is None:
            return
        table = tables.setdefault(table_id, table)  # kept only once a seat's token opened it
        table.sockets[seat] = websocket
        await websocket.send_text(f'{{"t":"state","v":{table.version}}}')
        try:
            links = (link.send if link else None, log, busy_ns)
            await _serve_seat(websocket, table_id, table, seat, links)
        except (WebSocketDisconnect, RuntimeError, ValueError):
            pass
        finally:
            if table.sockets.get(seat) is websocket:
                del table.sockets[seat]

    return app


@contextlib.contextmanager
def _log_table(url: str | None) -> Iterator[None]:
    """A log table of this run's own in the PostgreSQL at `url`, dropped afterwards."""
    if url is None:
        yield
        return
    import psycopg

    table = f"bare_log_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {table} (table_id text, version int, command text)")
    os.environ[LOG_URL], os.environ[LOG_TABLE] = url, table
    try:
        yield
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP TABLE {table}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.bare_relay")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--redis", metavar="URL", help="Redis between the workers (needed for several)"
    )
    parser.add_argument("--log", metavar="URL", help="PostgreSQL: each command written first")
    parser.add_argument(
        "--busy-us", type=int, default=0, help="CPU microseconds each command costs first"
    )
    args = parser.parse_args(argv)
    if args.workers > 1 and not args.redis:
        parser.error("several workers need --redis")
    if args.busy_us < 0:
        parser.error("--busy-us is a number of microseconds, 0 or more")
    os.environ[BUSY_US] = str(args.busy_us)
    if args.redis:
        os.environ[REDIS_URL] = args.redis
        os.environ[CHANNEL] = f"bare-relay-{secrets.token_hex(4)}"
    os.environ.setdefault(SECRET, secrets.token_hex(16))
    plain = args.log and args.log.replace("postgresql+psycopg://", "postgresql://")
    with _log_table(plain):
        uvicorn.run(
            "bench.bare_relay:create_app",
            factory=True,
            host=args.host,
            port=args.port,
            ws_max_size=64 * 1024,
            ws_per_message_deflate=False,
            log_level="info",
            workers=args.workers,
        )


if __name__ == "__main__":
    main()
