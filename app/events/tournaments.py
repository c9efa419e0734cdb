"""The door to the tournament policies of formats whose events run by rules of their
own (named by each format's ruleset, see app.domain.games): the event's use cases ask
here, never for a game by name."""

from __future__ import annotations

import random
from typing import Any

from app.domain.games import tournament_name
from app.events.book import EventBook
from app.events.runewars.tournament import RunewarsTournament
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.timesource import TimeSource

#: The policy an event service runs such an event by.
Policy = RunewarsTournament

#: Each policy by the name a ruleset gives it.
POLICIES: dict[str, type[Policy]] = {RunewarsTournament.name: RunewarsTournament}


class Tournaments:
    """The policies, each made once over the service's book, tables (and the placement
    their commands go to), time and dice."""

    def __init__(
        self,
        book: EventBook,
        hub: TableHub,
        placement: Placement,
        time: TimeSource,
        rng: random.Random,
    ) -> None:
        self.book = book
        self.policies = {
            name: policy(book, hub, placement, time, rng) for name, policy in POLICIES.items()
        }

    def of_format(self, format_id: str) -> Policy | None:
        return self.policies.get(tournament_name(format_id))

    def of_event(self, event_id: str) -> Policy | None:
        """The event's own tournament policy, if its format names one."""
        return self.of_format(self.book.event(event_id).format_id)

    def view(self, event_id: str, admin: bool) -> dict[str, Any] | None:
        """The event as its own policy shows it (None: it runs on the usual rounds)."""
        policy = self.of_event(event_id)
        return None if policy is None else policy.view(event_id, admin)
