"""The table socket: one per phone, watcher or EO view; a thin shell over TableRoom. Its
commands go to the placement (`app.tables.placement`), which applies them at the room
here or at the worker that owns the table."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.budgets import READ_REFUSED, TOO_MANY_COMMANDS, ReadBudget, seat_commands
from app.api.deps import get_settings
from app.api.guard import charge_miss, error_message, open_socket, refuse, serve
from app.api.limits import Heartbeats, RateLimit, rate_limit
from app.domain.errors import RuleError
from app.tables import protocol as p
from app.tables.fanout import Subscriber
from app.tables.hub import TableHub
from app.tables.log_page import LogPages, log_message
from app.tables.offline import Gap, device_key
from app.tables.placement import Placement
from app.tables.room import TableRoom

log = logging.getLogger(__name__)
_READ_REFUSED = error_message("rate_limited", READ_REFUSED)


@dataclass(slots=True)
class Reads:
    """Where a socket's log pages come from, and what they may cost."""

    pages: LogPages
    budget: ReadBudget
    address: str


@dataclass(slots=True)
class Screen:
    """One socket of a table: who it is, its phone, and that phone's time away."""

    room: TableRoom
    placement: Placement
    role: str
    device: str
    key: str
    gap: Gap | None
    sub: Subscriber
    commands: RateLimit
    reads: Reads

    def ack(self, seq: int, version: int, duplicate: bool, before: tuple[str, ...] = ()) -> None:
        """The ack, after what the command's own screen gets with it (`Ack.before`), in
        one write."""
        self.sub.offer_all((*before, p.ack(seq, version, duplicate)))

    def refuse(self, seqs: list[int], code: str, message: str) -> None:
        for seq in seqs:
            self.sub.offer(error_message(code, message, seq))

    def may_send(self, seqs: list[int]) -> bool:
        """A seat's commands (not a watcher's), within the seat's budget."""
        if self.role == "watch":
            self.refuse(seqs, "forbidden", "a watch link can only watch")
            return False
        if not self.commands.allow(len(seqs)):
            self.refuse(seqs, "rate_limited", TOO_MANY_COMMANDS)
            return False
        return True

    async def read_log(self, after: int) -> None:
        """A page of the log, within the link's and the address's read budget: from the
        rows built, or once they are read off the loop. Every other socket goes on
        meanwhile; this one answers its messages in order, so its next waits."""
        room, reads = self.room, self.reads
        if reads.budget.take(room.table_id, self.role, reads.address) is not None:
            self.sub.offer(_READ_REFUSED)
            return
        try:
            page = await reads.pages.page(room.table_id, room.version, after)
        except Exception:
            log.exception("log page of table %s failed", room.table_id)
            self.sub.offer(error_message("internal", "the log could not be read; try again"))
            return
        self.sub.offer(log_message(page))


async def _offline(screen: Screen, msg: p.Offline) -> None:
    seqs = [q[0] for q in msg.commands]
    if not screen.may_send(seqs):
        return
    room = screen.room
    try:
        actor = room.actor_for(screen.role)
        ack = await screen.placement.merge_offline(
            room, screen.key, actor, screen.device, screen.gap, msg.base, msg.commands
        )
    except RuleError as exc:
        screen.refuse(seqs, exc.code, exc.message)
        screen.sub.offer(room.snapshot(screen.role))  # the server's state stands
        return
    except Exception:
        log.exception("offline merge failed on table %s", room.table_id)
        screen.refuse(seqs, "internal", "the offline taps could not be saved; not merged")
        return
    for seq in seqs:
        screen.ack(seq, ack.version, ack.duplicate)


async def _command(screen: Screen, msg: p.Cmd) -> None:
    if not screen.may_send([msg.seq]):
        return
    room = screen.room
    try:
        actor = room.actor_for(screen.role)
        ack = await screen.placement.execute(
            room, actor, screen.device, msg.seq, msg.command, origin=screen.sub
        )
    except RuleError as exc:
        screen.refuse([msg.seq], exc.code, exc.message)
        return
    except Exception:
        log.exception("command failed on table %s", room.table_id)
        screen.refuse([msg.seq], "internal", "the command could not be saved; not applied")
        return
    screen.ack(msg.seq, ack.version, ack.duplicate, ack.before)


