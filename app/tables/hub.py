"""All live tables of this server, rebuilt from the store on start."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from app.domain import commands as c
from app.domain.errors import RuleError
from app.domain.formats import MINUTE_MS
from app.domain.game import Setup
from app.store.log_entry import LogEntry
from app.store.models import TableRecord, TableSnapshot
from app.store.repository import Store
from app.store.tails import Tail, table_tails
from app.tables.engine import Engine
from app.tables.engines import engine_for
from app.tables.fanout import Broadcast, MemoryBroadcast
from app.tables.placement import Alone, Placement
from app.tables.quick import QuickGame
from app.tables.reads import BatchedReads
from app.tables.room import TableMeta, TableRoom, Tokens, server_dice
from app.tables.seats import Ack
from app.tables.timesource import TimeSource

IDLE_MS = 60 * MINUTE_MS  # a quick game untouched this long (clock stopped) leaves memory
SWEEP_MS = MINUTE_MS
LOAD_BATCH = 50  # quick games read at a time after a start (see `load_later`)
log_error = logging.getLogger(__name__)


class Sharing(Protocol):
    """The hub's tables kept by other processes too (several workers: app.cluster): told
    of each table the hub holds, opens or discards, and asked to bring a table read from
    the store up to date."""

    def attach(self, room: TableRoom) -> None: ...

    def opened(self, room: TableRoom) -> None: ...

    def discarded(self, table_id: str) -> None: ...

    async def read_back(self, room: TableRoom) -> None: ...


def new_token() -> str:
    """192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_id() -> str:
    """A table's or an event's id: 128 random bits (32 hex digits), too many to guess.

    The id is in every link; it is not a secret like a token (the EO's table list shows
    it), but nobody finds tables by counting through the ids."""
    return secrets.token_hex(16)


