"""Formats an event is run under: each is a ruleset (see `app.domain.rulesets`) in the
shape of the rulebook (`app.domain.rulebook`).

This module is the door the rest of the application uses: the registry of every
ruleset by id, which it puts in play for the games to read, and the words every
ruleset shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.domain.army_lists.list_rule import LIST_SEPARATORS, ListRule
from app.domain.army_lists.pasted import split_lists
from app.domain.rulebook import MINUTE_MS, Ruleset, format_by_id, put_in_play
from app.domain.rulesets.ig2014 import IG2014
from app.domain.rulesets.legacy import LEGACY
from app.domain.rulesets.masters import CHAMPIONS2019, MASTERS2019
from app.domain.rulesets.sr2019 import PLAYER_CLOCK as SR2019_PLAYER_CLOCK
from app.domain.rulesets.sr2019 import SR2019
from app.domain.state import Game
from app.domain.turn_mark import TurnMark

#: A format is a ruleset.
Format = Ruleset[Game]

FORMATS: Mapping[str, Format] = MappingProxyType(
    {f.id: f for f in (SR2019, MASTERS2019, CHAMPIONS2019, IG2014, LEGACY)}
)
put_in_play(FORMATS.values())  # a game's setup reads its format by id through the rulebook


def get_format(format_id: str) -> Format:
    return format_by_id(format_id)


def rules_for_scenario(rules: Format, scenario_id: str | None) -> Format:
    """The rules a round on `scenario_id` is played with: the event's own, or those of the
    scenario pack the EO chose it from (None: the event's own, rolled)."""
    if scenario_id is None or any(s.id == scenario_id for s in rules.scenarios):
        return rules
    for pack_id in rules.scenario_packs:
        pack = get_format(pack_id)
        if any(s.id == scenario_id for s in pack.scenarios):
            return pack
    return rules  # its own scenario() names the choices


def scenario_name(format_id: str, scenario_id: str) -> str:
    """A round's scenario by name, from the event's rules or the pack it came from (its
    id where neither has it)."""
    rules = rules_for_scenario(get_format(format_id), scenario_id)
    return next((s.name for s in rules.scenarios if s.id == scenario_id), scenario_id)


__all__ = [
    "CHAMPIONS2019",
    "FORMATS",
    "IG2014",
    "LEGACY",
    "LIST_SEPARATORS",
    "MASTERS2019",
    "MINUTE_MS",
    "SR2019",
    "SR2019_PLAYER_CLOCK",
    "Format",
    "ListRule",
    "Ruleset",
    "TurnMark",
    "get_format",
    "rules_for_scenario",
    "scenario_name",
    "split_lists",
]
