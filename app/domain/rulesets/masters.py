"""Masters and Champions 2019 (shared/seeds/masters-champions-2019.txt): Steamroller
2019's games, 75 points with 60 minutes each (DC1), and their own army lists. "All
officially sanctioned Masters and Champions events are eligible to be Iron Gauntlet
Qualifier (IGQ) events"; a Masters tournament's qualifiers are Masters events."""

from __future__ import annotations

from types import MappingProxyType

from app.domain.army_lists.list_rule import ListRule
from app.domain.prizes import CHAMPIONS_PRIZES, MASTERS_PRIZES
from app.domain.qualifiers import IRON_GAUNTLET, MASTERS_QUALIFIERS
from app.domain.rulesets.sr2019 import steamroller

#: Masters: a Dyad requires two army lists, a Trinity three; the EO advertises which.
MASTERS2019 = steamroller(
    id="masters2019",
    name="Masters 2019",
    player_clock_minutes=MappingProxyType({75: 60}),
    list_rules=(
        ListRule(2, 2, 2, "Masters Dyad, 2 lists"),
        ListRule(3, 3, 3, "Masters Trinity, 3 lists"),
    ),
    default_lists=None,
    prizes=MASTERS_PRIZES,
    variants=(),  # the Masters document names no event variants
    seasons=(IRON_GAUNTLET, MASTERS_QUALIFIERS),
)

#: "Champions ADR": the battlegroup box warcasters and warlocks always on the roster.
ALWAYS_ON_ROSTER = (
    "Major Beth Maddox",
    "Lord Kozlov, Viscount of Scarsgrad",
    "Malekus, the Burning Truth",
    "Bane Witch Agathia",
    "Magister Helynna",
    "Ragnor Skysplitter, the Runemaster",
    "Tanith the Feral Song",
    "Kryssa, Conviction of Everblight",
    "Beast Master Xekaar",
)

#: Champions: one army list, a second optional with another theme force; leaders and
#: theme forces from the event's Active Duty Roster.
CHAMPIONS2019 = steamroller(
    id="champions2019",
    name="Champions 2019",
    player_clock_minutes=MappingProxyType({75: 60}),
    list_rules=(
        ListRule(
            2,
            1,
            2,
            "Champions, 1 list, a 2nd optional",
            different_themes=True,
            roster_always=ALWAYS_ON_ROSTER,
        ),
    ),
    default_lists=2,
    prizes=CHAMPIONS_PRIZES,
    variants=(),  # the Champions document names no event variants
    seasons=(IRON_GAUNTLET,),
)
