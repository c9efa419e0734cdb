"""A live table: commands applied under one lock, logged before they are acked."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.game import Game, Phase, apply, decide_flag, slot
from app.domain.merge import MergeRefused, Timed, check_offline, merge
from app.store.models import TableSnapshot
from app.store.repository import LogEntry, Store
from app.tables.codec import actor_from_wire, actor_to_wire, command_from_wire, command_to_wire
from app.tables.fanout import REPLACED, Channel, Subscriber
from app.tables.jsontext import dumps, loads
from app.tables.offline import (
    Gap,
    Presence,
    Presences,
    device_key,
    items_since,
    merged_items,
    public_wire,
    timed_to_wire,
)
from app.tables.snapshot import read as read_snapshot
from app.tables.snapshot import write as write_snapshot
from app.tables.timesource import Timer, TimeSource
from app.tables.view import game_view, table_info

SNAPSHOT_EVERY = 256  # versions between a table's snapshots
HISTORY = 32  # events kept for a reconnecting phone; past that it gets a snapshot
SEEN_PER_DEVICE = 512

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


def table_status(game: Game) -> str:
    if game.paused:
        return "paused"
    if game.phase is Phase.READY:
        return "waiting"
    if game.phase in (Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT):
        return "deploying"
    if game.phase in (Phase.TURN, Phase.CLOCK_OUT):
        return "playing"
    if game.disputed is not None:
        return "disputed"
    if game.result() is None:
        return "finished"
    return "confirmed" if all(game.confirmed) else "awaiting_confirmation"


#: A commit after which nothing earlier is replayed: the server's or the EO's decision,
#: or anything once the game is over (a merge never reorders commands before them).
def _decides(actor: str, game: Game) -> bool:
    return actor in ("eo", "system") or game.phase in (Phase.OVER, Phase.CLOCK_OUT)


def fold(initial: Game, log: list[LogEntry], first: int = 0) -> list[Game]:
    """The game after each version of the log from `initial`, the game at version
    `first` (index 0: at `first`, before the log's first entry)."""
    states = [initial]
    for entry in log:
        wire = loads(entry.command_json)
        if wire.get("c") == "merge":
            if wire["base"] < first:
                raise KeyError(f"a merge from version {wire['base']}, before the snapshot")
            game = states[wire["base"] - first]
            for sub in wire["entries"]:
                game = apply(
                    game, actor_from_wire(sub["by"]), command_from_wire(sub["cmd"]), sub["at_ms"]
                )
            states.append(decide_flag(game, max(entry.at_ms, game.clock.since_ms)))
        else:
            command = command_from_wire(wire)
            states.append(apply(states[-1], actor_from_wire(entry.actor), command, entry.at_ms))
    return states


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
    ) -> None:
        self.table_id = table_id
        self.meta = meta
        self.listeners: list[Callable[[TableRoom], None]] = []
        self.tokens = tokens
        self.game = game
        self.version = version
        self.store = store
        self.time = time
        self.lock = asyncio.Lock()
        self.channel = Channel()
        self.history: deque[tuple[int, str]] = deque(maxlen=HISTORY)
        self._seen: dict[str, OrderedDict[int, int]] = {}  # by seat and device
        self._max_seq: dict[str, int] = {}
        self._seq_floor: dict[str, int] = {}
        self._snapshot_version = version
        self.presences = Presences()
        #: The table as loaded (a phone the log knows, not heard since, was gone since).
        self.loaded = Presence(time.now_ms(), version, game)
        #: The last decision (version, time, game): a merge starts after it.
        self.barrier: tuple[int, int, Game] = (version, time.now_ms(), game)
        self._timer: Timer | None = None
        self._timer_at = 0
        self._flagging: asyncio.Task[None] | None = None
        self.broken: str | None = None
        self.merge_refused = False
        self.initial = game
        self._stored: tuple[str, str | None] | None = None  # status and result in the store
        self.last_change_ms = time.now_ms()

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
        self._max_seq.update({k: int(v) for k, v in loads(snapshot.seqs_json).items()})
        self._seq_floor = dict(self._max_seq)
        self.barrier = (snapshot.version, snapshot.at_ms, game)
        self._snapshot_version = snapshot.version
        self._replay_from(game, snapshot.version, tail)

    def _replay_from(self, game: Game, first: int, log: list[LogEntry]) -> None:
        states = fold(game, log, first)
        self.game = states[-1]
        self.version = log[-1].version if log else first
        self.loaded = Presence(self.time.now_ms(), self.version, self.game)
        for entry in log:
            self._remember(device_key(entry.actor, entry.device), entry.seq, entry.version)
            wire = loads(entry.command_json)
            for sub in merged_items(wire) if wire.get("c") == "merge" else []:
                self._remember(device_key(sub["by"], sub["device"]), sub["seq"], entry.version)
            after = states[entry.version - first]
            if _decides(entry.actor, after):
                self.barrier = (entry.version, entry.at_ms, after)

    # -- commands ---------------------------------------------------------------

    def _remember(self, key: str, seq: int, version: int) -> None:
        if not key:
            return
        seen = self._seen.setdefault(key, OrderedDict())
        seen[seq] = version
        if len(seen) > SEEN_PER_DEVICE:
            seen.popitem(last=False)
        self._max_seq[key] = max(seq, self._max_seq.get(key, seq))

    def _already_applied(self, key: str, seq: int) -> int | None:
        if not key:
            return None
        seen = self._seen.get(key)
        if seen is not None and seq in seen:
            return seen[seq]
        if seq <= self._max_seq.get(key, -1) - SEEN_PER_DEVICE:
            return self.version
        if seq <= self._seq_floor.get(key, -1):  # before the snapshot this table came from
            return self.version
        return None

    # -- where each phone stands ------------------------------------------------

    def heard(self, key: str) -> None:
        """A message came from this phone: it had the table as it is now."""
        self.presences.heard(key, self.time.now_ms(), self.version, self.game)

    def arrive(self, phone: str) -> Gap | None:
        """A socket of this phone (its seat and device) said hello: how long it was gone,
        from what. A phone the log knows and this process never heard was gone since load."""
        known = self.loaded if phone in self._seen else None
        return self.presences.arrive(phone, self.time.now_ms(), self.version, self.game, known)

    async def execute(
        self,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command,
        origin: Subscriber | None = None,
    ) -> Ack:
        """Apply a command once; it is durable before this returns its ack.

        `origin`, the sender's own screen, gets the event after every other screen.
        """
        async with self.lock:
            if self.broken is not None:
                raise RuleError(f"this table is read-only ({self.broken}); the EO decides")
            applied = self._already_applied(device_key(actor_to_wire(actor), device), seq)
            if applied is not None:
                return Ack(applied, duplicate=True)
            now = self.time.now_ms()
            self._decide_flag(now)
            if isinstance(command, c.FlagCheck):
                await self.store.durable()
                return Ack(self.version)
            game = apply(self.game, actor, command, now)
            self._commit(game, actor, device, seq, command, now, origin)
            if actor is c.Role.EO:
                self.merge_refused = False  # the EO has seen to the table
            await self.store.durable()  # the other screens have it; its ack waits for the disk
            return Ack(self.version)

    def _decide_flag(self, now_ms: int) -> None:
        flag_at = self.game.clock.flag_at()
        flagged = decide_flag(self.game, now_ms)
        if flagged is not self.game and flag_at is not None:
            self._commit(flagged, c.Role.SYSTEM, "", 0, c.FlagCheck(), flag_at)

    def _commit(
        self,
        game: Game,
        actor: c.Actor,
        device: str,
        seq: int,
        command: c.Command,
        at_ms: int,
        origin: Subscriber | None = None,
    ) -> None:
        self._commit_wire(game, actor, device, seq, command_to_wire(command), at_ms, origin)

    def _commit_wire(
        self,
        game: Game,
        actor: c.Actor,
        device: str,
        seq: int,
        wire: dict[str, Any],
        at_ms: int,
        origin: Subscriber | None = None,
    ) -> None:
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
        stored = (status, result_json)
        self.store.append(
            self.table_id, entry, status if stored != self._stored else None, result_json
        )
        self._stored = stored
        self.last_change_ms = now
        if version - self._snapshot_version >= SNAPSHOT_EVERY:
            self._take_snapshot(version, at_ms, game)
        self.game = game
        self.version = version
        self._remember(device_key(entry.actor, device), seq, version)
        if _decides(entry.actor, game):
            self.barrier = (version, at_ms, game)
        message = {
            "t": "event",
            "v": version,
            "what": {**public_wire(wire), "by": entry.actor, "at_ms": at_ms, "turn": entry.turn},
            "game": view,
        }
        text = dumps(message)
        self.history.append((version, text))
        if status == "confirmed":
            self.history.clear()  # the game is settled: a snapshot serves any late phone
        self.channel.publish(text, last=origin)
        self.schedule_flag()
        for listener in self.listeners:
            listener(self)

    def _take_snapshot(self, version: int, at_ms: int, game: Game) -> None:
        self.store.save_snapshot(
            TableSnapshot(
                table_id=self.table_id,
                version=version,
                at_ms=at_ms,
                game_json=dumps(write_snapshot(game)),
                seqs_json=dumps(self._max_seq),
            )
        )
        self._snapshot_version = version

    def rename_players(self, names: tuple[str, str]) -> None:
        """The EO corrected a name: every screen of the table gets the table afresh."""
        if names == self.game.setup.names:
            return
        self.store.rename_players(self.table_id, names)
        self.game = replace(self.game, setup=replace(self.game.setup, names=names))
        self.initial = replace(self.initial, setup=replace(self.initial.setup, names=names))
        for subscriber in tuple(self.channel.subscribers):
            subscriber.offer(dumps(self.snapshot(subscriber.role)))
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
            if self.broken is not None:
                raise RuleError(f"this table is read-only ({self.broken}); the EO decides")
            if not isinstance(actor, Side):
                raise NotYourSeat("only a player's phone queues commands offline")
            key = device_key(actor_to_wire(actor), device)
            fresh = [q for q in queued if self._already_applied(key, q[0]) is None]
            if not fresh:
                return Ack(self.version, duplicate=True)
            for _, _, command in fresh:
                check_offline(command)
            if gap is None:
                raise BadInput("this phone was not offline: send its commands one at a time")
            if not 0 <= base <= gap.back_version:
                raise BadInput(
                    f"unknown base version {base}: the table was at {gap.back_version} "
                    "when this phone came back"
                )
            now = self.time.now_ms()
            start, start_game = gap.version, gap.game
            decided, decided_at, decided_game = self.barrier
            if decided > start:
                start, start_game = decided, decided_game
            earliest, latest = max(gap.since_ms, decided_at), gap.back_ms
            since = items_since(self.store.log(self.table_id, after=start), start)
            version = self.version + 1
            offline = [
                Timed(min(max(at, earliest), latest), actor, cmd, device, seq, True, version)
                for seq, at, cmd in fresh
            ]
            moved = sum(1 for (_, at, _), t in zip(fresh, offline, strict=True) if at != t.at_ms)
            try:
                game, applied, dropped = merge(start_game, since + offline, now)
            except MergeRefused:
                self.merge_refused = True
                raise
            wire = {
                "c": "merge",
                "base": start,
                "phone_base": base,
                "away": [gap.since_ms, gap.back_ms],
                "moved": moved,
                "entries": [timed_to_wire(t) for t in applied],
                "dropped": [timed_to_wire(t) for t in dropped],
            }
            self._commit_wire(game, actor, device, fresh[-1][0], wire, now)
            self.merge_refused = False
            for seq, _, _ in fresh:
                self._remember(key, seq, self.version)
            await self.store.durable()
            return Ack(self.version)

    # -- the flag timer ---------------------------------------------------------

    def _flag_bound(self) -> int | None:
        """No clock can reach zero before this: remaining time runs down no faster than
        real time, so neither side flags before `since + the lesser remaining time`."""
        clock = self.game.clock
        if clock.running is None or self.game.ending is not None:
            return None
        return clock.since_ms + min(clock.remaining_ms)

    def schedule_flag(self) -> None:
        """One timer a running table, armed at the earliest moment a clock could run out.

        Most taps leave it as it is: the bound only moves later as the game goes on. A
        timer that fires before the flag (the side with less time left was not the one
        running) looks and arms itself again; once the running side has the least time
        left, it is armed at the flag's exact moment, and the server decides the flag then.
        """
        bound = self._flag_bound()
        if self._timer is not None:
            if bound is not None and self._timer_at <= bound:
                return
            self._timer.cancel()
            self._timer = None
        if bound is not None:
            self._timer_at = bound
            self._timer = self.time.call_at(bound, self._flag_due)

    def _flag_due(self) -> None:
        self._timer = None
        self._flagging = asyncio.get_running_loop().create_task(self._flag())

    async def _flag(self) -> None:
        with contextlib.suppress(RuleError):  # a read-only table: the EO decides
            await self.execute(c.Role.SYSTEM, "", 0, c.FlagCheck())
        if self._timer is None:
            self.schedule_flag()  # it fired before any flag: look again at the next bound

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._flagging is not None and not self._flagging.done():
            self._flagging.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flagging
        self._flagging = None

    # -- what subscribers see ---------------------------------------------------

    def snapshot(self, role: str) -> dict[str, Any]:
        now = self.time.now_ms()
        return {
            "t": "state",
            "v": self.version,
            "role": role,
            "table": table_info(self.table_id, self.game),
            "game": game_view(self.game, now),
            "server_ms": now,
        }

    def join(self, subscriber: Subscriber, last_version: int | None) -> None:
        """Subscribe; send the missed events if we still have them, else a snapshot."""
        missed = self._missed_since(last_version)
        if missed is not None and len(missed) > subscriber.queue.maxsize // 2:
            missed = None  # a snapshot is smaller than a long catch-up
        if missed is None:
            subscriber.offer(dumps(self.snapshot(subscriber.role)))
        else:
            for text in missed:
                subscriber.offer(text)
        self.channel.join(subscriber)

    def _missed_since(self, last_version: int | None) -> list[str] | None:
        if last_version is None or last_version > self.version:
            return None
        if last_version == self.version:
            return []
        if not self.history or self.history[0][0] > last_version + 1:
            return None
        return [text for version, text in self.history if version > last_version]

    def leave(self, subscriber: Subscriber) -> None:
        self.channel.leave(subscriber)
