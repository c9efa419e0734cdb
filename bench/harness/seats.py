"""A seat's socket that comes back, as a phone's page does after a drop: connect, hello
with the last version it saw, every command not yet acked sent again with the same seq;
its reader; the turn-end answers a tap gives."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.harness.servers import HOST

NO_SCORING: dict[str, Any] = {"control": {}, "destroyed": []}


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def pass_turn(running: str, game: dict[str, Any]) -> dict[str, Any]:
    """The running side's pass_turn, with the turn-end answers its game view says are due
    (kill box: no; scoring: nothing)."""
    body: dict[str, Any] = {"c": "pass_turn", "expect": running}
    if game.get("kill_box_due"):
        body["kill_box"] = False
    if game.get("scoring_due"):
        body["scoring"] = NO_SCORING
    return body


async def connect_seat(
    port: int, table_id: str, compression: str | None, open_timeout: float, **extra: Any
) -> ClientConnection:
    """A table socket, opened as a browser opens it (it does not ping)."""
    return await connect(
        f"ws://{HOST}:{port}/ws/tables/{table_id}",
        compression=compression,
        open_timeout=open_timeout,
        ping_interval=None,  # browsers don't ping; the phone's own pings keep it alive
        close_timeout=2,
        **extra,
    )


class Unacked(Protocol):
    seq: int
    text: str
    resent: int


async def hello_again(
    ws: ClientConnection,
    token: str,
    device: str,
    last_v: int,
    pending: Iterable[Unacked],
    resent: Callable[[], None],
) -> None:
    """Hello (with "v": the last version seen, once there is one), then the commands not
    acked before the drop again, with the same seq; `resent` is called for each."""
    hello: dict[str, Any] = {"t": "hello", "token": token, "device": device}
    if last_v >= 0:
        hello["v"] = last_v
    await ws.send(dumps(hello))
    for cmd in sorted(pending, key=lambda k: k.seq):
        cmd.resent += 1
        resent()
        await ws.send(cmd.text)


async def read_messages(
    ws: ClientConnection,
    on_message: Callable[[str, float], None],
    failed: Callable[[Exception], None],
) -> None:
    """Every text message to `on_message` with the time it was read, until the socket
    closes; a failure of the reader (a bug, not a drop) goes to `failed` and aborts it."""
    perf = time.perf_counter
    try:
        async for text in ws:
            if isinstance(text, str):
                on_message(text, perf())
    except ConnectionClosed:
        pass
    except Exception as exc:  # a bug here must not look like a dropped socket
        failed(exc)
        ws.transport.abort()
