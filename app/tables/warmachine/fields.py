"""A WARMACHINE command's fields read from the wire, refused in the players' own words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain.errors import BadInput

MAX_INT = 10**9

#: The fields a player or the EO fills in, in their own words (never a field's wire name).
_WORDS = {
    "army_points_destroyed": "Army points destroyed",
    "scenario_presence": "Scenario presence",
    "remaining_ms": "The clock's new time",
    "control_points": "Control points",
    "at_table": "The dice rolled at the table",
    "value": "The die roll",
    "note": "The note of time moved",
    "accept": "The answer to the undo",
    "agree": "The answer to the claim",
    "both": "Whether both casters were destroyed",
    "round_closed": "Whether the round is closed",
    "specialists": "Whether specialists are chosen",
    "first": "Going first or second",
    "swap": "The choice of table edge",
    "give_back": "Whether the time is given back",
    "reason": "The reason",
    "method": "How the game ended",
    "list_played": "The list played",
    "list": "The list",
    "name": "A list's name",
    "objective": "The objective",
    "steps": "The steps before the game",
    "armies": "Each player's army lists",
    "p1": "Each player's lists",
    "p2": "Each player's lists",
    "removed": "The specialists taken out",
    "added": "The specialists put in",
    "expect": "The player whose turn it is",
    "to": "The player whose clock runs next",
    "side": "The player",
    "winner": "The winner",
}


def words(field: str) -> str:
    """A field in the words of the person who fills it in (never its wire name)."""
    return _WORDS.get(field, "A value this page sent")


def read_bool(raw: Mapping[str, Any], field: str, default: bool | None = None) -> bool:
    value = raw.get(field, default)
    if not isinstance(value, bool):
        raise BadInput(f"{words(field)} must be yes or no")
    return value


def read_int(raw: Mapping[str, Any], field: str, *, optional: bool = False) -> int | None:
    value = raw.get(field)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{words(field)} must be a whole number (no fractions, e.g. 12, not 12.5)")
    if not -MAX_INT <= value <= MAX_INT:
        raise BadInput(f"{words(field)} is too large")
    return value


def read_str(raw: Mapping[str, Any], field: str, default: str = "") -> str:
    value = raw.get(field, default)
    if not isinstance(value, str):
        raise BadInput(f"{words(field)} must be text")
    try:
        value.encode()
    except UnicodeEncodeError:  # a lone surrogate: JSON can say it, nothing can store it
        raise BadInput(f"{words(field)} has a character that cannot be stored") from None
    return value


def read_names(raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > 8:
        raise BadInput(f"{words(key)} must be at most 8 list names")
    return tuple(read_str({"name": v}, "name") for v in value)


def read_pair(raw: Mapping[str, Any], key: str) -> tuple[int, int]:
    value = raw.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise BadInput(f"{words(key)} must be two whole numbers, one for each player")
    return (value[0], value[1])
