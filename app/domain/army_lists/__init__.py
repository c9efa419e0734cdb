"""A player's army lists: how they are written (`grammar`, `reading`), cut from what a
player pasted (`pasted`), what they must be (`checks`, `list_rule`), a specialist
substitution at the table (`specialists`), and Champions' Active Duty Roster
(`roster`)."""

from app.domain.army_lists.checks import (
    NO_CHECKS,
    POINTS_UNDER,
    ListChecks,
    check_armies,
    check_lists,
)
from app.domain.army_lists.grammar import (
    HELP,
    LISTS_MOST,
    ArmyList,
    Entry,
    ListUnreadable,
    check_length,
    tidy,
)
from app.domain.army_lists.pasted import list_texts, split_lists
from app.domain.army_lists.reading import read_list
from app.domain.army_lists.roster import ROSTER_HELP, Roster, read_roster
from app.domain.army_lists.specialists import Substitution, check_substitution

__all__ = [
    "HELP",
    "LISTS_MOST",
    "NO_CHECKS",
    "POINTS_UNDER",
    "ROSTER_HELP",
    "ArmyList",
    "Entry",
    "ListChecks",
    "ListUnreadable",
    "Roster",
    "Substitution",
    "check_armies",
    "check_length",
    "check_lists",
    "check_substitution",
    "list_texts",
    "read_list",
    "read_roster",
    "split_lists",
    "tidy",
]
