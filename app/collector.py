"""The garbage collector, paced by the server rather than by allocation counts.

CPython starts a young collection when allocations outnumber frees by 700. A socket
server frees about as much as it allocates (each message frees the previous wait's
objects and makes the next), so that count rarely moves: young collections come seldom
and then walk tens of thousands of live objects, a pause of 30-80 ms on a small machine,
felt by every tap in flight. Paced instead, the young objects are collected every 50 ms
(well under a millisecond), and what outlives that is frozen at once (moved out of the
collector's generations, `gc.freeze`): nearly all of it dies by reference count anyway,
and a phone's socket leaves a few objects behind at each message that live until its next
one, seconds later. CPython's middle generation walked those again every 250 ms, 5-7 ms
each time at 5,000 tables on two workers (a stall that every tap in flight felt), and
never found a cycle. The oldest objects, the frozen ones included, are walked only when
garbage cycles can have piled up there: when what the server has let go of since the last
walk (tables unloaded: each leaves its cycles behind, frozen with it; a socket that closes
leaves none, app.sockets) comes to a quarter of what it holds now (sockets open, tables in
memory),
`FULL_AFTER_RELEASE` at least, and at least every half hour. A walk costs what the server
holds: about a second at 2,500 tables and 5,000 sockets a worker, and every tap in flight
waits for it; by the quarter, its cost is paid for by the garbage it can find, as
CPython's own rule for its oldest generation has it. Sockets that open are not counted: a
round begins with every phone of the hall joining, and each walk after it found 0.1-2 %
of what it walked (a handshake's cycles die young, and the young collections take them).
The walk waits until no socket has opened or closed for `QUIET_MS`: when the hall's Wi-Fi
restarts, every phone drops and comes back within a second or two, and the walk comes
once they are back rather than several times while they reconnect. A steady trickle of
sockets puts it off `MAX_DEFER_MS` at most. While they come back in a crowd (`CROWD`
sockets or more in a tick) the young collections wait too: every one of them would walk
all the new sockets' objects, a pause of a tenth of a second each just when every table
is to be served again. Once the crowd is in (no crowded tick for `CROWD_CALM_MS`: a busy
server counts the sockets it took in bursts, with quiet ticks between), and every
`CROWD_DEFER_MS` while it keeps coming, what came in with it is frozen without a walk
(`FREEZE`): the new sockets' objects are alive, and a handshake leaves no cycle
(app.sockets), so that walk found nothing, after a pause of 170-230 ms for 2,000 phones
(bench.herd); what little a crowd did leave is the next full walk's. A start is such a
crowd: the phones that lost the server come back at once, and the tables are read
meanwhile. What the server loads at start is frozen at once (see main.py); a full walk
takes it in too (about 100,000 objects, 50 ms here).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

YOUNG_EVERY_MS = 50
FULL_EVERY_MS = 30 * 60_000
FULL_AFTER_RELEASE = 1000
RELEASE_SHARE = 0.25  # of what the server holds
QUIET_MS = 1000
MAX_DEFER_MS = 30_000
SLOW_MS = 100  # a collection this long is logged: every tap in flight waited for it
CROWD = 20  # sockets opened or closed in one tick
CROWD_DEFER_MS = 2_000
CROWD_CALM_MS = 500  # no crowded tick for so long: the crowd is in
FREEZE = -1  # `Pace.generation`'s answer once a crowd is in: freeze it, walk nothing


@dataclass(frozen=True, slots=True)
class Census:
    """What the server's sockets and tables come to, as the pace reads it at a tick."""

    churn: int = 0  # sockets opened plus sockets closed since the start
    released: int = 0  # what was let go since the start that leaves cycles: tables
    held: int = 0  # sockets open and tables in memory now


