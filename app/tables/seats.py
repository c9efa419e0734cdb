"""A table's seats and links: the roles a link opens, the tokens behind them, who a
command comes from on the wire and in the log, where an event's table stands, and the ack
a command gets."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from app.domain import commands as c
from app.domain.clock import Side

ROLES = ("p1", "p2", "watch", "eo")
_SIDE_NAMES = {Side.P1: "p1", Side.P2: "p2"}


def actor_to_wire(actor: c.Actor) -> str:
    return _SIDE_NAMES[actor] if isinstance(actor, Side) else actor.value


def actor_from_wire(value: str) -> c.Actor:
    if value in ("p1", "p2"):
        return Side.parse(value)
    return c.Role(value)


@dataclass(frozen=True, slots=True)
class Ack:
    version: int
    duplicate: bool = False
    #: What the sender's own screen gets just before the ack, in the same write: the
    #: command's event (durable now), and the table afresh if the command changed what
    #: that screen shows of its own seat.
    before: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableMeta:
    """Where an event's table stands: its round, number and players."""

    event_id: str
    round_number: int
    table_no: int
    p1_player: str
    p2_player: str


@dataclass(frozen=True, slots=True)
class Tokens:
    p1: str
    p2: str
    watch: str
    eo: str

    def role_for(self, token: object) -> str | None:
        if not isinstance(token, str) or not token:
            return None
        found = None
        for role in ROLES:
            if hmac.compare_digest(token.encode(), getattr(self, role).encode()):
                found = role
        return found
