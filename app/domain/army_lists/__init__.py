"""A player's army lists: how they are written (`grammar`), what they must be
(`checks`), and Champions' Active Duty Roster (`roster`)."""

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
    check_length,
    list_texts,
    read_list,
    split_lists,
    tidy,
)
from app.domain.army_lists.roster import ROSTER_HELP, Roster, read_roster

__all__ = [
    "HELP",
    "LISTS_MOST",
    "NO_CHECKS",
    "POINTS_UNDER",
    "ROSTER_HELP",
    "ArmyList",
    "Entry",
    "ListChecks",
    "Roster",
    "check_armies",
    "check_length",
    "check_lists",
    "list_texts",
    "read_list",
    "read_roster",
    "split_lists",
    "tidy",
]
