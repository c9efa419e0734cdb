"""Several workers: when a phone last spoke on any of them.

A phone's offline queue is merged within its time away: from the last message the
server had from it to its return. With several workers the phone may have spoken last
on another worker than the one it came back to (no sticky sessions; its old socket may
even still be open there). Before a merge the worker asks the others when they last
heard that phone at that table, and narrows the phone's time away to the latest
answer (or to theirs alone, where this worker only guessed it from when it loaded the
table); the game it merges on is then rebuilt from the log by the table's owner.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from app.cluster.backplane import Backplane
from app.domain.frozen import replace
from app.tables.hub import TableHub
from app.tables.offline import Gap
from app.tables.room import TableRoom

#: How long a merge waits for the other workers' answers (a dead one never answers).
ASK_S = 0.3


class Sightings:
    def __init__(self, hub: TableHub, backplane: Backplane) -> None:
        self.hub = hub
        self.backplane = backplane
        self.alive: list[str] = []
        self._ids = itertools.count(1)
        self._asked: dict[int, tuple[set[str], list[tuple[int, int]], asyncio.Event]] = {}
        backplane.handlers["seen?"] = self._on_question
        backplane.handlers["seen"] = self._on_answer

    def now_alive(self, alive: list[str]) -> None:
        """The workers alive now: a worker gone takes its screens' presence with it."""
        if set(alive) != set(self.alive):
            for room in tuple(self.hub.rooms.values()):
                room.screens.forget(alive)
        self.alive = alive

    async def narrow(self, room: TableRoom, phone: str, gap: Gap | None) -> Gap | None:
        """`gap` as this worker saw it (None: it never heard the phone before its
        return), narrowed to what every worker heard."""
        others = {w for w in self.alive if w != self.backplane.worker_id}
        if not phone or not others:
            return gap
        request = next(self._ids)
        heard: list[tuple[int, int]] = []
        answered = asyncio.Event()
        self._asked[request] = (others, heard, answered)
        question = {"k": "seen?", "id": request, "t": room.table_id, "p": phone}
        try:
            if self.backplane.send("all", question):
                await asyncio.wait_for(answered.wait(), ASK_S)
        except TimeoutError:
            pass  # what the others said in time
        finally:
            self._asked.pop(request, None)
        if not heard:
            return gap
        at, version = max(heard)
        if gap is None:  # back here, from another worker: since its hello here
            here = room.presences.by_key.get(phone)
            back = room.time.now_ms() if here is None else here.online_ms
            gap = Gap(back, back, room.version, room.game, room.version, guessed=True)
        if at <= gap.since_ms and not gap.guessed:
            return gap  # heard here last
        since = min(at, gap.back_ms)
        if version == gap.version:
            return replace(gap, since_ms=since, guessed=False)
        version = min(version, gap.back_version)
        return replace(gap, since_ms=since, version=version, game=None, guessed=False)

    def _on_question(self, envelope: dict[str, Any]) -> None:
        room = self.hub.rooms.get(str(envelope.get("t", "")))
        seen = None if room is None else room.presences.by_key.get(str(envelope.get("p", "")))
        answer: dict[str, Any] = {"k": "seen", "id": envelope.get("id")}
        if seen is not None:
            answer["at"], answer["v"] = seen.heard_ms, seen.version
        self.backplane.send(f"w:{envelope['w']}", answer)

    def _on_answer(self, envelope: dict[str, Any]) -> None:
        asked = self._asked.get(envelope.get("id", 0))
        if asked is None:
            return
        waiting, heard, answered = asked
        if "at" in envelope:
            heard.append((int(envelope["at"]), int(envelope["v"])))
        waiting.discard(str(envelope.get("w")))
        if not waiting:
            answered.set()
