"""A phone's time away from the table, and the log entries of an offline merge.

The server accepts a phone's offline queue only for the span its seat was really gone
(from the last message the server had from any phone of that seat link to this phone's
return), only right after that return (`OFFLINE_WINDOW_MS`), and replays it on top of
what the server knows that phone last had. What the server decided meanwhile (a flag,
anything the EO did, the game's end) stands: a merge starts after it.

Only a seat's phones have a time away: watch and EO screens queue nothing, and each
seat link's phones are remembered apart (`PHONES_PER_SEAT`), so no other screen can
make the server forget when it last heard a seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.domain.game import Game
from app.domain.merge import Timed
from app.store.log_entry import LogEntry
from app.tables.jsontext import loads
from app.tables.screens import SEATS
from app.tables.seats import actor_from_wire, actor_to_wire
from app.tables.warmachine.codec import SECRET, command_from_wire, command_to_wire

#: A seat link's phones remembered at a table; the longest silent is forgotten first
#: (the seat's last heard never is: a device forgotten was away since then at most).
PHONES_PER_SEAT = 8
#: How long after its return (its socket's hello, by the server's clock) a phone's
#: offline queue is taken: a phone sends it at once on reconnecting (again after 10 s
#: unanswered). Later, or once its seat has used the table online since, it is refused:
#: a phone back for a while is not offline, and its taps are sent one at a time.
OFFLINE_WINDOW_MS = 30_000
#: The commands about a merge's note (time moved): they do not touch the clock, and a
#: merge leaves them where they are.
NOTE_COMMANDS = ("dispute_time_moved", "settle_time_moved")


def device_key(link: str, device: str) -> str:
    """Dedupe and presence are a seat link's and a device's together: another seat's
    phone saying the same device id is another phone."""
    return f"{link}:{device}" if device else ""


def seat_link_of(key: str) -> str | None:
    """The seat link of a phone's key (`device_key`); None for a watch or EO screen."""
    link = key.partition(":")[0]
    return link if key and link in SEATS else None


@dataclass(slots=True)
class Presence:
    """The last moment the server heard from a phone, and the table as it was then."""

    heard_ms: int
    version: int
    game: Game
    #: Its socket's hello (or the first the server heard of it): online from then on,
    #: until it was last heard.
    online_ms: int = 0
    #: The latest time its last offline merge counted a command at (the rest of its queue,
    #: sent in further messages, goes on from there).
    merged_ms: int = 0


@dataclass(frozen=True, slots=True)
class Gap:
    """A phone's time away: what it may merge, and on top of what."""

    since_ms: int  # the last message the server had from it
    back_ms: int  # its return (its new socket's hello)
    version: int  # the version it last had, as far as the server knows
    game: Game | None  # the game at that version (None: the table's owner rebuilds it)
    back_version: int  # the table's version on its return
    #: Not heard by this process: its time away is guessed from when the table was loaded.
    guessed: bool = False


@dataclass(frozen=True, slots=True)
class Decision:
    """The server's last decision at a table (a flag, the EO, the game's end)."""

    version: int
    at_ms: int
    game: Game


