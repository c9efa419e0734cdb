"""The players' army lists as the event handles them once it starts: locked when its
first round starts (the EO can still fix one, with a reason, in `Registration`), printed
by the EO one sheet a player, and made public on the event's page once round 1 starts
(and private again: the EO's choice is undoable, each change in the EO's log)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from app.domain.army_lists import list_texts
from app.domain.errors import RuleError
from app.events.book import EventBook
from app.store.models import EoAction, PlayerEntry

#: The EO's log row that makes the lists public (its detail: public true or false).
PUBLIC_ACTION = "lists_public"


def lists_locked(book: EventBook, event_id: str) -> bool:
    """A player's lists are locked once the event starts (its first round starts)."""
    return any(r.started_ms is not None for r in book.rounds(event_id))


def made_public(actions: Iterable[EoAction]) -> bool:
    """The EO made the lists public (the last word in the EO's log stands)."""
    public = False
    for action in actions:
        if action.action == PUBLIC_ACTION:
            public = bool(json.loads(action.detail_json).get("public"))
    return public


def _sheet(player: PlayerEntry, admin: bool) -> dict[str, Any]:
    lists = [
        {"number": number, "name": text.splitlines()[0].strip(), "text": text}
        for number, text in enumerate(list_texts(player.lists), 1)
    ]
    sheet: dict[str, Any] = {
        "id": player.id,
        "name": player.name,
        "faction": player.faction,
        "dropped": player.dropped,
        "painted": player.painted,
        "lists": lists,
    }
    if admin:
        sheet["list_note"] = player.list_note
    return sheet


class EventLists:
    """Every player's lists: the EO's print sheets and the public's view of them."""

    def __init__(self, book: EventBook) -> None:
        self.book = book

    def locked(self, event_id: str) -> bool:
        return lists_locked(self.book, event_id)

    def public(self, event_id: str) -> bool:
        return made_public(self.book.actions(event_id))

    def set_public(self, event_id: str, public: bool) -> bool:
        """Make the lists public on the event's page (once round 1 starts), or private again."""
        self.book.require(event_id, "lists")
        if public and not self.locked(event_id):
            raise RuleError(
                "the lists can be made public once round 1 starts (until then players "
                "can still change them)"
            )
        if public != self.public(event_id):
            self.book.log(event_id, PUBLIC_ACTION, public=public)
            self.book.changed(event_id)
        return public

    def sheets(self, event_id: str) -> dict[str, Any]:
        """The EO's print: every player's lists in full, one sheet a player."""
        event = self.book.require(event_id, "lists")
        return {
            "event": {"id": event.id, "name": event.name, "points": event.points},
            "locked": self.locked(event_id),
            "public": self.public(event_id),
            "players": [_sheet(p, admin=True) for p in self.book.players(event_id)],
        }

    def shown(self, event_id: str) -> dict[str, Any]:
        """The lists on the event's public page, once the EO made them public."""
        self.book.require(event_id, "lists")
        if not self.public(event_id):
            return {"public": False, "players": []}
        players = [_sheet(p, admin=False) for p in self.book.players(event_id)]
        return {"public": True, "players": players}
