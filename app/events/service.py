"""Running an event: players, rounds, pairings, tables, results and standings.

The rules come from the domain (pairing, standings, tournament); the parts of the
service live by job (registration, rounds, results) and the store's event side
(app.store.events) holds every statement. Each use case is one unit of work and,
when it changed the event, tells the service's listeners (`changed`).
"""

from __future__ import annotations

import random

from app.domain.errors import NotFound
from app.domain.games import tournament_name
from app.events.base import EventSpec, PairingRow, dump_pairings, pairings_of
from app.events.control import Control
from app.events.prizes import Prizes
from app.events.read_models import ReadModels
from app.events.tournaments import POLICIES, Policy
from app.store.models import EventRecord
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import TimeSource

__all__ = [
    "EventService",
    "EventSpec",
    "NotFound",
    "PairingRow",
    "dump_pairings",
    "pairings_of",
]


class EventService(Control, Prizes):
    """The event use cases behind one object (what the API, the demo and tests call),
    and the read models they keep current."""

    def __init__(
        self,
        store: Store,
        hub: TableHub,
        time: TimeSource,
        rng: random.Random | None = None,
        players_per_event: int = 1024,
    ) -> None:
        super().__init__(store, hub, time, rng, players_per_event)
        self.read_models = ReadModels(self)
        #: The tournament policies of formats whose events run by rules of their own
        #: (named by the format's ruleset); the others run on the rounds above.
        self.tournaments = {t.name: t for t in (policy(self) for policy in POLICIES.values())}
        self.read_models.own_view = self._own_view

    def _own_view(self, event_id: str, admin: bool) -> dict[str, object] | None:
        policy = self.tournament(event_id)
        return None if policy is None else policy.view(event_id, admin)

    def tournament_of(self, format_id: str) -> Policy | None:
        return self.tournaments.get(tournament_name(format_id))

    def tournament(self, event_id: str) -> Policy | None:
        """The event's own tournament policy, if its format names one."""
        return self.tournament_of(self.event(event_id).format_id)

    def create_event(self, spec: EventSpec) -> EventRecord:
        policy = self.tournament_of(spec.format_id)
        if policy is not None:
            return policy.create(spec)
        return super().create_event(spec)
