"""A live table: commands applied under one lock, logged before they are acked."""

from __future__ import annotations

import asyncio
import hmac
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.game import Game, Phase, apply, decide_time, slot, time_due_at
from app.domain.merge import MergeRefused, check_offline
from app.domain.status import TableStatus, table_status
from app.store.models import TableSnapshot
from app.store.repository import LogEntry, Store
from app.tables import protocol
from app.tables.codec import actor_to_wire, command_to_wire
from app.tables.dedupe import Dedupe
from app.tables.fanout import REPLACED, Broadcast, MemoryBroadcast, Subscriber
from app.tables.flag_timer import FlagTimer
from app.tables.history import History
from app.tables.jsontext import dumps, loads
from app.tables.offline import (
    Decision,
    Gap,
    Presence,
    Presences,
    device_key,
    merge_queue,
    merged_items,
    public_wire,
)
from app.tables.replay import decides, fold
from app.tables.snapshot import read as read_snapshot
from app.tables.snapshot import write as write_snapshot
from app.tables.timesource import TimeSource
from app.tables.view import game_view, table_info

__all__ = ["Ack", "TableMeta", "TableRoom", "Tokens", "table_status"]

SNAPSHOT_EVERY = 256  # versions between a table's snapshots

ROLES = ("p1", "p2", "watch", "eo")


@dataclass(frozen=True, slots=True)
class Ack:
    version: int
    duplicate: bool = False


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


