"""Running an event: players, rounds, pairings, tables, results and standings.

The rules come from the domain (pairing, standings, tournament); the parts of the
service live by job (registration, rounds, results) and the store's event side
(app.store.events) holds every statement. Each use case is one unit of work and,
when it changed the event, tells the service's listeners (`changed`).
"""

from __future__ import annotations

import random

from app.domain.errors import NotFound
from app.events.base import EventSpec, PairingRow, dump_pairings, pairings_of
from app.events.control import Control
from app.events.prizes import Prizes
from app.events.read_models import ReadModels
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
