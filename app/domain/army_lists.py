"""What a player's army lists must be (SR2019 and M&C "Army Lists"), checked when the
lists are submitted.

A list is written as its leader, then optionally its theme force after " / " and its
point total in brackets or after a colon: "Butcher 3 / Jaws of the Wolf (75)". Only
what is written is checked: a list without a point total is not refused for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.domain.errors import BadInput

#: An army list point total cannot be more than this under the event's point size.
POINTS_UNDER = 4

_POINTS = re.compile(r"(?:\((\d{1,4})\s*(?:pts?|points)?\)|:\s*(\d{1,4})\s*(?:pts?|points)?)\s*$")


@dataclass(frozen=True, slots=True)
class ArmyList:
    text: str
    leader: str
    theme: str
    points: int | None


def read_list(text: str) -> ArmyList:
    """One list as written: leader, theme force (or "") and point total (or None)."""
    body = text.strip()
    points = None
    found = _POINTS.search(body)
    if found is not None:
        points = int(found.group(1) or found.group(2))
        body = body[: found.start()].strip()
    leader, _, theme = body.partition(" / ")
    return ArmyList(text.strip(), " ".join(leader.split()), " ".join(theme.split()), points)


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def check_lists(lists: Sequence[str], event_points: int, *, different_themes: bool) -> None:
    """Refuse, with the reason, lists the document does not allow: a point total over
    the event size or more than 4 under it; two lists led by the same warcaster, warlock
    or infernal master; (Champions) two lists written with the same theme force."""
    read = [read_list(text) for text in lists]
    low = max(0, event_points - POINTS_UNDER)
    for army in read:
        if army.points is not None and not low <= army.points <= event_points:
            raise BadInput(
                f"{army.text}: {army.points} points; a list at this {event_points}-point "
                f"event totals {low} to {event_points} points"
            )
    leaders: dict[str, str] = {}
    for army in read:
        first = leaders.get(_key(army.leader))
        if first is not None:
            raise BadInput(
                f"two lists are led by {first}: each list is led by a different "
                "warcaster, warlock or infernal master"
            )
        leaders[_key(army.leader)] = army.leader
    if different_themes:
        themes = [_key(army.theme) for army in read if army.theme]
        if len(set(themes)) < len(themes):
            raise BadInput(
                "each list uses a different theme force (written after ' / ', e.g. "
                "'Butcher 3 / Jaws of the Wolf')"
            )
