"""The table socket: one per phone, watcher or EO view; a thin shell over TableRoom."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api import protocol as p
from app.api.deps import HubDep, get_settings
from app.api.guard import Heartbeats, error_message, origin_allowed, rate_limit, serve
from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.tables.fanout import Subscriber
from app.tables.jsontext import dumps, loads
from app.tables.room import TableRoom

log = logging.getLogger(__name__)
router = APIRouter()

HELLO_TIMEOUT_S = 15.0


def _text(message: dict[str, Any]) -> str:
    return dumps(message)


def _actor(role: str) -> c.Actor:
    return c.Role.EO if role == "eo" else Side.parse(role)


async def _handle(
    room: TableRoom, role: str, device: str, sub: Subscriber, msg: p.ClientMessage
) -> None:
    match msg:
        case p.Ping():
            sub.offer(p.pong(msg, room.time.now_ms()))
        case p.Sync():
            sub.offer(_text(room.snapshot(role)))
        case p.LogRequest():
            entries = [
                {"v": e.version, "at_ms": e.at_ms, "by": e.actor, **loads(e.command_json)}
                for e in room.store.log(room.table_id)
            ]
            sub.offer(_text({"t": "log", "entries": entries}))
        case p.Hello():
            sub.offer(error_message("bad_input", "already joined: hello is sent once"))
        case p.Offline(base=base, commands=queued):
            seqs = [q[0] for q in queued]
            if role == "watch":
                for seq in seqs:
                    sub.offer(error_message("forbidden", "a watch link can only watch", seq))
                return
            try:
                ack = await room.merge_offline(_actor(role), device, base, queued)
            except RuleError as exc:
                for seq in seqs:
                    sub.offer(error_message(exc.code, exc.message, seq))
                sub.offer(_text(room.snapshot(role)))  # the server's state stands
                return
            for seq in seqs:
                sub.offer(_text({"t": "ack", "seq": seq, "v": ack.version, "dup": ack.duplicate}))
        case p.Cmd(seq=seq, command=command):
            if role == "watch":
                sub.offer(error_message("forbidden", "a watch link can only watch", seq))
                return
            try:
                ack = await room.execute(_actor(role), device, seq, command, origin=sub)
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
    settings = get_settings(websocket)
    if not origin_allowed(websocket, settings.allowed_origins):
        await websocket.close(code=4403)
        return
    await websocket.accept()
    room = hub.get(table_id)
    if room is None:
        await websocket.send_text(error_message("not_found", f"no table {table_id!r}"))
        await websocket.close(code=4404)
        return
    try:
        first = await asyncio.wait_for(websocket.receive(), timeout=HELLO_TIMEOUT_S)
        if first["type"] == "websocket.disconnect":
            return
        if first.get("text") is None:
            raise BadInput("binary frames are not accepted; send JSON text")
        hello = p.parse(first["text"])
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
    # Read the table again: while we waited for hello it may have left memory (a
    # settled quick game) and come back as another object.
    room = hub.get(table_id) or room
    role = room.tokens.role_for(hello.token)
    if role is None:
        await websocket.send_text(
            error_message("forbidden", "this link is not valid for this table")
        )
        await websocket.close(code=4403)
        return
    if len(room.channel.subscribers) >= settings.sockets_per_table:
        await websocket.send_text(
            error_message(
                "too_many", f"this table has {settings.sockets_per_table} screens open already"
            )
        )
        await websocket.close(code=4429)
        return
    heartbeats: Heartbeats = websocket.app.state.heartbeats
    rate = rate_limit(settings, websocket.app.state.io_time)
    sub = Subscriber(role, settings.queue_limit)
    room.join(sub, hello.last_version)

    async def handle(msg: p.ClientMessage) -> None:
        await _handle(room, role, hello.device, sub, msg)

    # The phone left, stopped reading (its queue overflowed), had its link replaced,
    # or went silent (no heartbeat): whichever comes first ends the socket.
    try:
        await serve(websocket, sub, heartbeats, rate, handle)
    finally:
        room.leave(sub)
        hub.left(room)
