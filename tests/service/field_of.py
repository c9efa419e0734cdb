"""An event of a given field size for tests about a round's many tables: 75 points, every
player Khador, named in registration order."""

from __future__ import annotations

from app.events.base import EventSpec
from app.events.service import EventService


def event_of(service: EventService, players: int) -> str:
    """A new event of `players` players (its id)."""
    created = service.registration.create_event(EventSpec(name=f"{players} players", points=75))
    for n in range(players):
        service.registration.add_player(created.id, f"Player {n + 1:03d}", "Khador")
    return created.id
