"""The DC8 round end: at the round's expected end time every unfinished game is checked
(play on under 5 minutes combined, else a tie; DC10's dice down), once.

Every worker keeps a timer for every running round, so the round ends on time whichever
worker started it and whichever is still alive. The first to claim the round's end in
the store calls it; the others look again a little later, and call it themselves if the
claim lapsed with its worker before the calls were written. A call that fails at a table
(its worker gone, the disk refusing) leaves the tables it ended as they are, lets go of
its claim, and is made again, by the timer a moment later or by the EO at once; the calls
then written name those tables with what the failed call called there (the round's end
is the only one to log a tie or dice down for the server: read back from their logs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from app.domain import commands as c
from app.domain.errors import RuleError, ServerTrouble
from app.domain.game import Game, Phase
from app.domain.tournament import RoundEndCall, round_end_call
from app.events.base import pairings_of
from app.events.book import EventBook
from app.events.every_table import at_every_table
from app.store.models import RoundEntry
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.room import TableRoom
from app.tables.timesource import TimeSource

log = logging.getLogger(__name__)

#: A claim on a round's end lapses after this long without its calls written.
CLAIM_LAPSES_MS = 30_000
#: A worker that found the round's end claimed by another looks again after this long.
LOOK_AGAIN_MS = 5_000


def round_end_now(game: Game, now_ms: int) -> RoundEndCall:
    """What the round's end calls for a game still in play at `now_ms`, as its format's
    rules say: DC10's dice down for a table on Classic Turn Timing, else DC8. The
    round's end and the EO's preview of it both ask this, so they cannot disagree."""
    if game.timer is not None:
        return RoundEndCall.DICE_DOWN
    remaining = (
        max(0, game.remaining(game.active, now_ms)),
        max(0, game.remaining(game.active.other, now_ms)),
    )
    ran_out = game.phase is Phase.CLOCK_OUT or min(remaining) == 0
    return round_end_call(remaining, game.paused_by_eo, clock_ran_out=ran_out, rules=game.format)


#: What the round's end logs at a table, and the call each is.
_CALLS = {"call_tie": RoundEndCall.TIE, "dice_down": RoundEndCall.DICE_DOWN}


def called_before(room: TableRoom) -> RoundEndCall | None:
    """The round's end call this table's log holds, if any: the server's tie or dice down
    (a table is one round's, and only the round's end logs those for the server; read back
    from the store, only when a call is made again)."""
    for entry in reversed(room.store.log(room.table_id)):
        if entry.actor == "system":
            call = _CALLS.get(json.loads(entry.command_json).get("c"))
            if call is not None:
                return call
    return None


class RoundEndBusy(RuleError):
    """Another worker is calling this round's end right now."""

    code = "busy"


