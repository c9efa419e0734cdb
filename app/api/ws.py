"""The table socket: one per phone, watcher or EO view; a thin shell over TableRoom."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api import protocol as p
from app.api.deps import HubDep
from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.tables.fanout import Subscriber
from app.tables.room import TableRoom

log = logging.getLogger(__name__)
router = APIRouter()

HELLO_TIMEOUT_S = 15.0


def _text(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def error_message(code: str, message: str, seq: int | None = None) -> str:
    return _text({"t": "error", "code": code, "message": message, "seq": seq})


def _actor(role: str) -> c.Actor:
    return c.Role.EO if role == "eo" else Side.parse(role)


async def _write(websocket: WebSocket, subscriber: Subscriber) -> None:
    while True:
        await websocket.send_text(await subscriber.queue.get())


async def _drop_when_overflowing(websocket: WebSocket, subscriber: Subscriber) -> None:
    await subscriber.overflowed.wait()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=1013, reason="resync"), timeout=1.0)


async def _handle(
    room: TableRoom, role: str, device: str, sub: Subscriber, msg: p.ClientMessage
) -> None:
    match msg:
        case p.Ping(id=ping_id, client_ms=client_ms):
            pong = {
                "t": "pong",
                "id": ping_id,
                "client_ms": client_ms,
                "server_ms": room.time.now_ms(),
            }
            sub.offer(_text(pong))
        case p.Sync():
            sub.offer(_text(room.snapshot(role)))
        case p.LogRequest():
            entries = [
                {"v": e.version, "at_ms": e.at_ms, "by": e.actor, **json.loads(e.command_json)}
                for e in room.store.log(room.table_id)
            ]
            sub.offer(_text({"t": "log", "entries": entries}))
        case p.Hello():
            sub.offer(error_message("bad_input", "already joined: hello is sent once"))
        case p.Cmd(seq=seq, command=command):
            if role == "watch":
                sub.offer(error_message("forbidden", "a watch link can only watch", seq))
                return
            try:
                ack = await room.execute(_actor(role), device, seq, command)
            except RuleError as exc:
                sub.offer(error_message(exc.code, exc.message, seq))
                return
            except Exception:
                log.exception("command failed on table %s", room.table_id)
                sub.offer(
                    error_message("internal", "the command could not be saved; not applied", seq)
                )
                return
            sub.offer(_text({"t": "ack", "seq": seq, "v": ack.version, "dup": ack.duplicate}))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, hub: HubDep) -> None:
    await websocket.accept()
    room = hub.get(table_id)
    if room is None:
        await websocket.send_text(error_message("not_found", f"no table {table_id!r}"))
        await websocket.close(code=4404)
        return
    try:
        first = await asyncio.wait_for(websocket.receive_text(), timeout=HELLO_TIMEOUT_S)
        hello = p.parse(first)
    except (TimeoutError, WebSocketDisconnect, KeyError):
        with contextlib.suppress(Exception):
            await websocket.close(code=4400)
        return
    except RuleError as exc:
        await websocket.send_text(error_message(exc.code, exc.message))
        await websocket.close(code=4400)
        return
    if not isinstance(hello, p.Hello):
        await websocket.send_text(error_message("bad_input", "send hello with your token first"))
        await websocket.close(code=4400)
        return
    role = room.tokens.role_for(hello.token)
    if role is None:
        await websocket.send_text(
            error_message("forbidden", "this link is not valid for this table")
        )
        await websocket.close(code=4403)
        return
    sub = Subscriber(role)
    room.join(sub, hello.last_version)
    writer = asyncio.create_task(_write(websocket, sub))
    dropper = asyncio.create_task(_drop_when_overflowing(websocket, sub))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                sub.offer(
                    error_message("bad_input", "binary frames are not accepted; send JSON text")
                )
                continue
            try:
                msg = p.parse(text)
            except RuleError as exc:
                sub.offer(error_message(exc.code, exc.message))
                continue
            await _handle(room, role, hello.device, sub, msg)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        room.leave(sub)
        writer.cancel()
        dropper.cancel()
