"""Running an event: players, rounds, pairings, tables, results and standings.

The rules come from the domain (pairing, standings, tournament); the parts of the
service live by job (registration, rounds, results) and the store's event side
(app.store.events) holds every statement. Each use case is one unit of work and,
when it changed the event, tells the service's listeners (`changed`).
"""

from __future__ import annotations

from app.events.base import EventSpec, NotFound, PairingRow, dump_pairings, pairings_of
from app.events.registration import Registration
from app.events.rounds import Rounds

__all__ = [
    "EventService",
    "EventSpec",
    "NotFound",
    "PairingRow",
    "_pairings",
    "dump_pairings",
    "pairings_of",
]

_pairings = pairings_of  # the name the API used


class EventService(Registration, Rounds):
    """The event use cases behind one object (what the API, the demo and tests call)."""
