"""Champions' Active Duty Roster (masters-champions-2019.txt, "Champions ADR"): the
warcasters, warlocks, infernal masters and theme forces lists may use. The EO enters
the current roster for the event; the battlegroup box casters are always on it.

The roster is written as lines under two headings:

    Leaders:
    Butcher 3
    Theme forces:
    Jaws of the Wolf

A heading may be left out or left empty: that part is then not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.domain.army_lists.grammar import ArmyList
from app.domain.errors import BadInput

ROSTER_MOST = 4000

ROSTER_HELP = (
    "One name a line, under 'Leaders:' (warcasters, warlocks, infernal masters) and "
    "'Theme forces:'. Empty: the roster is not checked."
)

_LEADERS = re.compile(
    r"^(?:leaders?|warcasters?|warlocks?|casters?|infernal masters?)"
    r"(?:\s*(?:,|/|and)\s*(?:warcasters?|warlocks?|infernal masters?))*\s*:$",
    re.I,
)
_THEMES = re.compile(r"^(?:theme forces?|themes?)\s*:$", re.I)
_BULLET = re.compile(r"^[-*•]\s*")
_FACTION = re.compile(r"\s*\([^)]*\)\s*$")
_WORD = re.compile(r"[^\w\s]")


def roster_key(name: str) -> str:
    """A name as the roster compares it: case, punctuation and a trailing faction in
    brackets do not count ("Lord Kozlov, Viscount of Scarsgrad (Khador)")."""
    return " ".join(_WORD.sub(" ", _FACTION.sub("", name).lower()).split())


@dataclass(frozen=True, slots=True)
class Roster:
    """The event's roster: the keys of its leaders and theme forces (empty: that part is
    not checked) and of the leaders always on it."""

    leaders: frozenset[str]
    themes: frozenset[str]
    always: frozenset[str]


def read_roster(text: str, always: Iterable[str]) -> Roster | None:
    """The roster the EO entered (None: none entered, nothing is checked)."""
    if len(text) > ROSTER_MOST:
        raise BadInput(f"the Active Duty Roster is {ROSTER_MOST} characters at most")
    leaders: set[str] = set()
    themes: set[str] = set()
    part: set[str] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = _BULLET.sub("", raw.strip()).strip()
        if not line:
            continue
        if _LEADERS.match(line):
            part = leaders
        elif _THEMES.match(line):
            part = themes
        elif part is None:
            raise BadInput(
                f"Active Duty Roster line {number} '{line}': write the roster's names "
                "under 'Leaders:' and 'Theme forces:'"
            )
        elif len(line) > 120:
            raise BadInput(f"Active Duty Roster line {number}: a name is 120 characters at most")
        else:
            part.add(roster_key(line))
    if not leaders and not themes:
        return None
    return Roster(frozenset(leaders), frozenset(themes), frozenset(roster_key(a) for a in always))


def check_roster(armies: Sequence[ArmyList], roster: Roster) -> None:
    """Each list is led by a leader on the roster and built with a theme force on it."""
    for number, army in enumerate(armies, 1):
        where = f"list {number} ({army.text})"
        if roster.leaders and roster_key(army.leader) not in roster.leaders | roster.always:
            raise BadInput(f"{where}: {army.leader} is not on this event's Active Duty Roster")
        if not roster.themes:
            continue
        if not army.theme:
            raise BadInput(
                f"{where}: name the list's theme force after ' / ' (e.g. 'Butcher 3 / "
                "Jaws of the Wolf'): each list uses a theme force on the Active Duty Roster"
            )
        if roster_key(army.theme) not in roster.themes:
            raise BadInput(
                f"{where}: the theme force {army.theme} is not on this event's Active Duty Roster"
            )