class Pace:
    """Which generation to collect at each tick (pure: ticks and counts come in)."""

    def __init__(
        self,
        now_ms: int,
        full_every_ms: int = FULL_EVERY_MS,
        full_after_release: int = FULL_AFTER_RELEASE,
        release_share: float = RELEASE_SHARE,
        quiet_ms: int = QUIET_MS,
        max_defer_ms: int = MAX_DEFER_MS,
        crowd: int | None = None,
        crowd_defer_ms: int = CROWD_DEFER_MS,
        crowd_calm_ms: int = CROWD_CALM_MS,
    ) -> None:
        self.full_every_ms = full_every_ms
        self.full_after_release = full_after_release
        self.release_share = release_share
        self.quiet_ms = quiet_ms
        self.max_defer_ms = max_defer_ms
        self.last_full_ms = now_ms
        self.released_at_last_full = 0
        self.churn_seen = 0
        self.last_churn_ms = now_ms
        self.released_since_ms: int | None = None  # when enough had been let go
        self.crowd = crowd
        self.crowd_defer_ms = crowd_defer_ms
        self.crowd_since_ms: int | None = None  # young collections wait since then
        self.crowd_calm_ms = crowd_calm_ms
        self.last_crowd_ms = now_ms
        self.started_ms = now_ms

    def generation(self, now_ms: int, census: Census) -> int | None:
        """The generation to collect now, given what the server's sockets and tables come
        to (None: none now, a crowd of sockets is coming in; `FREEZE`: the crowd is in)."""
        socket_churn = census.churn
        crowded = self.crowd is not None and (
            socket_churn - self.churn_seen >= self.crowd
            or now_ms - self.started_ms < self.crowd_defer_ms
        )
        if socket_churn != self.churn_seen:
            self.churn_seen, self.last_churn_ms = socket_churn, now_ms
        if self._full_due(now_ms, census):
            self.last_full_ms = now_ms
            self.released_at_last_full = census.released
            self.released_since_ms = None
            return 2
        if crowded:
            self.last_crowd_ms = now_ms
            if self.crowd_since_ms is None:
                self.crowd_since_ms = now_ms
        if self.crowd_since_ms is None:
            return 0
        calm = now_ms - self.last_crowd_ms >= self.crowd_calm_ms
        if calm or now_ms - self.crowd_since_ms >= self.crowd_defer_ms:
            # The crowd is in, or has come for CROWD_DEFER_MS: what came with it is alive.
            self.crowd_since_ms = None if calm else now_ms
            return FREEZE
        return None

    def _full_due(self, now_ms: int, census: Census) -> bool:
        if now_ms - self.last_full_ms >= self.full_every_ms:
            return True
        enough = max(self.full_after_release, self.release_share * census.held)
        if census.released - self.released_at_last_full < enough:
            return False
        if self.released_since_ms is None:
            self.released_since_ms = now_ms
        return (
            now_ms - self.last_churn_ms >= self.quiet_ms
            or now_ms - self.released_since_ms >= self.max_defer_ms
        )


async def pace_collector(
    now_ms: Callable[[], int],
    census: Callable[[], Census],
    every_ms: int = YOUNG_EVERY_MS,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    crowd: int | None = None,
) -> None:
    """Collect on `Pace`'s schedule until cancelled; CPython's own trigger is off meanwhile.
    What a young collection leaves is frozen; a full one walks the frozen too."""
    pace = Pace(now_ms(), crowd=crowd)
    gc.disable()
    try:
        while True:
            await sleep(every_ms / 1000)
            generation = pace.generation(now_ms(), census())
            if generation is None:
                continue
            if generation == FREEZE:
                gc.freeze()
                continue
            began, began_cpu = time.perf_counter(), time.thread_time()
            if generation == 2:
                gc.unfreeze()
            found = gc.collect(generation)
            gc.freeze()
            took_ms = (time.perf_counter() - began) * 1000
            if took_ms >= SLOW_MS:
                log.warning(
                    "garbage collection (generation %d) took %.0f ms (%.0f ms of CPU), "
                    "%d unreachable",
                    generation,
                    took_ms,
                    (time.thread_time() - began_cpu) * 1000,
                    found,
                )
    finally:
        gc.unfreeze()
        gc.enable()
