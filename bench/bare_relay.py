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
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect

SEATS = ("p1", "p2")


class _Table:
    __slots__ = ("sockets", "tokens", "version")

    def __init__(self) -> None:
        self.tokens = {secrets.token_urlsafe(24): seat for seat in SEATS}
        self.sockets: dict[str, WebSocket] = {}
        self.version = 0


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
    websocket: WebSocket, table: _Table, other_seat: str, text: str, command: dict[str, Any]
) -> None:
    """Bump the version, pass the command to the other seat, ack it to the sender."""
    table.version += 1
    version = table.version
    other = table.sockets.get(other_seat)
    if other is not None:
        await other.send_text(f'{{"t":"event","v":{version},"what":{text}}}')
    await websocket.send_text(
        _compact({"t": "ack", "seq": command.get("seq"), "v": version, "dup": False})
    )


async def _serve_seat(websocket: WebSocket, table: _Table, seat: str) -> None:
    """Answer pings and relay commands until the socket goes."""
    other_seat = "p2" if seat == "p1" else "p1"
    while True:
        text = await websocket.receive_text()
        message = json.loads(text)
        if not isinstance(message, dict):
            continue
        if message.get("t") == "ping":
            await _pong(websocket, message)
        elif message.get("t") == "cmd":
            await _relay_command(websocket, table, other_seat, text, message)


def create_app() -> FastAPI:
    app = FastAPI(title="bare relay")
    tables: dict[str, _Table] = {}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        table_id = secrets.token_hex(4)
        while table_id in tables:
            table_id = secrets.token_hex(4)
        table = _Table()
        tables[table_id] = table
        base = str(request.base_url).rstrip("/")
        out: dict[str, Any] = {"id": table_id}
        for token, seat in table.tokens.items():
            out[seat] = {"url": f"{base}/t/{table_id}#k={token}"}
        return out

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = tables.get(table_id)
        if table is None:
            await websocket.close(code=4404)
            return
        seat = await _seat_of(websocket, table)
        if seat is None:
            return
        table.sockets[seat] = websocket
        await websocket.send_text(f'{{"t":"state","v":{table.version}}}')
        try:
            await _serve_seat(websocket, table, seat)
        except (WebSocketDisconnect, RuntimeError, ValueError):
            pass
        finally:
            if table.sockets.get(seat) is websocket:
                del table.sockets[seat]

    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.bare_relay")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args(argv)
    uvicorn.run(
        "bench.bare_relay:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        log_level="info",
    )


if __name__ == "__main__":
    main()
