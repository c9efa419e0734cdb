"""Formats an event is run under: each is a ruleset (see `app.domain.rulesets`).

This module is the door the rest of the application uses: the registry of every
ruleset by id, and the words every ruleset shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.domain.errors import BadInput
from app.domain.rulesets.base import (
    LIST_SEPARATORS,
    MINUTE_MS,
    ListRule,
    Ruleset,
    TurnMark,
    split_lists,
)
from app.domain.rulesets.ig2014 import IG2014
from app.domain.rulesets.legacy import LEGACY
from app.domain.rulesets.masters import CHAMPIONS2019, MASTERS2019
from app.domain.rulesets.sr2019 import PLAYER_CLOCK as SR2019_PLAYER_CLOCK
from app.domain.rulesets.sr2019 import SR2019

#: A format is a ruleset.
Format = Ruleset

FORMATS: Mapping[str, Ruleset] = MappingProxyType(
    {f.id: f for f in (SR2019, MASTERS2019, CHAMPIONS2019, IG2014, LEGACY)}
)


def get_format(format_id: str) -> Ruleset:
    try:
        return FORMATS[format_id]
    except KeyError:
        raise BadInput(f"unknown format {format_id!r} (choose {', '.join(FORMATS)})") from None


def rules_for_scenario(rules: Ruleset, scenario_id: str | None) -> Ruleset:
    """The rules a round on `scenario_id` is played with: the event's own, or those of the
    scenario pack the EO chose it from (None: the event's own, rolled)."""
    if scenario_id is None or any(s.id == scenario_id for s in rules.scenarios):
        return rules
    for pack_id in rules.scenario_packs:
        pack = get_format(pack_id)
        if any(s.id == scenario_id for s in pack.scenarios):
            return pack
    return rules  # its own scenario() names the choices


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
    "split_lists",
]