class TableHub:
    def __init__(
        self,
        store: Store,
        time: TimeSource,
        rng: random.Random | None = None,
        broadcast: Broadcast | None = None,
    ) -> None:
        self.store = store
        self.time = time
        self.rng = rng or random.Random()
        self.broadcast = broadcast or MemoryBroadcast()
        self.rooms: dict[str, TableRoom] = {}
        #: Tables let go of since the start (what they leave behind waits for a full walk
        #: of the collector's: app.collector).
        self.released = 0
        self.listeners: list[Callable[[TableRoom], None]] = []
        #: Several workers: the others keep these tables too (None: this process alone).
        self.sharing: Sharing | None = None
        #: Where the tables' commands are applied (several workers: app.cluster sets it):
        #: the rooms' flag timers send their checks there.
        self.placement: Placement = Alone()
        #: Each table's dice (starting rolls, scenario rolls): the server's own.
        self.dice: Callable[[], random.Random] = server_dice
        #: Quick games in play that a start left for `load_later` (or their first socket).
        self.later: set[str] = set()
        #: Sockets waiting for a table of `later`: it comes in `load_later`'s next batch.
        self._wanted: dict[str, asyncio.Future[None]] = {}
        self._loading_later = False
        #: Tables (and the moves after them) that sockets want at once, read together.
        engine = store.engine
        self._tails: BatchedReads[str, None, Tail | None] = BatchedReads(
            lambda asked: table_tails(engine, list(asked))
        )

    def _register(self, room: TableRoom) -> TableRoom:
        self.later.discard(room.table_id)
        room.listeners = self.listeners
        room.dice = self.dice()
        room.flags.check = functools.partial(self._flag_check, room)
        self.rooms[room.table_id] = room
        if self.sharing is not None:
            self.sharing.attach(room)
        return room

    def _room_from(
        self,
        record: TableRecord,
        log: list[LogEntry],
        snapshot: TableSnapshot | None = None,
    ) -> TableRoom:
        """The table as its store has it: from its snapshot and the log after it, or
        (no snapshot, or one that does not fit) from its whole log."""
        room = self._blank(record)
        if snapshot is not None:
            try:
                room.restore(snapshot, log)
                return self._register(room)
            except (RuleError, ValueError, KeyError, TypeError) as exc:
                log_error.warning("table %s: replaying its whole log (%s)", record.id, exc)
                room, log = self._blank(record), self.store.log(record.id)
        room.replay(log)
        if room.broken is not None:
            log_error.error("table %s is read-only: %s", record.id, room.broken)
        return self._register(room)

    async def _flag_check(self, room: TableRoom) -> Ack:
        """A room's flag timer: the flag is decided where the table is applied."""
        return await self.placement.execute(room, c.Role.SYSTEM, "", 0, c.FlagCheck())

    def _blank(self, record: TableRecord) -> TableRoom:
        engine = engine_for(record.format_id)
        setup = engine.setup_of(record.model_dump())
        tokens = Tokens(record.p1_token, record.p2_token, record.watch_token, record.admin_token)
        meta = None
        if record.event_id is not None:
            meta = TableMeta(
                event_id=record.event_id,
                round_number=record.round_number or 0,
                table_no=record.table_no or 0,
                p1_player=record.p1_player or "",
                p2_player=record.p2_player or "",
            )
        game = engine.new_game(setup, record.created_ms, self.rng)
        return self._room(record.id, tokens, game, meta, engine)

    def _room(
        self, table_id: str, tokens: Tokens, game: Any, meta: TableMeta | None, engine: Engine
    ) -> TableRoom:
        return TableRoom(
            table_id,
            tokens,
            game,
            self.store,
            self.time,
            meta=meta,
            broadcast=self.broadcast,
            engine=engine,
        )

    def load(self, events_only: bool = False, later: bool = False) -> int:
        """Rebuild every live table from the store; running clocks have kept running.

        Quick games that are over stay in the store until someone opens them (`get`);
        `events_only` (one of several workers): quick games too, until a phone opens
        one or this worker takes one over. `later`: the quick games in play are only
        listed, for `load_later`, so that the server answers sooner after a restart;
        a socket or a request for one of them reads it at once (`open`, `get`).
        """
        if later and not events_only:
            self.later.update(self.store.live_quick_ids())
        for record, log in self.store.tables(live_only=True, events_only=events_only or later):
            self._room_from(record, log)
        return len(self.rooms)

    async def load_later(self, batch: int = LOAD_BATCH) -> int:
        """Read the quick games `load(later=True)` left, `batch` at a time, building each
        batch's tables and arming their flag timers (DC7), and serving the sockets between
        batches. The tables sockets are waiting for come first (`open`); one read
        meanwhile otherwise (`get`) is not read again. How many this read."""
        loaded = 0
        self._loading_later = True
        try:
            while self.later:
                wanted = [t for t in self._wanted if t in self.later][:batch]
                rest = itertools.islice(self.later - set(wanted), batch - len(wanted))
                ids = [*wanted, *rest]
                # One query a batch, on the loop: short, and no thread wakes per table.
                for record, log in self.store.tables(ids=ids):
                    if record.id in self.later:
                        self._room_from(record, log).schedule_flag()
                        loaded += 1
                self.later.difference_update(ids)
                self._answer_wanted(ids)
                await asyncio.sleep(0)
        finally:
            self._loading_later = False
            self._answer_wanted(list(self._wanted))
        return loaded

    def _answer_wanted(self, ids: list[str]) -> None:
        for table_id in ids:
            waiter = self._wanted.pop(table_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

    def unload_idle(self, idle_ms: int = IDLE_MS) -> int:
        """Let go of quick games nobody has open that need no timer: games that are over
        at once, others once nothing has happened for `idle_ms`. Event tables stay (the
        dashboard and the standings read them). Everything is in the store already, and
        `get` reads a table back, dedupe memory included, when a phone opens it again.
        """
        now = self.time.now_ms()
        gone = [room for room in self.rooms.values() if self._idle(room, now, idle_ms)]
        for room in gone:
            self.let_go(room.table_id)
        return len(gone)

    def left(self, room: TableRoom) -> None:
        """A screen closed: a quick game that is over goes as soon as nobody has it open."""
        now = self.time.now_ms()
        if self.rooms.get(room.table_id) is room and self._idle(room, now, IDLE_MS):
            self.let_go(room.table_id)

    def let_go(self, table_id: str) -> None:
        """Forget a table here (the store keeps it): `get` reads it back when it is wanted."""
        if self.rooms.pop(table_id, None) is not None:
            self.released += 1
        self.broadcast.forget(f"table:{table_id}")

    @staticmethod
    def _idle(room: TableRoom, now_ms: int, idle_ms: int) -> bool:
        return (
            room.meta is None
            and not room.channel.subscribers
            and not room.lock.locked()
            and not room.engine.pending(room.game)
            and (room.engine.over(room.game) or now_ms - room.last_change_ms >= idle_ms)
        )

    async def unload_forever(self, every_ms: int = SWEEP_MS) -> None:
        while True:
            await self.time.sleep_until(self.time.now_ms() + every_ms)
            self.unload_idle()

    def start_timers(self) -> None:
        for room in self.rooms.values():
            room.schedule_flag()

    def create(self, quick: QuickGame) -> TableRoom:
        return self.open_table(engine_for(quick.format_id).quick_setup(quick, self.rng))

    def open_table(self, setup: Setup | Any, meta: TableMeta | None = None) -> TableRoom:
        """A new table for `setup`, on the engine its format names."""
        return self.open_tables([(setup, meta)])[0]

    def open_tables(
        self, tables: Sequence[tuple[Setup | Any, TableMeta | None]]
    ) -> list[TableRoom]:
        """A new table for each (setup, meta), in order: a round's tables at once. Their ids
        are checked in one query and their rows written in one transaction, so the loop
        waits on the database twice, not twice a table: on PostgreSQL, a round of 128
        tables opened one by one held every other table of the worker for half a second."""
        if not tables:
            return []
        now = self.time.now_ms()
        made = []
        for table_id, (setup, meta) in zip(self._new_ids(len(tables)), tables, strict=True):
            engine = engine_for(setup.format_id)
            game = engine.new_game(setup, now, self.rng)
            made.append((table_id, Tokens(*(new_token() for _ in range(4))), game, meta, engine))
        self.store.add_tables(
            [
                TableRecord(
                    id=table_id,
                    created_ms=now,
                    **engine.record(game.setup),
                    p1_token=tokens.p1,
                    p2_token=tokens.p2,
                    watch_token=tokens.watch,
                    admin_token=tokens.eo,
                    event_id=meta.event_id if meta else None,
                    round_number=meta.round_number if meta else None,
                    table_no=meta.table_no if meta else None,
                    p1_player=meta.p1_player if meta else None,
                    p2_player=meta.p2_player if meta else None,
                )
                for table_id, tokens, game, meta, engine in made
            ]
        )
        rooms = []
        for table_id, tokens, game, meta, engine in made:
            room = self._register(self._room(table_id, tokens, game, meta, engine))
            if self.sharing is not None:
                self.sharing.opened(room)
            rooms.append(room)
        return rooms

    def _new_ids(self, count: int) -> list[str]:
        """`count` ids no table has, in memory or in the store (128 random bits each: a
        clash is not expected, but it is checked, for them all in one query)."""
        ids: list[str] = []
        while len(ids) < count:
            drawn = [new_id() for _ in range(count - len(ids))]
            taken = self.store.taken_ids(drawn)
            for table_id in drawn:
                if table_id not in taken and table_id not in self.rooms and table_id not in ids:
                    ids.append(table_id)
        return ids

    def discard(self, table_id: str) -> None:
        room = self.rooms.get(table_id)
        if room is not None and room.version > 0:
            raise RuleError("a table whose game has begun cannot be removed")
        self.let_go(table_id)
        self.later.discard(table_id)
        self.store.delete_table(table_id)
        if self.sharing is not None:
            self.sharing.discarded(table_id)

    def event_tables(self, event_id: str) -> list[TableRoom]:
        return [r for r in self.rooms.values() if r.meta and r.meta.event_id == event_id]

    def get(self, table_id: str) -> TableRoom | None:
        """A live table, or one read back from the store (a quick game over or idle)."""
        room = self.rooms.get(table_id)
        if room is None:
            found = self.store.table_tail(table_id)
            if found is not None:
                room = self._from_tail(*found)
        return room

    async def open(self, table_id: str) -> TableRoom | None:
        """`get` for a socket: a table not in memory is read from the store on a thread.
        With several workers every phone may reach one that has not loaded its table yet
        (after the hall's Wi-Fi restarts, hundreds at once): the reads must not stall the
        worker's loop."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if table_id in self.later and self._loading_later:  # after a start: see load_later
            waiter = self._wanted.get(table_id)
            if waiter is None:
                waiter = self._wanted[table_id] = asyncio.get_running_loop().create_future()
            await asyncio.shield(waiter)
            room = self.rooms.get(table_id)
            if room is not None:
                return room
        found = await self._tails.read(table_id, None)
        room = self.rooms.get(table_id)  # read meanwhile for another socket
        if room is not None or found is None:
            return room
        room = self._from_tail(*found)
        if self.sharing is not None:
            await self.sharing.read_back(room)
        return room

    def _from_tail(
        self, record: TableRecord, snapshot: TableSnapshot | None, tail: list[LogEntry]
    ) -> TableRoom:
        room = self._room_from(record, tail, snapshot)
        if room.engine.pending(room.game):
            room.schedule_flag()
        return room

    async def close(self) -> None:
        self._tails.close()
        for room in self.rooms.values():
            await room.close()