def _pong(screen: Screen, msg: p.Ping) -> None:
    room = screen.room
    room.heard(screen.key)
    screen.sub.offer(p.pong(msg, room.time.now_ms()))


async def _handle(screen: Screen, msg: p.ClientMessage) -> None:
    room, sub = screen.room, screen.sub
    if isinstance(msg, p.Ping):  # the commonest: a phone's heartbeat, then its taps
        _pong(screen, msg)
        return
    room.heard(screen.key)
    match msg:
        case p.Cmd():
            await _command(screen, msg)
        case p.Sync():
            sub.offer(room.snapshot(screen.role))
        case p.LogRequest(after=after):
            await screen.read_log(after)
        case p.Hello():
            sub.offer(error_message("bad_input", "already joined: hello is sent once"))
        case p.Offline():
            await _offline(screen, msg)


def _room_full(room: TableRoom, role: str, settings: Any) -> str | None:
    """Watchers never take a seat's or the EO's place: each link has its own screens."""
    limit = settings.sockets_per_table if role == "watch" else settings.screens_per_seat
    if sum(1 for s in room.channel.subscribers if s.role == role) < limit:
        return None
    if role == "watch":
        return f"this table has {limit} watch screens open already"
    return f"this link has {limit} screens open already: close one of them first"


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


TABLE_SOCKETS = "/ws/tables/"


class TableSockets:
    """The table sockets' own door, ahead of the router: `/ws/tables/{table_id}` goes
    straight to `table_socket`. When the hall's Wi-Fi restarts every phone opens its
    socket at once, and the router's walk (every route matched in turn, the endpoint's
    dependencies solved, an exception wrapper around each message sent) was a sixth of
    the work of each; it adds nothing a table socket uses. It sits inside the client guard
    (`ClientGuard`, its per-address budget), like everything else; any other path and
    every other scope go on to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path: str = scope["path"]
            root: str = scope.get("root_path", "")
            if root and path.startswith(root):
                path = path[len(root) :]
            table_id = path.removeprefix(TABLE_SOCKETS)
            if table_id != path and table_id and "/" not in table_id:
                websocket = WebSocket(scope, receive, send)
                await table_socket(websocket, table_id, websocket.app.state.hub)
                return
        await self.app(scope, receive, send)


async def table_socket(websocket: WebSocket, table_id: str, hub: TableHub) -> None:
    settings = get_settings(websocket)
    room = await hub.open(table_id)
    text = await open_socket(websocket, f"table {table_id!r}", room is not None)
    if text is None or room is None:
        return
    try:
        hello = p.parse(text)
    except RuleError as exc:
        await refuse(websocket, exc.code, exc.message, 4400)
        return
    if not isinstance(hello, p.Hello):
        await refuse(websocket, "bad_input", "send hello with your token first", 4400)
        return
    # Read the table again: while we waited for hello it may have left memory (a
    # settled quick game) and come back as another object.
    room = hub.get(table_id) or room
    role = room.tokens.role_for(hello.token)
    if role is None:
        charge_miss(websocket)
        await refuse(websocket, "forbidden", "this link is not valid for this table", 4403)
        return
    full = _room_full(room, role, settings)
    if full is not None:
        await refuse(websocket, "too_many", full, 4429)
        return
    heartbeats: Heartbeats = websocket.app.state.heartbeats
    io_time = websocket.app.state.io_time
    rate = rate_limit(settings, io_time)
    commands = seat_commands(room, role, settings, io_time)
    state = websocket.app.state
    reads = Reads(state.log_pages, state.read_budget, _address(websocket))
    sub = Subscriber(role, settings.queue_limit, settings.queue_bytes)
    key = device_key(role, hello.device)
    placement: Placement = state.placement
    gap = room.arrive(key)
    screen = Screen(room, placement, role, hello.device, key, gap, sub, commands, reads)
    room.join(sub, hello.last_version, hello.device, hello.presence)
    handle = functools.partial(_handle, screen)
    # The phone left, stopped reading (its queue overflowed), had its link replaced,
    # or went silent (no heartbeat): whichever comes first ends the socket.
    try:
        await serve(
            websocket,
            sub,
            heartbeats,
            rate,
            handle,
            room.engine.command_from_wire,
            functools.partial(_pong, screen),
        )
    finally:
        room.leave(sub)
        hub.left(room)