class RoundEnds:
    """DC8's call at a running round's end, and the timer that makes it on time."""

    def __init__(
        self, book: EventBook, hub: TableHub, placement: Placement, time: TimeSource
    ) -> None:
        self.book = book
        self.hub = hub
        self.placement = placement
        self.time = time
        #: Each running round's timer, by event.
        self.timers: dict[str, asyncio.Task[None]] = {}

    # -- the timers ------------------------------------------------------------------

    def start_timers(self) -> None:
        with self.book.read() as repo:
            running = repo.running_rounds()
        for entry in running:
            self.schedule(entry)

    def follow(self, event_id: str) -> None:
        """Another worker changed the event: keep a timer for its round if it runs."""
        entry = self.book.current_round(event_id)
        if entry is None or entry.expected_end_ms is None or entry.end_calls_json is not None:
            old = self.timers.pop(event_id, None)
            if old is not None:
                old.cancel()
            return
        self.schedule(entry)

    def schedule(self, entry: RoundEntry) -> None:
        """The round's timer, at its expected end (none while it has none)."""
        old = self.timers.pop(entry.event_id, None)
        if old is not None:
            old.cancel()
        if entry.expected_end_ms is not None:
            self.timers[entry.event_id] = asyncio.get_running_loop().create_task(
                self._when_due(entry.event_id, entry.expected_end_ms)
            )

    async def _when_due(self, event_id: str, at_ms: int) -> None:
        while True:
            await self.time.sleep_until(at_ms)
            entry = self.book.current_round(event_id)
            if entry is None or entry.expected_end_ms is None or entry.end_calls_json is not None:
                return  # called already (here, by the EO or by another worker)
            now = self.time.now_ms()
            if entry.expected_end_ms > now:  # moved later meanwhile
                at_ms = entry.expected_end_ms
                continue
            try:
                await self.call(event_id)
                return
            except RoundEndBusy:
                at_ms = now + LOOK_AGAIN_MS
            except ServerTrouble:  # a table could not be reached: called again in a moment,
                # and the tables this call ended are answered with what it called there
                log.exception("the round's end could not be called at every table of %s", event_id)
                at_ms = now + LOOK_AGAIN_MS

    async def close(self) -> None:
        for task in self.timers.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.timers.clear()

    # -- the call ----------------------------------------------------------------------

    async def _end_call(
        self, room: TableRoom, now: int, retried: bool = False
    ) -> RoundEndCall | None:
        """DC8 for one table still in play (None: its game is over). `retried`: a call came
        before this one and did not finish: a game it ended is answered with what it called
        there."""
        if room.game.phase is Phase.OVER:
            return called_before(room) if retried else None
        if room.broken is None:  # a clock that ran out by now is decided first (DC7)
            await self.placement.execute(room, c.Role.SYSTEM, "", 0, c.FlagCheck())
        game = room.game
        if game.phase is Phase.OVER:
            return None
        call = round_end_now(game, now)
        if call is RoundEndCall.DICE_DOWN:  # DC10: the round time is up
            await self.placement.execute(room, c.Role.SYSTEM, "", 0, c.DiceDown())
            return call
        if call is RoundEndCall.TIE:
            await self.placement.execute(room, c.Role.SYSTEM, "", 0, c.CallTie())
        return call

    async def call(self, event_id: str) -> dict[str, str]:
        """DC8 at the round's end time: play on under 5 minutes combined, else a tie.
        Called once: a second call answers what the first decided."""
        self.book.require(event_id, "rounds")
        entry = self.book.current_round(event_id)
        if entry is None or entry.expected_end_ms is None:
            raise RuleError("no round is running")
        if entry.end_calls_json is not None:
            calls: dict[str, str] = json.loads(entry.end_calls_json)
            return calls
        now = self.time.now_ms()
        # A call came before this one and did not finish (it failed at a table, or its
        # worker died): the games it ended are read back from their logs.
        retried = entry.end_claimed_ms is not None
        with self.book.unit() as repo:
            claimed = repo.claim_round_end(entry, now, now - CLAIM_LAPSES_MS)
        if not claimed:
            again = self.book.current_round(event_id)
            if again is not None and again.end_calls_json is not None:
                calls = json.loads(again.end_calls_json)
                return calls
            raise RoundEndBusy("the round's end is being called right now; look again in a moment")
        rooms = [self.hub.get(row.table_id or "") for row in pairings_of(entry)]
        playing = [room for room in rooms if room is not None]
        try:
            ended = await at_every_table(playing, lambda room: self._end_call(room, now, retried))
        except Exception as failure:
            with self.book.unit() as repo:  # the next call need not wait for the claim
                repo.release_round_end(entry, now)
            if isinstance(failure, RuleError):
                raise
            raise ServerTrouble(
                "the round's end could not reach every table; call it again in a moment: "
                "the tables it has called stay called"
            ) from failure
        calls = {
            room.table_id: call.value
            for room, call in zip(playing, ended, strict=True)
            if call is not None
        }
        with self.book.unit() as repo:
            entry.end_calls_json = json.dumps(calls)
            repo.add(
                entry, self.book.action(event_id, "round_end", round=entry.number, calls=calls)
            )
        self.book.changed(event_id)
        return calls
