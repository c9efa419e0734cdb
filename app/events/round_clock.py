"""The round's expected end (DC4), counted from the tables.

Each table's clocks start when its first player begins deployment, after the table's
pre-game off the clock (the starting roll and who goes first; with the pre-game on the
phones, lists and sides too), not when the EO starts the round. The round's expected
end is recorded once every table has begun: the last table's deployment start plus
both player clocks (the round's length under Classic Turn Timing). A table that began
earlier has its own time up before then, so the round's end (DC8) never ties a game for
time it spent in its pre-game. Until the last table begins, the round has no end time.

Every worker sees every table of the event (its own, and the others' it follows), so
each watches the tables yet to begin and records the end once the last has; the end
is the same whichever worker records it.
"""

from __future__ import annotations

import asyncio

from app.domain import variants
from app.domain.errors import RuleError
from app.domain.formats import get_format
from app.domain.game import Game, Phase
from app.domain.tournament import last_deployment
from app.events.base import event_clock_ms, event_variants, pairings_of
from app.events.book import EventBook
from app.events.round_end import RoundEnds
from app.store.models import EventRecord, RoundEntry
from app.tables.hub import TableHub
from app.tables.room import TableRoom
from app.tables.timesource import TimeSource


def _deployment(game: object) -> tuple[bool, int | None]:
    """(whether the table is yet to begin, the moment it began deployment)."""
    if not isinstance(game, Game):
        return False, None
    if game.deployed_ms is None and game.phase is Phase.READY:
        return True, None
    return False, game.deployed_ms


class RoundClock:
    """A started round's expected end, set once its last table has begun (DC4), and
    DC8's call when the EO makes it."""

    def __init__(self, book: EventBook, hub: TableHub, time: TimeSource, ends: RoundEnds) -> None:
        self.book = book
        self.hub = hub
        self.time = time
        self.ends = ends
        #: For each event whose round waits on its tables: the tables yet to begin.
        self._undeployed: dict[str, set[str]] = {}
        hub.listeners.append(self._table_moved)

    def end_at(self, event: EventRecord, start_ms: int) -> int | None:
        """When a round whose time counts from `start_ms` ends: both player clocks
        (DC4), the round's length under Classic Turn Timing, never when untimed."""
        fmt = get_format(event.format_id)
        chosen = variants.parse(event_variants(event), fmt.variants, fmt.name)
        return variants.round_end_ms(start_ms, event.points, chosen, event_clock_ms(event))

    def round_started(self, entry: RoundEntry) -> None:
        """A round started: its end waits on its tables (a timer it had goes)."""
        self.ends.schedule(entry)
        self.await_deployment(entry)

    # -- waiting on the tables ---------------------------------------------------------

    def await_deployment(self, entry: RoundEntry) -> None:
        """Record the round's end if every table of it has begun deployment; else watch
        the tables that have not."""
        event_id = entry.event_id
        self._undeployed.pop(event_id, None)
        event = self.book.event(event_id)
        if self.end_at(event, 0) is None:
            return  # the games are untimed
        waiting: set[str] = set()
        starts: list[int | None] = []
        for row in pairings_of(entry):
            room = self.hub.get(row.table_id or "")
            if room is None:
                continue
            yet, start = _deployment(room.game)
            if yet:
                waiting.add(room.table_id)
            if yet or start is not None:
                starts.append(start)
        if waiting:
            self._undeployed[event_id] = waiting
            return
        start = last_deployment(starts)
        if start is None:
            return  # every game was decided before it was played
        with self.book.unit() as repo:
            entry.expected_end_ms = self.end_at(event, start)
            repo.add(entry)
        self.ends.schedule(entry)
        self.book.changed(event_id)

    def _table_moved(self, room: TableRoom) -> None:
        """A hub listener, under the table's lock: it only marks; the round's end is
        looked at from the loop's next turn."""
        meta = room.meta
        waiting = None if meta is None else self._undeployed.get(meta.event_id)
        if meta is None or not waiting or room.table_id not in waiting:
            return
        if _deployment(room.game)[0]:
            return
        waiting.discard(room.table_id)
        if waiting:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script)
            self._deployed(meta.event_id)
        else:
            loop.call_soon(self._deployed, meta.event_id)

    def _deployed(self, event_id: str) -> None:
        entry = self._waiting_round(event_id)
        if entry is not None:
            self.await_deployment(entry)

    def _waiting_round(self, event_id: str) -> RoundEntry | None:
        """The event's round if it started and has no end time yet."""
        entry = self.book.current_round(event_id)
        if entry is None or entry.started_ms is None or entry.expected_end_ms is not None:
            return None
        return None if entry.end_calls_json is not None else entry

    # -- the round end's timers, and the call ----------------------------------------------

    def start_timers(self) -> None:
        """Every running round's timer, and every started round's wait on its tables."""
        self.ends.start_timers()
        with self.book.read() as repo:
            waiting = repo.rounds_without_end()
        for event_id in {entry.event_id for entry in waiting}:
            current = self._waiting_round(event_id)
            if current is not None:
                self.await_deployment(current)

    def follow(self, event_id: str) -> None:
        """Another worker changed the event: follow its round's timer and its wait."""
        self.ends.follow(event_id)
        entry = self._waiting_round(event_id)
        if entry is None:
            self._undeployed.pop(event_id, None)
        else:
            self.await_deployment(entry)

    async def call_end(self, event_id: str) -> dict[str, str]:
        """DC8 now, at the EO's call, once every table of the round has begun."""
        waiting = self._undeployed.get(event_id)
        if waiting:
            tables = "1 table has" if len(waiting) == 1 else f"{len(waiting)} tables have"
            raise RuleError(
                f"{tables} not begun deployment yet: the round's end is set when the "
                "last table begins"
            )
        return await self.ends.call(event_id)
