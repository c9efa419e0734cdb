"""Text from a phone is text that can be stored and exported (no lone surrogates)."""

from __future__ import annotations

import pytest

from app.domain.errors import BadInput
from app.tables.jsontext import loads
from app.tables.warmachine.codec import command_from_wire


@pytest.mark.parametrize(
    "frame",
    [
        '{"c": "report", "army_points_destroyed": 10, "list_played": "Sorscha \\ud800"}',
        '{"c": "dispute", "reason": "\\udfff wrong CP"}',
    ],
)
def test_a_lone_surrogate_in_a_players_text_is_refused(frame: str) -> None:
    with pytest.raises(BadInput, match="a character that cannot be stored"):
        command_from_wire(loads(frame))


def test_ordinary_text_passes_as_typed() -> None:
    command = command_from_wire(
        loads('{"c": "report", "army_points_destroyed": 10, "list_played": "Sorscha 🐻 =1+1"}')
    )
    assert command.list_played == "Sorscha 🐻 =1+1"
