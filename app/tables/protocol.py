"""The table socket's messages, both directions, in one place.

client → server: hello, cmd, offline, ping, sync, log — parsed into one class each;
server → client: state, event, ack, error, pong, log, presence — built by the functions below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from app.domain import commands as c
from app.domain.errors import BadInput
from app.tables.jsontext import dumps, loads
from app.tables.warmachine.codec import command_from_wire

MAX_MESSAGE_BYTES = 16 * 1024
#: What a phone is told when its message cannot be read: its page is out of date.
RELOAD = "— reload the page"
UNREADABLE = f"this phone sent a message the server cannot read {RELOAD}"


@dataclass(frozen=True, slots=True)
class Hello:
    token: str
    device: str
    last_version: int | None
    presence: bool = False  # the screen wants `presence` messages (who is at the table)


@dataclass(frozen=True, slots=True)
class Cmd:
    seq: int
    command: c.Command


@dataclass(frozen=True, slots=True)
class Offline:
    """Commands a phone queued while offline, with its estimate of the server's time."""

    base: int
    commands: list[tuple[int, int, c.Command]]


@dataclass(frozen=True, slots=True)
class Ping:
    id: int
    client_ms: float


@dataclass(frozen=True, slots=True)
class Sync:
    pass


@dataclass(frozen=True, slots=True)
class LogRequest:
    """A page of the table log: the entries after version `after`."""

    after: int = 0


ClientMessage = Hello | Cmd | Offline | Ping | Sync | LogRequest

MAX_OFFLINE = 200


def _seq(raw: dict[str, Any]) -> int:
    seq = raw.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2**53:
        raise BadInput(f"this phone's tap has no number the server can read {RELOAD}")
    return seq


def _utf8(value: object) -> TypeGuard[str]:
    """Text that can be stored: JSON escapes can carry lone surrogates, which cannot."""
    if not isinstance(value, str):
        return False
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def _hello(raw: dict[str, Any]) -> ClientMessage:
    token, device, last = raw.get("token"), raw.get("device", ""), raw.get("v")
    if not _utf8(token) or len(token) > 128:
        raise BadInput("this phone did not say which table it is at: open the table's link again")
    if not _utf8(device) or len(device) > 64:
        raise BadInput(f"this phone did not say which phone it is {RELOAD}")
    if last is not None and (isinstance(last, bool) or not isinstance(last, int)):
        raise BadInput(f"this phone did not say how much of the game it has seen {RELOAD}")
    return Hello(
        token=token, device=device, last_version=last, presence=raw.get("presence") is True
    )


#: Reads a command of the table's engine from its wire form.
CommandReader = Callable[[Mapping[str, Any]], Any]


def _cmd(raw: dict[str, Any], read: CommandReader = command_from_wire) -> ClientMessage:
    seq = _seq(raw)
    try:
        return Cmd(seq=seq, command=read(raw))
    except BadInput as exc:
        exc.seq = seq
        raise


def _queued(item: object, read: CommandReader = command_from_wire) -> tuple[int, int, c.Command]:
    if not isinstance(item, dict):
        raise BadInput(f"a tap this phone kept while offline cannot be read {RELOAD}")
    at_ms = item.get("at_ms")
    if isinstance(at_ms, bool) or not isinstance(at_ms, int) or at_ms < 0:
        raise BadInput(
            f"a tap this phone kept while offline has no time the server can read {RELOAD}"
        )
    return (_seq(item), at_ms, read(item))


def _offline(raw: dict[str, Any], read: CommandReader = command_from_wire) -> ClientMessage:
    base, queued = raw.get("base"), raw.get("cmds")
    if isinstance(base, bool) or not isinstance(base, int):
        raise BadInput(
            f"this phone did not say how much of the game it saw before it went offline {RELOAD}"
        )
    if not isinstance(queued, list) or not 0 < len(queued) <= MAX_OFFLINE:
        raise BadInput(
            f"the taps this phone kept while offline cannot be read "
            f"({MAX_OFFLINE} at most) {RELOAD}"
        )
    return Offline(base=base, commands=[_queued(item, read) for item in queued])


