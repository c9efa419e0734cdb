"""One table as its log made it: the game at each version, what each phone last had, and
what a merge needs; rebuilt from the log or from a snapshot and the log after it."""

from __future__ import annotations

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.frozen import replace
from app.domain.game import Game
from app.store.log_entry import LogEntry
from app.store.models import TableSnapshot
from app.store.repository import Store
from app.tables.dedupe import Dedupe, seat_link
from app.tables.engine import Engine
from app.tables.history import History
from app.tables.jsontext import loads
from app.tables.offline import Decision, Gap, Presence, Presences, device_key, merged_items
from app.tables.replay import eo_results, fold
from app.tables.seats import TableMeta, Tokens
from app.tables.timeline import Timeline
from app.tables.timesource import TimeSource
from app.tables.warmachine.engine import WARMACHINE


class Table:
    def __init__(
        self,
        table_id: str,
        tokens: Tokens,
        game: Game,
        store: Store,
        time: TimeSource,
        version: int = 0,
        meta: TableMeta | None = None,
        engine: Engine | None = None,
    ) -> None:
        #: The table engine the game runs on (its format names it).
        self.engine = engine or WARMACHINE
        self.table_id = table_id
        self.meta = meta
        self.tokens = tokens
        self.game = game
        self.initial = game
        self.version = version
        self.store = store
        self.time = time
        self.history = History()
        self.dedupe = Dedupe()
        self.presences = Presences()
        self.timeline = Timeline(time.now_ms() if version else 0)  # 0: nothing counted yet
        #: The table as loaded (a phone the log knows, not heard since, was gone since).
        self.loaded = Presence(time.now_ms(), version, game)
        #: The last decision: a merge starts after it.
        self.decided = Decision(version, time.now_ms(), game)
        self.broken: str | None = None
        self.merge_refused = False
        self.snapshot_version = version
        #: The status and result in the store (None: write them again when they change).
        self.stored: tuple[str, str | None] | None = None
        self.last_change_ms = time.now_ms()
        #: The token the store's writes of this table carry (None: no fencing); and
        #: whether this copy only follows a log another process writes (it applies
        #: nothing itself, and its flag timer waits).
        self.fence: int | None = None
        self.follows = False

    # -- rebuilding from the log ------------------------------------------------

    def replay(self, log: list[LogEntry]) -> None:
        """Rebuild from the log; a log that does not replay leaves the table read-only."""
        self.timeline = Timeline()
        try:
            self.replay_from(self.game, 0, log)
        except (RuleError, ValueError, KeyError) as exc:
            self.broken = f"this table's log does not replay: {exc}"
            self.version = log[-1].version if log else 0
            self.game = eo_results(self.game, log)

    def restore(self, snapshot: TableSnapshot, tail: list[LogEntry]) -> None:
        """Rebuild from a snapshot and the log after it (ValueError, KeyError: it does not
        fit, rebuild from the whole log instead)."""
        game = self.engine.read(loads(snapshot.game_json))
        game = replace(game, setup=self.game.setup)  # names the EO corrected since
        self.dedupe.restore({k: int(v) for k, v in loads(snapshot.seqs_json).items()})
        self.decided = Decision(snapshot.version, snapshot.at_ms, game)
        self.timeline = Timeline(snapshot.at_ms)
        self.snapshot_version = snapshot.version
        self.replay_from(game, snapshot.version, tail)

    def replay_from(self, game: Game, first: int, log: list[LogEntry]) -> None:
        """Play `log` on `game`, the game at version `first`."""
        states = fold(game, log, first, self.engine)
        self.game = states[-1]
        self.version = log[-1].version if log else first
        self.loaded = Presence(self.time.now_ms(), self.version, self.game)
        for entry in log:
            before, after = states[entry.version - first - 1], states[entry.version - first]
            link = seat_link(self.engine.side_of, before, entry.actor)
            self.dedupe.remember(device_key(link, entry.device), entry.seq, entry.version)
            wire = loads(entry.command_json)
            self.timeline.took(entry, wire)
            for sub in merged_items(wire) if wire.get("c") == "merge" else []:
                link = seat_link(self.engine.side_of, after, sub["by"])
                self.dedupe.remember(device_key(link, sub["device"]), sub["seq"], entry.version)
            if self.engine.decides(entry.actor, after):
                self.decided = Decision(entry.version, entry.at_ms, after)

    def game_at(self, version: int) -> Game:
        """The game at an earlier version, rebuilt from the log."""
        if version == self.version:
            return self.game
        log = self.store.log(self.table_id, limit=version)
        return fold(self.initial, log, 0, self.engine)[-1]  # type: ignore[no-any-return]

    # -- where each phone stands ------------------------------------------------

    def heard(self, phone: str) -> None:
        """A message came from this phone: it had the table as it is now."""
        self.presences.heard(phone, self.time.now_ms(), self.version, self.game)

    def arrive(self, phone: str) -> Gap | None:
        """A socket of this phone (its seat and device) said hello: how long it was gone,
        from what. A phone the log knows and this process never heard was gone since load."""
        known = self.loaded if phone in self.dedupe else None
        return self.presences.arrive(phone, self.time.now_ms(), self.version, self.game, known)

    # -- who a link's commands come from ----------------------------------------

    def read_only(self, command: object = None) -> None:
        """A table whose log does not replay takes nothing but the EO's result."""
        if self.broken is not None and not isinstance(command, c.RecordResult):
            raise RuleError(f"this table is read-only ({self.broken}); the EO decides")

    def actor_for(self, role: str) -> c.Actor:
        """Who a link's commands come from: a seat's side follows the pre-game's choice
        of who goes first (P1); the EO is the EO, a watch link the watcher (refused all)."""
        if role in ("eo", "watch"):
            return c.Role(role)
        return self.engine.side_of(self.game, Side.parse(role))

    def link_of(self, actor: str) -> str:
        """The link a side's commands come from now (`actor_for` the other way round)."""
        return seat_link(self.engine.side_of, self.game, actor)
