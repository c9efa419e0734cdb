"""A name corrected by the EO is still one player's: every page, CSV and the event-day
reading name players, so a correction that would give two players the same name (in any
case) is refused, and nothing changes; the player's own name in another case is fine."""

from __future__ import annotations

import pytest

from app.domain.errors import RuleError
from app.events.base import EventSpec
from app.events.service import EventService


def test_a_name_correction_cannot_take_another_players_name(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="Names"))
    ann = service.registration.add_player(event.id, "Ann Abbot", "Cygnar")
    bob = service.registration.add_player(event.id, "Bob Bryce", "Khador")
    with pytest.raises(RuleError, match="Ann Abbot is already registered"):
        service.registration.edit_player(event.id, bob.id, "ann abbot", "Khador", "")
    names = sorted(p.name for p in service.book.players(event.id))
    assert names == ["Ann Abbot", "Bob Bryce"]
    fixed = service.registration.edit_player(event.id, ann.id, "Ann ABBOT", "Cygnar", "")
    assert fixed.name == "Ann ABBOT"