def _ping(raw: dict[str, Any], _read: CommandReader | None = None) -> ClientMessage:
    ping_id, client_ms = raw.get("id", 0), raw.get("client_ms", 0)
    # JSON's numbers are exactly int or float (a bool is neither: `type`, not isinstance).
    if type(ping_id) is not int or abs(ping_id) > 2**53:
        raise BadInput(f"this phone's check of the server's time cannot be read {RELOAD}")
    kind = type(client_ms)
    if (kind is not float and kind is not int) or not abs(client_ms) <= 2**53:
        # also NaN, ±inf and ints no float holds
        raise BadInput(f"this phone's check of the server's time has no time in it {RELOAD}")
    return Ping(ping_id, float(client_ms))


def _log(raw: dict[str, Any]) -> ClientMessage:
    after = raw.get("after", 0)
    if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after < 2**53:
        raise BadInput(
            f"this phone asked for a part of the table log the server cannot find {RELOAD}"
        )
    return LogRequest(after=after)


#: Each message's parser, given the message and the engine's command reader.
_PARSERS: dict[object, Callable[[dict[str, Any], CommandReader], ClientMessage]] = {
    "ping": _ping,
    "cmd": _cmd,
    "hello": lambda raw, _read: _hello(raw),
    "offline": _offline,
    "sync": lambda _raw, _read: Sync(),
    "log": lambda raw, _read: _log(raw),
}
#: No text this long (in characters) is longer in UTF-8 than a message may be.
_SURELY_SHORT = MAX_MESSAGE_BYTES // 4


def parse(text: str, read_command: CommandReader | None = None) -> ClientMessage:
    """A client message; its commands read by the table engine's `read_command`."""
    if len(text) > _SURELY_SHORT and len(text.encode()) > MAX_MESSAGE_BYTES:
        raise BadInput(f"this phone's message is too long for the server {RELOAD}", "too_large")
    try:
        raw = loads(text)
    except ValueError:  # also NaN, Infinity, integers wider than 64 bits, lone surrogates
        raise BadInput(UNREADABLE) from None
    if type(raw) is not dict:
        raise BadInput(UNREADABLE)
    try:
        parser = _PARSERS[raw.get("t")]
    except (KeyError, TypeError):  # no such kind, or not a kind at all (a list: unhashable)
        raise BadInput(f"this phone sent a message the server does not know {RELOAD}") from None
    return parser(raw, read_command or command_from_wire)


# --- server -> client ------------------------------------------------------------------


def state(version: int, role: str, table: dict[str, Any], game: dict[str, Any], now: int) -> str:
    """The whole table, for a phone that joins or has missed too much."""
    return dumps(
        {"t": "state", "v": version, "role": role, "table": table, "game": game, "server_ms": now}
    )


def event(version: int, what: dict[str, Any], game: dict[str, Any]) -> str:
    """One accepted command (`what`) and the game after it."""
    return dumps({"t": "event", "v": version, "what": what, "game": game})


def ack(seq: int, version: int, duplicate: bool) -> str:
    return dumps({"t": "ack", "seq": seq, "v": version, "dup": duplicate})


def error(code: str, message: str, seq: int | None = None) -> str:
    return dumps({"t": "error", "code": code, "message": message, "seq": seq})


def presence(seats: dict[str, dict[str, Any]]) -> str:
    """Who is at the table: each seat's phone online or gone, and on how many devices."""
    return dumps({"t": "presence", "seats": seats})


def log(page: dict[str, Any]) -> str:
    """A page of the table log (tables.log_page)."""
    return dumps({"t": "log", **page})


def pong(ping: Ping, server_ms: int) -> str:
    """The answer to a ping: the phone's own time back, and the server's (clock sync)."""
    return dumps({"t": "pong", "id": ping.id, "client_ms": ping.client_ms, "server_ms": server_ms})
