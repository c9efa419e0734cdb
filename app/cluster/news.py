"""Several workers: what one worker tells the others besides a table's moves: a table
opened or dropped, a table's links or names changed (meta), an event changed."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from app.cluster.backplane import Backplane
from app.domain.frozen import replace
from app.store.models import TableRecord
from app.tables.fanout import REPLACED
from app.tables.hub import TableHub
from app.tables.room import TableRoom, Tokens

log = logging.getLogger(__name__)


class News:
    """The cluster's part that hears of tables and events changed on another worker."""

    hub: TableHub
    backplane: Backplane
    owned: dict[str, int]
    event_listeners: list[Callable[[str], None]]
    _relaying: bool
    _tasks: set[asyncio.Task[None]]

    def _on_open(self, envelope: dict[str, Any]) -> None:
        if envelope.get("dropped"):
            self.hub.let_go(envelope["t"])
            self.owned.pop(envelope["t"], None)
        elif envelope.get("ev"):  # read on a thread: an event's round opens its tables at once
            self.spawn(self._load(envelope["t"]))

    async def _load(self, table_id: str) -> None:
        try:
            await self.hub.open(table_id)
        except Exception:  # the store away: the first socket or dashboard for it reads it
            log.exception("a table opened on another worker could not be read: %s", table_id)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` on the loop, kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def discarded(self, table_id: str) -> None:
        """A table removed before its game began: the other workers forget it too."""
        self.owned.pop(table_id, None)
        self.backplane.send("all", {"k": "open", "t": table_id, "dropped": True})

    def meta_changed(self, room: TableRoom) -> None:
        self.backplane.send("all", {"k": "meta", "t": room.table_id})

    def _on_meta(self, envelope: dict[str, Any]) -> None:
        room = self.hub.rooms.get(envelope["t"])
        if room is None:
            return
        with self.hub.store.session() as session:
            record = session.get(TableRecord, room.table_id)
        if record is None:
            self.hub.let_go(room.table_id)
            return
        tokens = Tokens(record.p1_token, record.p2_token, record.watch_token, record.admin_token)
        for subscriber in tuple(room.channel.subscribers):
            now, before = getattr(tokens, subscriber.role), getattr(room.tokens, subscriber.role)
            if not hmac.compare_digest(now.encode(), before.encode()):
                subscriber.drop(REPLACED, "link replaced")
        room.tokens = tokens
        names = (record.p1_name, record.p2_name)
        if names != room.game.setup.names:
            room.game = replace(room.game, setup=replace(room.game.setup, names=names))
            room.initial = replace(room.initial, setup=replace(room.initial.setup, names=names))
            for subscriber in tuple(room.channel.subscribers):
                subscriber.offer(room.snapshot(subscriber.role))
            for listener in room.listeners:
                listener(room)

    def event_changed(self, event_id: str) -> None:
        """An event changed here: the other workers' dashboards and read models hear it."""
        if not self._relaying:
            self.backplane.send("all", {"k": "ev", "e": event_id})

    def _on_event(self, envelope: dict[str, Any]) -> None:
        self._relaying = True
        try:
            for listener in tuple(self.event_listeners):
                listener(envelope["e"])
        finally:
            self._relaying = False