class Presences:
    """When the server last heard each seat's phones (a watch or EO screen has no time
    away: it is not kept)."""

    def __init__(self, limit: int = PHONES_PER_SEAT) -> None:
        self.limit = limit
        self.by_key: dict[str, Presence] = {}

    def heard(self, key: str, now_ms: int, version: int, game: Game) -> None:
        link = seat_link_of(key)
        if link is None:
            return
        found = self.by_key.get(key)
        if found is None:
            seat = self._of(link)
            if len(seat) >= self.limit:
                oldest = min(seat, key=lambda k: self.by_key[k].heard_ms)
                del self.by_key[oldest]
            self.by_key[key] = Presence(now_ms, version, game, now_ms)
            return
        found.heard_ms, found.version, found.game = now_ms, version, game

    def _of(self, link: str) -> list[str]:
        return [key for key in self.by_key if key.startswith(link + ":")]

    def last_of(self, link: str) -> Presence | None:
        """The seat link's phone the server heard last."""
        found = [self.by_key[key] for key in self._of(link)]
        return max(found, key=lambda p: p.heard_ms) if found else None

    def online(self, link: str, start_ms: int, end_ms: int) -> int:
        """How long, within [start, end], a phone of this seat link was online: from its
        socket's hello to the last the server heard of it (a phone that lost the network
        may keep its socket open a while, silent)."""
        best = 0
        for key in self._of(link):
            found = self.by_key[key]
            until = min(end_ms, found.heard_ms)
            best = max(best, until - max(start_ms, found.online_ms))
        return best

    def arrive(
        self, key: str, now_ms: int, version: int, game: Game, known: Presence | None
    ) -> Gap | None:
        """A socket of this phone says hello: its seat's gap since the server last heard
        any phone of the seat link (`known` stands in for a phone the log knows and this
        process never heard)."""
        link = seat_link_of(key)
        if link is None:
            return None
        heard = self.by_key.get(key)
        was, guessed = heard or known, heard is None
        seat = self.last_of(link)
        if was is not None and seat is not None and seat.heard_ms > was.heard_ms:
            was, guessed = seat, False  # another phone of the seat was here since
        gap = (
            None
            if was is None
            else Gap(was.heard_ms, now_ms, was.version, was.game, version, guessed)
        )
        self.heard(key, now_ms, version, game)
        if heard is not None:  # it was gone: online again from now, its queue afresh
            heard.online_ms, heard.merged_ms = now_ms, 0
        return gap


def timed_from_wire(sub: dict[str, Any], src: int, offline: bool) -> Timed:
    return Timed(
        sub["at_ms"],
        actor_from_wire(sub["by"]),
        command_from_wire(sub["cmd"]),
        sub["device"],
        sub["seq"],
        offline,
        src,
        i=sub.get("i", 0),
    )


def merged_items(wire: dict[str, Any]) -> list[dict[str, Any]]:
    """A merge's commands. A merge that carries its own (`own`) has only the commands of
    its queue, in the queue's order; an older one repeats what it played again too."""
    items = list(wire["entries"]) + list(wire.get("dropped", []))
    if wire.get("own"):
        items.sort(key=lambda sub: int(sub.get("i", 0)))
    return items


def items_since(entries: list[LogEntry], start: int) -> list[Timed]:
    """The players' commands the table took after version `start`, once each.

    An older merge's entries repeat commands that came before it; each is taken once, as
    the latest merge placed it. What was already in the table at `start` is left out, and
    so are the notes of time moved (a merge keeps them as the table has them).
    """
    found: dict[tuple[int, str, str, int], Timed] = {}
    for entry in entries:
        wire = loads(entry.command_json)
        if wire.get("c") == "merge":
            # Every merged command came from an offline queue: merged again, it may do nothing.
            for sub in merged_items(wire):
                src = int(sub.get("src", entry.version))
                if src > start:
                    key = (src, sub["by"], sub["device"], sub["seq"])
                    found[key] = timed_from_wire(sub, src, True)
        elif entry.actor not in ("eo", "system") and wire.get("c") not in NOTE_COMMANDS:
            timed = Timed(
                entry.at_ms,
                actor_from_wire(entry.actor),
                command_from_wire(wire),
                entry.device,
                entry.seq,
                False,
                entry.version,
            )
            found[(entry.version, entry.actor, entry.device, entry.seq)] = timed
    return list(found.values())


def timed_to_wire(timed: Timed) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "at_ms": timed.at_ms,
        "by": actor_to_wire(timed.actor),
        "device": timed.device,
        "seq": timed.seq,
        "src": timed.src,
        "offline": timed.offline,
        "cmd": command_to_wire(timed.command),
    }
    if timed.turn:
        wire["turn"] = timed.turn
    if timed.i:
        wire["i"] = timed.i
    return wire


def public_wire(wire: dict[str, Any]) -> dict[str, Any]:
    """What screens and the log show of a command: no device ids (they are the phones'),
    and no secret choice (a list or objective shows once revealed, in the game)."""
    secret = SECRET.get(wire.get("c", ""))
    if secret:
        return {k: v for k, v in wire.items() if k not in secret}
    if wire.get("c") != "merge":
        return wire
    return {
        **wire,
        "entries": [_public_item(sub) for sub in wire["entries"]],
        "dropped": [_public_item(sub) for sub in wire.get("dropped", [])],
    }


def _public_item(sub: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sub.items() if k not in ("device", "seq")}
