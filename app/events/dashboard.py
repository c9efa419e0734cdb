"""EO dashboards: every table of an event, live, with coalesced updates.

A tap marks its table dirty; dirty tables go out together at most every
`interval_s`, so a dashboard gets one message per interval, not one per tap.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from app.tables import round_gate
from app.tables.fanout import Channel, Subscriber
from app.tables.jsontext import dumps
from app.tables.room import TableRoom
from app.tables.timesource import TimeSource

INTERVAL_S = 0.25


def summary(room: TableRoom, now_ms: int) -> dict[str, Any]:
    table_no = room.meta.table_no if room.meta else 0
    status = "disputed" if room.merge_refused else room.engine.status(room.game)
    row = room.engine.board(room.table_id, table_no, room.game, status, now_ms)
    if room.merge_refused:
        row["disputed"] = "the phones' offline taps could not be merged"
    row["first"] = first_side(room)
    return row


def first_side(room: TableRoom) -> str | None:
    """The row's side ("p1", "p2") whose player goes first, once the table decided it
    (None before: the screens then name the players without an order)."""
    seat = room.engine.summary(room.game).get("first") if round_gate.first_known(room) else None
    return None if seat is None else room.engine.side_of(room.game, seat).name.lower()


class Dashboard:
    def __init__(self, event_id: str, time: TimeSource, interval_s: float = INTERVAL_S) -> None:
        self.event_id = event_id
        self.time = time
        self.interval_s = interval_s
        self.channel = Channel()
        self.dirty: dict[str, TableRoom] = {}
        self._flush: asyncio.Task[None] | None = None
        self._last_flush = 0.0
        #: Bumped by every change a snapshot shows; a snapshot built at one generation is
        #: served again, as built, to every screen that asks until the next change.
        self.generation = 0
        self._built: dict[str, tuple[int, str]] = {}

    def changed(self) -> None:
        self.generation += 1

    def snapshot_text(self, role: str, build: Callable[[], dict[str, Any]]) -> str:
        """The role's snapshot as text, built once per change however many screens ask
        (a sync from a public dashboard costs a lookup, not a walk of every table)."""
        built = self._built.get(role)
        if built is not None and built[0] == self.generation:
            return built[1]
        generation = self.generation
        text = dumps(build())
        self._built[role] = (generation, text)
        return text

    def table_changed(self, room: TableRoom) -> None:
        self.changed()
        self.dirty[room.table_id] = room
        if self._flush is None and self.channel.subscribers:
            loop = asyncio.get_running_loop()
            delay = max(0.0, self._last_flush + self.interval_s - loop.time())
            self._flush = loop.create_task(self._flush_after(delay))

    async def _flush_after(self, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            self.flush()
        finally:
            self._flush = None

    def flush(self) -> None:
        self.changed()
        self._last_flush = asyncio.get_running_loop().time()
        rooms, self.dirty = list(self.dirty.values()), {}
        if not rooms:
            return
        now = self.time.now_ms()
        message = {"t": "tables", "server_ms": now, "tables": [summary(r, now) for r in rooms]}
        self.channel.publish(dumps(message))

    def publish(self, message: dict[str, Any]) -> None:
        self.changed()
        self.channel.publish(dumps(message))

    def publish_by_role(self, messages: Mapping[str, dict[str, Any]], fallback: str) -> None:
        """One message per subscriber role (the EO's and the public's), `fallback` for others."""
        self.changed()
        encoded = {role: dumps(message) for role, message in messages.items()}
        for subscriber in tuple(self.channel.subscribers):
            text = encoded.get(subscriber.role, encoded[fallback])
            if not subscriber.offer(text):
                self.channel.subscribers.discard(subscriber)

    def join(self, subscriber: Subscriber, snapshot: str) -> None:
        subscriber.offer(snapshot)
        self.channel.join(subscriber)

    def leave(self, subscriber: Subscriber) -> None:
        self.channel.leave(subscriber)


class Dashboards:
    """One dashboard per event, fed by every table's changes."""

    def __init__(self, time: TimeSource, interval_s: float = INTERVAL_S) -> None:
        self.time = time
        self.interval_s = interval_s
        self.by_event: dict[str, Dashboard] = {}

    def get(self, event_id: str) -> Dashboard:
        if event_id not in self.by_event:
            self.by_event[event_id] = Dashboard(event_id, self.time, self.interval_s)
        return self.by_event[event_id]

    def table_changed(self, room: TableRoom) -> None:
        if room.meta is not None and room.meta.event_id in self.by_event:
            self.by_event[room.meta.event_id].table_changed(room)
