"""A phone's offline queue merged into its table (what the table keeps to merge one:
`timeline`).

Only for a phone that was gone, only within the time it was gone, never before what the
server decided meanwhile (`offline`). A merge plays the queue's commands in time order
with what the table took since the moment they apply, and its log row carries its own
commands only: a later merge or a restart finds the others in their own rows.

- From where they apply. Everything the table counted is at or before its latest moment
  (`Timeline.frontier_ms`); a queue whose commands all come later plays them on the
  table as it is. Otherwise it plays again from where the phone left, as before.
- A queue sent in several messages goes on where the last one stopped: a later message's
  commands count no earlier than the last its phone's previous merge counted.
- What the table took online since the phone came back stands: the queue counts after it.
- While the other player's phone was online and in use, a pass counts no earlier than
  `BACKDATE_LIMIT_MS` before the last command the table took from it; time a merge moves
  onto a player whose phone stayed online is noted (`time_moved`).
"""

from __future__ import annotations

from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.frozen import replace
from app.domain.game import Game
from app.domain.merge import Timed, check_offline, merge
from app.domain.time_moved import BACKDATE_LIMIT_MS
from app.tables.offline import Gap, device_key, items_since
from app.tables.offline import timed_to_wire as _wire
from app.tables.seats import actor_to_wire
from app.tables.table import Table
from app.tables.warmachine import time_moved


class Merge:
    """One offline message of a phone, under its table's lock."""

    def __init__(
        self,
        room: Table,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        queued: list[tuple[int, int, c.Command]],
    ) -> None:
        if not isinstance(actor, Side):
            raise NotYourSeat("only a player's phone queues commands offline")
        if not room.engine.offline:
            raise RuleError("this table takes commands only while the phone is online")
        self.room, self.actor, self.device = room, actor, device
        self.phone = device_key(room.link_of(actor_to_wire(actor)), device)
        dedupe = room.dedupe
        self.fresh = [q for q in queued if dedupe.applied(self.phone, q[0], room.version) is None]
        for _, _, command in self.fresh:
            check_offline(command)
        if gap is not None and gap.game is None and self.fresh:
            gap = replace(gap, game=room.game_at(gap.version))
        self.gap = gap
        self.counted_to = 0

    def _earliest(self, gap: Gap) -> tuple[int, int | None]:
        """The earliest moment the queue's commands count at, and the limit's moment when
        it is what bounds them."""
        room = self.room
        bounds = [gap.since_ms, room.decided.at_ms]
        presence = room.presences.by_key.get(self.phone)
        if presence is not None:
            bounds.append(presence.merged_ms)  # the rest of a queue sent in parts
        since_back = room.timeline.online_since(gap.back_version)
        if since_back is not None:
            bounds.append(since_back)  # what the table took online since its return
        earliest = max(bounds)
        other = room.timeline.online.get(self.actor.other)
        if other is None or other[0] <= gap.version:
            return earliest, None
        limit = other[1] - BACKDATE_LIMIT_MS  # the other phone was in use meanwhile
        return max(earliest, limit), (limit if limit > earliest else None)

    def play(self, base: int, now_ms: int) -> tuple[Game, dict[str, Any]]:
        """The game after the queue is merged, and the merge's log row. Raises
        MergeRefused when the phones disagree (the EO decides)."""
        gap, room = self.gap, self.room
        if gap is None:
            raise BadInput("this phone was not offline: send its commands one at a time")
        if not 0 <= base <= gap.back_version:
            raise BadInput(
                f"unknown base version {base}: the table was at {gap.back_version} "
                "when this phone came back"
            )
        start, start_game = gap.version, gap.game
        if start_game is None:
            raise RuleError("this phone's time away could not be read; send its commands again")
        if room.decided.version > start:
            start, start_game = room.decided.version, room.decided.game
        earliest, limit = self._earliest(gap)
        latest = max(gap.back_ms, earliest)
        version = room.version + 1
        dated = [at for _, at, _ in self.fresh]
        counted = [min(max(at, earliest), latest) for at in dated]
        own = [
            Timed(at, self.actor, cmd, self.device, seq, True, version, i=i)
            for i, (at, (seq, _, cmd)) in enumerate(zip(counted, self.fresh, strict=True))
        ]
        limited = limit if limit is not None and min(dated) < limit else None
        since: list[Timed] = []
        if min(t.at_ms for t in own) >= room.timeline.frontier_ms:
            start, start_game = room.version, room.game  # all of it comes after the table's
        else:
            since = items_since(room.store.log(room.table_id, after=start), start)
        game, applied, dropped = merge(start_game, since + own, now_ms)
        game = replace(game, time_moved=room.game.time_moved)  # notes stand as they are
        mine = [t for t in applied if t.src == version]
        wire: dict[str, Any] = {
            "c": "merge",
            "own": True,
            "base": start,
            "phone_base": base,
            "away": [gap.since_ms, gap.back_ms],
            "moved": sum(1 for at, was in zip(counted, dated, strict=True) if at != was),
            "entries": [_wire(t) for t in mine],
            "dropped": [_wire(t) for t in dropped if t.src == version],
        }
        note = time_moved.found(
            room.game,
            game,
            mine,
            self._online,
            (version, now_ms),
            (gap.since_ms, gap.back_ms),
            limited,
        )
        if note is not None:
            wire["time_moved"] = time_moved.to_wire(note)
            game = time_moved.noted(game, wire)
        self.counted_to = max(counted)
        return game, wire

    def _online(self, side: Side, start_ms: int, end_ms: int) -> int:
        link = self.room.link_of(side.name.lower())
        return self.room.presences.online(link, start_ms, end_ms)

    def done(self, version: int) -> None:
        """The merge is logged: its commands are known by number, and the rest of its
        queue goes on from where it stopped."""
        for seq, _, _ in self.fresh:
            self.room.dedupe.remember(self.phone, seq, version)
        presence = self.room.presences.by_key.get(self.phone)
        if presence is not None:
            presence.merged_ms = max(presence.merged_ms, self.counted_to)
