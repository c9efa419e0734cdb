"""The event's book: its records as stored, read in short sessions and written in units
of work (app.store.events), the EO's log, and the word every use case sends after it
changed the event. Every use case is handed the one book of the service."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from app.domain.errors import NotFound, Unsupported
from app.domain.games import refusal
from app.store.events import EventRepo, EventStore
from app.store.models import EoAction, EventRecord, PlayerEntry, RoundEntry
from app.store.repository import Store
from app.tables.timesource import TimeSource

#: Told the event's id after every use case that changed it.
ChangeListener = Callable[[str], None]


class EventBook:
    def __init__(self, store: Store, time: TimeSource) -> None:
        self._db = EventStore(store)
        self.time = time
        self.listeners: list[ChangeListener] = []

    # -- units of work ---------------------------------------------------------------

    def unit(self) -> AbstractContextManager[EventRepo]:
        """One transaction: committed when the block ends, rolled back whole if it raises."""
        return self._db.unit()

    def read(self) -> AbstractContextManager[EventRepo]:
        """A session for reading only."""
        return self._db.read()

    def changed(self, event_id: str) -> None:
        """Tell whoever listens (the dashboards, the read models) the event changed."""
        for listener in tuple(self.listeners):
            listener(event_id)

    # -- reads --------------------------------------------------------------------

    def event(self, event_id: str) -> EventRecord:
        with self.read() as repo:
            event = repo.event(event_id)
        if event is None:
            raise NotFound(f"no event {event_id!r}")
        return event

    def require(self, event_id: str, feature: str) -> EventRecord:
        """The event, if its format takes this common path (`players`, `rounds`, `swap`,
        `results`, `prizes`, `lists`, `player_pages`); else Unsupported with the format's reason."""
        event = self.event(event_id)
        reason = refusal(event.format_id, feature)
        if reason is not None:
            raise Unsupported(reason)
        return event

    def players(self, event_id: str) -> list[PlayerEntry]:
        with self.read() as repo:
            return repo.players(event_id)

    def player(self, event_id: str, player_id: str) -> PlayerEntry:
        with self.read() as repo:
            player = repo.player(player_id)
        if player is None or player.event_id != event_id:
            raise NotFound(f"no player {player_id!r} in this event")
        return player

    def player_by_token(self, event_id: str, token: str | None) -> PlayerEntry | None:
        """The player whose own link carries `token` (compared in constant time)."""
        if token:
            for player in self.players(event_id):
                if player.token and secrets.compare_digest(player.token.encode(), token.encode()):
                    return player
        return None

    def rounds(self, event_id: str) -> list[RoundEntry]:
        with self.read() as repo:
            return repo.rounds(event_id)

    def current_round(self, event_id: str) -> RoundEntry | None:
        rounds = self.rounds(event_id)
        return rounds[-1] if rounds else None

    def actions(self, event_id: str) -> list[EoAction]:
        with self.read() as repo:
            return repo.actions(event_id)

    # -- the EO's log -------------------------------------------------------------

    def action(self, event_id: str, action: str, **detail: Any) -> EoAction:
        """A row of the EO's log, stamped now, for the use case's unit of work. A row names
        its players by id: `player` (beside the `name` it says), or `names`, each named
        player's id with the name its words say; read (app.events.eo_log), they say the
        player's name now."""
        return EoAction(
            event_id=event_id,
            at_ms=self.time.now_ms(),
            action=action,
            detail_json=json.dumps(detail),
        )

    def log(self, event_id: str, action: str, **detail: Any) -> None:
        """A row of the EO's log in a unit of its own."""
        with self.unit() as repo:
            repo.add(self.action(event_id, action, **detail))
