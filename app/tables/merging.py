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
  onto a player whose phone stayed online is noted (`time_moved`), and while the EO has
  `NOTES_KEPT` such notes to settle no merge makes another.
- Only right after the phone's return: within `OFFLINE_WINDOW_MS` of it, and before its
  seat used the table online again. A phone back for a while is online.
- A queue that does not fit even the table as its phone had it is that phone's own
  doing: refused to it alone. One that fits it, and not what the other phone or the EO
  did meanwhile, is a disagreement the EO decides (`MergeRefused`).
"""

from __future__ import annotations

from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.frozen import replace
from app.domain.game import Game
from app.domain.merge import MergeRefused, QueueRefused, Timed, check_alone, check_offline, merge
from app.domain.time_moved import BACKDATE_LIMIT_MS, NOTES_KEPT, TimeMoved, full
from app.tables.jsontext import loads
from app.tables.offline import NOTE_COMMANDS, OFFLINE_WINDOW_MS, Gap, device_key, items_since
from app.tables.offline import timed_to_wire as _wire
from app.tables.seats import actor_to_wire
from app.tables.table import Table
from app.tables.warmachine import time_moved

#: A seat's log rows that are not a use of the table online (as `Timeline.online`).
NOT_A_USE = frozenset(NOTE_COMMANDS) | {"merge"}


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
        self._in_time(gap, now_ms)
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
        try:
            game, applied, dropped = merge(start_game, since + own, now_ms)
        except MergeRefused:
            self._alone(gap, base, own, now_ms)  # QueueRefused: the phone's own doing
            raise
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
            self._room_for(note)
            wire["time_moved"] = time_moved.to_wire(note)
            game = time_moved.noted(game, wire)
        self.counted_to = max(counted)
        return game, wire

    def _in_time(self, gap: Gap, now_ms: int) -> None:
        """An offline queue only right after the phone's return (its hello, by the
        server's clock): within OFFLINE_WINDOW_MS, and before its seat used the table
        online again. Later, a queue dated back would take the time in between."""
        late = now_ms - gap.back_ms
        if late > OFFLINE_WINDOW_MS:
            raise BadInput(
                f"too late for an offline queue: this phone came back {time_moved.seconds(late)} "
                f"ago, and a queue is taken only within {time_moved.seconds(OFFLINE_WINDOW_MS)} "
                "of the return; nothing was merged"
            )
        used = self.room.timeline.online.get(self.actor)
        if used is not None and used[0] > gap.back_version and self._used_since(gap):
            name = self.room.game.names[self.actor]
            raise BadInput(
                f"too late for an offline queue: {name} has used the table online since this "
                "phone came back; nothing was merged"
            )

    def _used_since(self, gap: Gap) -> bool:
        """Whether the seat took the table online since the phone's return with a command
        made after its queue: on any other phone, or on this one with a later number. This
        phone's own commands from before its queue (sent before the drop, never acked, and
        sent again first on its return) are not a use of the table since."""
        room, seat = self.room, actor_to_wire(self.actor)
        first = min((q[0] for q in self.fresh), default=0)
        for entry in room.store.log(room.table_id, after=gap.back_version):
            if entry.actor != seat or loads(entry.command_json).get("c") in NOT_A_USE:
                continue
            if entry.device != self.device or entry.seq > first:
                return True
        return False

    def _alone(self, gap: Gap, base: int, own: list[Timed], now_ms: int) -> None:
        """Raise QueueRefused when the queue, with what this phone merged before, fits
        neither table the phone may have had: as the server last heard it, nor as the
        phone says it had it when it began queueing (`base`: a phone heard on a socket
        that died at once may never have had what the server then sent it)."""
        room = self.room
        views: list[tuple[int, Game | None]] = [(gap.version, gap.game)]
        if base != gap.version:
            views.append((base, None))
        refused: QueueRefused | None = None
        for version, view in views:
            log = room.store.log(room.table_id, after=version)
            earlier = [
                t
                for t in items_since(log, version)
                if t.offline and t.actor == self.actor and t.device == self.device
            ]
            try:
                check_alone(view or room.game_at(version), earlier + own, now_ms)
            except QueueRefused as exc:
                refused = exc
            else:
                return
        if refused is not None:
            raise refused

    def _room_for(self, note: TimeMoved) -> None:
        """No further note while the EO has NOTES_KEPT to settle: none is let go unseen."""
        game = self.room.game
        if full(game.time_moved):
            raise RuleError(
                f"this phone's offline pass would move {time_moved.seconds(note.moved_ms)} "
                f"onto {game.names[note.onto]}'s clock, and the EO has {NOTES_KEPT} notes of "
                "time moved at this table to settle first: nothing was merged; ask the EO"
            )

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