class TableRoom:
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
    ) -> None:
        self.table_id = table_id
        self.meta = meta
        self.listeners: list[Callable[[TableRoom], None]] = []
        self.tokens = tokens
        self.game = game
        self.initial = game
        self.version = version
        self.store = store
        self.time = time
        self.lock = asyncio.Lock()
        self.channel = (broadcast or MemoryBroadcast()).channel(f"table:{table_id}")
        self.history = History()
        self.dedupe = Dedupe()
        self.presences = Presences()
        self.flags = FlagTimer(time, self._flag_check, lambda: self.game)
        #: The table as loaded (a phone the log knows, not heard since, was gone since).
        self.loaded = Presence(time.now_ms(), version, game)
        #: The last decision: a merge starts after it.
        self.decided = Decision(version, time.now_ms(), game)
        self.broken: str | None = None
        self.merge_refused = False
        self._snapshot_version = version
        self._stored: tuple[str, str | None] | None = None  # status and result in the store
        self.last_change_ms = time.now_ms()
        #: The server's dice for scenario rules (Incursion's removed flag).
        self.dice: random.Random = random.SystemRandom()

    # -- rebuilding from the log ------------------------------------------------

    def replay(self, log: list[LogEntry]) -> None:
        """Rebuild from the log; a log that does not replay leaves the table read-only."""
        try:
            self._replay_from(self.game, 0, log)
        except (RuleError, ValueError, KeyError) as exc:
            self.broken = f"this table's log does not replay: {exc}"
            self.version = log[-1].version if log else 0

    def restore(self, snapshot: TableSnapshot, tail: list[LogEntry]) -> None:
        """Rebuild from a snapshot and the log after it (ValueError, KeyError: it does not
        fit, rebuild from the whole log instead)."""
        game = read_snapshot(loads(snapshot.game_json))
        game = replace(game, setup=self.game.setup)  # names the EO corrected since
        self.dedupe.restore({k: int(v) for k, v in loads(snapshot.seqs_json).items()})
        self.decided = Decision(snapshot.version, snapshot.at_ms, game)
        self._snapshot_version = snapshot.version
        self._replay_from(game, snapshot.version, tail)

    def _replay_from(self, game: Game, first: int, log: list[LogEntry]) -> None:
        states = fold(game, log, first)
        self.game = states[-1]
        self.version = log[-1].version if log else first
        self.loaded = Presence(self.time.now_ms(), self.version, self.game)
        for entry in log:
            self.dedupe.remember(device_key(entry.actor, entry.device), entry.seq, entry.version)
            wire = loads(entry.command_json)
            for sub in merged_items(wire) if wire.get("c") == "merge" else []:
                phone = device_key(sub["by"], sub["device"])
                self.dedupe.remember(phone, sub["seq"], entry.version)
            after = states[entry.version - first]
            if decides(entry.actor, after):
                self.decided = Decision(entry.version, entry.at_ms, after)

    # -- where each phone stands ------------------------------------------------

    def heard(self, phone: str) -> None:
        """A message came from this phone: it had the table as it is now."""
        self.presences.heard(phone, self.time.now_ms(), self.version, self.game)

    def arrive(self, phone: str) -> Gap | None:
        """A socket of this phone (its seat and device) said hello: how long it was gone,
        from what. A phone the log knows and this process never heard was gone since load."""
        known = self.loaded if phone in self.dedupe else None
        return self.presences.arrive(phone, self.time.now_ms(), self.version, self.game, known)

    # -- commands ---------------------------------------------------------------

    def _read_only(self) -> None:
        if self.broken is not None:
            raise RuleError(f"this table is read-only ({self.broken}); the EO decides")

    async def execute(
        self,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command,
        origin: Subscriber | None = None,
    ) -> Ack:
        """Apply a command once; it is durable before this returns its ack.

        The other screens get the event at once; `origin`, the sender's own screen, gets
        it once it is durable, just before its ack, so that what a phone shows as done
        is acked.
        """
        async with self.lock:
            self._read_only()
            applied = self.dedupe.applied(
                device_key(actor_to_wire(actor), device), seq, self.version
            )
            if applied is not None:
                return Ack(applied, duplicate=True)
            now = self.time.now_ms()
            self._decide_flag(now)
            event = None
            if not isinstance(command, c.FlagCheck):
                game = apply(self.game, actor, command, now)
                event = self._commit(
                    game, actor, device, seq, command_to_wire(command), now, origin
                )
                if actor is c.Role.EO:
                    self.merge_refused = False  # the EO has seen to the table
                self._roll_if_due(now)
            await self.store.durable()  # the other screens have it; its ack waits for the disk
            if origin is not None and event is not None:
                self.channel.send(origin, event)
            return Ack(self.version)

    async def merge_offline(
        self,
        actor: c.Actor,
        device: str,
        gap: Gap | None,
        base: int,
        queued: list[tuple[int, int, c.Command]],
    ) -> Ack:
        """Merge a phone's offline commands (seq, server time, command) in time order.

        Only for a phone that was gone (`gap`), only within the span it was gone, on top
        of what it last had; never before a decision the server made meanwhile.
        """
        async with self.lock:
            self._read_only()
            if not isinstance(actor, Side):
                raise NotYourSeat("only a player's phone queues commands offline")
            phone = device_key(actor_to_wire(actor), device)
            fresh = [q for q in queued if self.dedupe.applied(phone, q[0], self.version) is None]
            if not fresh:
                return Ack(self.version, duplicate=True)
            for _, _, command in fresh:
                check_offline(command)
            now = self.time.now_ms()
            try:
                game, wire = merge_queue(
                    actor,
                    device,
                    gap,
                    base,
                    fresh,
                    self.decided,
                    lambda after: self.store.log(self.table_id, after=after),
                    self.version + 1,
                    now,
                )
            except MergeRefused:
                self.merge_refused = True
                raise
            self._commit(game, actor, device, fresh[-1][0], wire, now)
            self._roll_if_due(now)
            self.merge_refused = False
            for seq, _, _ in fresh:
                self.dedupe.remember(phone, seq, self.version)
            await self.store.durable()
            return Ack(self.version)

    def _roll_if_due(self, now_ms: int) -> None:
        """A scenario rule asked for a die: the server rolls it, logged like any command."""
        if self.game.roll_due and self.game.phase is not Phase.OVER:
            roll = c.ScenarioRoll(self.dice.randint(1, self.game.roll_due))
            game = apply(self.game, c.Role.SYSTEM, roll, now_ms)
            wire = command_to_wire(roll)
            gone = sorted(game.removed - self.game.removed)
            names = [e.name for e in game.scenario.elements if e.id in gone]
            if names:  # the log says what the roll did, in words
                wire["removed"] = ", ".join(names)
            self._commit(game, c.Role.SYSTEM, "", 0, wire, now_ms)

    def _decide_flag(self, now_ms: int) -> None:
        flag_at = time_due_at(self.game)
        flagged = decide_time(self.game, now_ms)
        if flagged is not self.game and flag_at is not None:
            wire = command_to_wire(c.FlagCheck())
            if flagged.timer is not None:  # DC10: the round clock ran out, not a player's
                wire["dice_down"] = True
            self._commit(flagged, c.Role.SYSTEM, "", 0, wire, flag_at)

    def _commit(
        self,
        game: Game,
        actor: c.Actor,
        device: str,
        seq: int,
        wire: dict[str, Any],
        at_ms: int,
        origin: Subscriber | None = None,
    ) -> str:
        """Log `game`'s command, publish its event to every screen but `origin`'s, and
        return the event."""
        version = self.version + 1
        entry = LogEntry(
            version=version,
            at_ms=at_ms,
            actor=actor_to_wire(actor),
            device=device,
            seq=seq,
            command_json=dumps(wire),
            turn=slot(self.game),
        )
        now = self.time.now_ms()
        view = game_view(game, now)  # one view: the event's, and the stored result's
        result_json = None if view["result"] is None else dumps(view["result"])
        status = table_status(game)
        stored = (status.value, result_json)
        changed = status.value if stored != self._stored else None
        self.store.append(self.table_id, entry, changed, result_json)
        self._stored = stored
        self.last_change_ms = now
        self.game = game
        self.version = version
        self.dedupe.remember(device_key(entry.actor, device), seq, version)
        if decides(entry.actor, game):
            self.decided = Decision(version, at_ms, game)
        what = {**public_wire(wire), "by": entry.actor, "at_ms": at_ms, "turn": entry.turn}
        text = protocol.event(version, what, view)
        self.history.add(version, text)
        if status is TableStatus.CONFIRMED:
            self.history.clear()  # the game is settled: a snapshot serves any late phone
        self.channel.publish(text, skip=origin)
        self.flags.schedule(game)
        if version - self._snapshot_version >= SNAPSHOT_EVERY:
            self._take_snapshot(version, at_ms, game)
        for listener in self.listeners:
            listener(self)
        return text

    def _take_snapshot(self, version: int, at_ms: int, game: Game) -> None:
        self.store.save_snapshot(
            TableSnapshot(
                table_id=self.table_id,
                version=version,
                at_ms=at_ms,
                game_json=dumps(write_snapshot(game)),
                seqs_json=dumps(self.dedupe.max_seq),
            )
        )
        self._snapshot_version = version

    # -- the EO's changes to the table itself -----------------------------------

    def rename_players(self, names: tuple[str, str]) -> None:
        """The EO corrected a name: every screen of the table gets the table afresh."""
        if names == self.game.setup.names:
            return
        self.store.rename_players(self.table_id, names)
        self.game = replace(self.game, setup=replace(self.game.setup, names=names))
        self.initial = replace(self.initial, setup=replace(self.initial.setup, names=names))
        for subscriber in tuple(self.channel.subscribers):
            subscriber.offer(self.snapshot(subscriber.role))
        for listener in self.listeners:
            listener(self)

    def replace_token(self, role: str, token: str) -> None:
        """A lost phone: the old link stops working and its open sockets close."""
        if role not in ROLES:
            raise BadInput(f"no such link {role!r} (p1, p2, watch or eo)")
        self.store.replace_token(self.table_id, role, token)
        self.tokens = replace(self.tokens, **{role: token})
        for subscriber in tuple(self.channel.subscribers):
            if subscriber.role == role:
                subscriber.drop(REPLACED, "link replaced")

    # -- the flag timer ---------------------------------------------------------

    def schedule_flag(self) -> None:
        self.flags.schedule(self.game)

    async def _flag_check(self) -> Ack:
        return await self.execute(c.Role.SYSTEM, "", 0, c.FlagCheck())

    async def close(self) -> None:
        await self.flags.close()

    # -- what subscribers see ---------------------------------------------------

    def snapshot(self, role: str) -> str:
        """The whole table as `role` sees it (a `state` message)."""
        now = self.time.now_ms()
        table = table_info(self.table_id, self.game)
        return protocol.state(self.version, role, table, game_view(self.game, now), now)

    def join(self, subscriber: Subscriber, last_version: int | None) -> None:
        """Subscribe; send the missed events if we still have them, else a snapshot."""
        missed = self.history.since(last_version, self.version)
        if missed is not None and len(missed) > subscriber.queue.maxsize // 2:
            missed = None  # a snapshot is smaller than a long catch-up
        if missed is None:
            subscriber.offer(self.snapshot(subscriber.role))
        else:
            for text in missed:
                subscriber.offer(text)
        self.channel.join(subscriber)

    def leave(self, subscriber: Subscriber) -> None:
        self.channel.leave(subscriber)
