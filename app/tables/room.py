"""A live table: commands applied under one lock, logged before they are acked, and
published to the table's screens.

The room applies commands to its one table and knows nothing of where else the table is
kept: commands from outside reach it through the placement (`placement`), and whoever
hosts it may set its hooks (`share`, `record_changed`), which it tells of its events and
changes, to send them further (app.cluster, several workers)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.frozen import replace
from app.domain.game import Game
from app.domain.merge import MergeRefused
from app.domain.status import TableStatus, table_status
from app.store.log_entry import LogEntry
from app.store.models import TableSnapshot
from app.store.repository import Store
from app.tables import protocol
from app.tables import round_gate as gate
from app.tables.engine import Engine
from app.tables.fanout import REPLACED, Broadcast, MemoryBroadcast, Subscriber
from app.tables.flag_timer import FlagTimer
from app.tables.jsontext import dumps
from app.tables.merging import Merge
from app.tables.offline import Decision, Gap, device_key, public_wire
from app.tables.screens import Screens
from app.tables.seats import ROLES, Ack, TableMeta, Tokens, actor_to_wire
from app.tables.table import Table
from app.tables.timesource import TimeSource

__all__ = ["Ack", "TableMeta", "TableRoom", "Tokens", "table_status"]

SNAPSHOT_EVERY = 256  # versions between a table's snapshots
#: The server's own dice, the system's randomness: one for every table (a Random holds
#: 2.5 KB of state it does not use; a seeded server gives each table dice of its own).
SERVER_DICE = random.SystemRandom()


def server_dice() -> random.Random:
    return SERVER_DICE


class TableRoom(Table):
    def __init__(
        self,
        table_id: str,
        tokens: Tokens,
        game: Game,
        store: Store,
        time: TimeSource,
        version: int = 0,
        meta: TableMeta | None = None,
        broadcast: Broadcast | None = None,
        engine: Engine | None = None,
    ) -> None:
        super().__init__(table_id, tokens, game, store, time, version, meta, engine)
        #: Told whenever the table changed (the dashboards).
        self.listeners: list[Callable[[TableRoom], None]] = []
        self.lock = asyncio.Lock()
        self.channel = (broadcast or MemoryBroadcast()).channel(f"table:{table_id}")
        self.screens = Screens(self.channel)
        self.flags = FlagTimer(time, self._flag_check, lambda: self.game, self.engine.due)
        #: The server's dice for scenario rules (Incursion's removed flag).
        self.dice: random.Random = SERVER_DICE
        #: How a logged command's event (entry, event, sender's screen) leaves the room:
        #: to the table's screens, unless the host shares it further.
        self.share: Callable[[LogEntry, str, Subscriber | None], None] = self._publish
        #: Told when the table's links or names changed (the host tells the others).
        self.record_changed: Callable[[TableRoom], None] | None = None
        self._refresh_origin: Subscriber | None = None

    def own(self, fence: int | None) -> None:
        """The table's commands are applied here from now on, with the store's fencing
        token `fence` (None: no more: the room follows the log another writes)."""
        self.fence, self.follows = fence, fence is None
        if fence is not None:
            self.flags.schedule(self.game)

    # -- commands ---------------------------------------------------------------

    async def apply(
        self,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command | Any,  # a command of the table's engine
        origin: Subscriber | None = None,
    ) -> Ack:
        """Apply a command here, once; it is durable before this returns its ack.

        The other screens get the event at once; `origin`, the sender's own screen, gets
        it once it is durable, just before its ack and with it (`Ack.before`: the caller
        sends them together), so that what a phone shows as done is acked.
        """
        async with self.lock:
            self.read_only(command)
            phone = device_key(self.link_of(actor_to_wire(actor)), device)
            applied = self.dedupe.applied(phone, seq, self.version)
            if applied is not None:
                return Ack(applied, duplicate=True)
            now = self.time.now_ms()
            ticked = self.engine.tick(self.game, now)  # what the server decides at its moment
            if ticked is not None:
                await self._commit(ticked[0], c.Role.SYSTEM, "", 0, ticked[1], ticked[2])
            event = None
            gate.check(self.meta, self.version, actor, command)
            if isinstance(command, c.StartingRoll) and not command.at_table:  # the server rolls
                command = c.StartingRoll(self.dice.randint(1, 6))
            if not isinstance(command, c.FlagCheck):
                before, opened = self.game, self.version == 0
                game = self.engine.apply(self.game, actor, command, now)
                wire = self.engine.command_to_wire(command)
                event = await self._commit(game, actor, device, seq, wire, now, origin, phone)
                if actor is c.Role.EO:
                    self.merge_refused = False  # the EO has seen to the table
                await self._roll(now)
                roles = gate.to_refresh(self, opened, before, game, actor)
                if roles:
                    self._refresh_screens(roles, origin)
            await self.store.durable(self.table_id)  # the other screens have it; its ack waits
            to_origin: tuple[str, ...] = ()
            if origin is not None and event is not None:
                if origin in self.channel.subscribers:
                    to_origin = (event,)
                if self._refresh_origin is origin:
                    self._refresh_origin = None
                    to_origin += (self.snapshot(origin.role),)
            return Ack(self.version, before=to_origin)

    async def merge_offline(
        self,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: list[tuple[int, int, c.Command]],
    ) -> Ack:
        """Merge a phone's offline commands (seq, server time, command) here, in time order.

        Only for a phone that was gone (`gap`), only within the span it was gone, on top
        of what it last had; never before a decision the server made meanwhile.
        """
        async with self.lock:
            self.read_only()
            gate.check(self.meta, self.version, actor, None)
            merge = Merge(self, actor, device, gap, queued)
            if not merge.fresh:
                return Ack(self.version, duplicate=True)
            now = self.time.now_ms()
            try:
                game, wire = merge.play(base, now)
            except MergeRefused:
                self.merge_refused = True
                raise
            await self._commit(game, actor, device, merge.fresh[-1][0], wire, now)
            await self._roll(now)
            self.merge_refused = False
            merge.done(self.version)
            await self.store.durable(self.table_id)
            return Ack(self.version)

    async def _roll(self, now_ms: int) -> None:
        """A scenario rule asked for a die: the server rolls it, logged like any command."""
        roll = self.engine.roll(self.game, self.dice)
        if roll is not None:
            game = self.engine.apply(self.game, c.Role.SYSTEM, roll, now_ms)
            wire = self.engine.command_to_wire(roll) | self.engine.roll_words(self.game, game)
            await self._commit(game, c.Role.SYSTEM, "", 0, wire, now_ms)

    async def _commit(
        self,
        game: Game,
        actor: c.Actor,
        device: str,
        seq: int,
        wire: dict[str, Any],
        at_ms: int,
        origin: Subscriber | None = None,
        phone: str | None = None,
    ) -> str:
        """Log `game`'s command, publish its event to every screen but `origin`'s, and
        return the event. `phone`: the sender's (`device_key`), as the table found it."""
        version = self.version + 1
        entry = LogEntry(
            version=version,
            at_ms=at_ms,
            actor=actor_to_wire(actor),
            device=device,
            seq=seq,
            command_json=dumps(wire),
            turn=self.engine.where(self.game),
        )
        now = self.time.now_ms()
        view = self.engine.view(game, now)  # one view: the event's, and the stored result's
        result_json = None if view["result"] is None else dumps(view["result"])
        status = self.engine.status(game)
        stored = (status.value, result_json)
        changed = status.value if stored != self.stored else None
        await self.store.write(self.table_id, entry, changed, result_json, self.fence)
        self.stored = stored
        self.last_change_ms = now
        if phone is None:
            phone = device_key(self.link_of(entry.actor), device)
        self.game = game
        self.version = version
        self.dedupe.remember(phone, seq, version)
        self.timeline.took(entry, wire)
        if self.engine.decides(entry.actor, game):
            self.decided = Decision(version, at_ms, game)
        what = {**public_wire(wire), "by": entry.actor, "at_ms": at_ms, "turn": entry.turn}
        text = protocol.event(version, what, view)
        self.history.add(version, text)
        if status is TableStatus.CONFIRMED:
            self.history.clear()  # the game is settled: a snapshot serves any late phone
        self.share(entry, text, origin)
        self.flags.schedule(game)
        if version - self.snapshot_version >= SNAPSHOT_EVERY:
            self._take_snapshot(version, at_ms, game)
        for listener in self.listeners:
            listener(self)
        return text

    def _publish(self, _entry: LogEntry, text: str, origin: Subscriber | None) -> None:
        self.channel.publish(text, skip=origin)

    def _take_snapshot(self, version: int, at_ms: int, game: Game) -> None:
        self.store.save_snapshot(
            TableSnapshot(
                table_id=self.table_id,
                version=version,
                at_ms=at_ms,
                game_json=dumps(self.engine.write(game)),
                seqs_json=dumps(self.dedupe.max_seq),
            )
        )
        self.snapshot_version = version

    # -- the EO's changes to the table itself -----------------------------------

    def rename_players(self, names: tuple[str, str]) -> None:
        """The EO corrected a name: every screen of the table gets the table afresh."""
        if names == self.game.setup.names:
            return
        self.store.rename_players(self.table_id, names)
        self.game = self.engine.renamed(self.game, names)
        self.initial = self.engine.renamed(self.initial, names)
        for subscriber in tuple(self.channel.subscribers):
            subscriber.offer(self.snapshot(subscriber.role))
        for listener in self.listeners:
            listener(self)
        if self.record_changed is not None:
            self.record_changed(self)

    def replace_token(self, role: str, token: str) -> None:
        """A lost phone: the old link stops working and its open sockets close."""
        if role not in ROLES:
            raise BadInput(f"no such link {role!r} (p1, p2, watch or eo)")
        self.store.replace_token(self.table_id, role, token)
        self.tokens = replace(self.tokens, **{role: token})
        for subscriber in tuple(self.channel.subscribers):
            if subscriber.role == role:
                subscriber.drop(REPLACED, "link replaced")
        if self.record_changed is not None:
            self.record_changed(self)

    # -- the flag timer ---------------------------------------------------------

    def schedule_flag(self) -> None:
        if not self.follows:
            self.flags.schedule(self.game)

    async def _flag_check(self) -> Ack:
        """The flag decided here (a room of its own; the hub's rooms ask the placement)."""
        return await self.apply(c.Role.SYSTEM, "", 0, c.FlagCheck())

    async def close(self) -> None:
        await self.flags.close()

    # -- what subscribers see ---------------------------------------------------

    def _refresh_screens(self, roles: tuple[str, ...], origin: Subscriber | None) -> None:
        """These links' screens get the table afresh (a seat's side or own choice changed);
        the sender's own screen gets it after its event."""
        for subscriber in tuple(self.channel.subscribers):
            if subscriber.role in roles and subscriber is not origin:
                subscriber.offer(self.snapshot(subscriber.role))
        if origin is not None and origin.role in roles:
            self._refresh_origin = origin

    def snapshot(self, role: str) -> str:
        """The whole table as `role` (a link) sees it (a `state` message): a seat sees its
        side, as the pre-game settled it, and its own secret choices; a table waiting for
        its round shows a seat or a watcher only itself and its players (`round_gate`)."""
        now = self.time.now_ms()
        table = self.engine.info(self.table_id, self.game)
        game = self.engine.view(self.game, now)
        if role in ("p1", "p2"):
            side = self.engine.side_of(self.game, Side.parse(role))
            game = self.engine.own_view(self.game, side, game)
            role = side.name.lower()
        shown = gate.screen(self.meta, self.version, role, table, game)
        return protocol.state(self.version, role, *shown, now)

    def join(
        self,
        subscriber: Subscriber,
        last_version: int | None,
        device: str = "",
        presence: bool = False,
    ) -> None:
        """Subscribe; send the missed events if we still have them, else a snapshot; then
        every screen learns who is at the table now."""
        missed = self.history.since(last_version, self.version)
        if missed is not None and len(missed) > subscriber.queue.maxsize // 2:
            missed = None  # a snapshot is smaller than a long catch-up
        if missed is None:
            subscriber.offer(self.snapshot(subscriber.role))
        else:
            for text in missed:
                subscriber.offer(text)
        self.channel.join(subscriber)
        self.screens.arrive(subscriber, device, presence)

    def leave(self, subscriber: Subscriber) -> None:
        self.channel.leave(subscriber)
        self.screens.leave(subscriber)

    def presence(self) -> dict[str, dict[str, Any]]:
        return self.screens.presence()
