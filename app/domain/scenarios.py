"""Scenarios as data: their scoring elements and special rules.

Each element carries its shape on the table (`app.domain.table_layout`): the same
elements the rules score are the ones the phones draw. Steamroller's and Iron
Gauntlet's documents give element shapes and counts, their positions only in diagrams
the text does not have, so those elements are named by shape and number (“Rectangular
zone 1”) and have a size but no spot; the legacy pages give distances. A scenario may
bring its own scoring start, scoring sheet, victory check and turn-end rule; left None,
its ruleset's stand. A scenario with nothing on the table to score (won by assassination
only) is never scored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.table_layout import NO_LAYOUT, Layout, Shape, layout_data, shape_data
from app.domain.turn_mark import TurnMark

#: The game a scenario's rules read and return (`app.domain.state.Game`), which this
#: module never imports: the rules are written against it where they are written.
G = TypeVar("G")


class VictoryTerms(Protocol):
    """What a victory check reads of its ruleset: the CP it speaks of."""

    @property
    def victory_cp(self) -> int: ...


#: Hook types, each called by the engine with the game or the numbers it needs.
VictoryCheck = Callable[[VictoryTerms, tuple[int, int]], Side | None]
#: A scenario's own victory, read at the end of a scored turn: the game as the turn ends
#: (its active player is the one ending it), the sheet scored (None: none was) and the
#: CP it gives.
ScenarioVictory = Callable[[G, c.Scoring | None, tuple[int, int]], Side | None]
#: The CP each player has earned from each element after a sheet (a scenario that caps
#: what one element may give).
EarnedRule = Callable[[G, c.Scoring], Mapping[str, tuple[int, int]]]
#: What a scenario's special rules make of the current round, in the players' words.
RoundNotes = Callable[[G], tuple[str, ...]]
ScoreSheet = Callable[[G, c.Scoring], tuple[tuple[int, int], frozenset[str]]]
TurnEndRule = Callable[[G], G]
RollRule = Callable[[G, int], G]


class ElementKind(StrEnum):
    ZONE = "zone"
    FLAG = "flag"
    OBJECTIVE = "objective"


@dataclass(frozen=True, slots=True)
class Element:
    id: str
    kind: ElementKind
    name: str
    #: CP for controlling it (for destroying it, an objective), by anyone or, if the
    #: element is owned, by the owner's opponent.
    control_cp: int = 1
    #: CP for dominating it (None: it is not dominated for points).
    dominate_cp: int | None = None
    #: The player it is friendly to (objectives, friendly flags); None: nobody's.
    owner: Side | None = None
    #: What its owner scores for dominating it, and the CP the owner's opponent loses
    #: before scoring when the owner dominates it (Balance of Power).
    friendly_dominate_cp: int = 0
    friendly_dominate_penalty: int = 0
    #: The area doubled for the army-points-remaining tiebreaker, in the document's words.
    area: str = ""
    #: The most CP one player may score from it over the game (None: no limit).
    most_cp: int | None = None
    #: Its outline and, where the document gives it, its spot on the table.
    shape: Shape | None = None

    def named(self, names: tuple[str, str]) -> str:
        """Its name in a game, as people read it: an element the rules name by its side
        ("P1's friendly flag") by its player's name ("Ann's friendly flag")."""
        owner = self.owner
        if owner is None or not self.name.startswith(f"{owner.label}'s "):
            return self.name
        return f"{names[owner]}'s {self.name[len(owner.label) + 3 :]}"


@dataclass(frozen=True, slots=True)
class Scenario(Generic[G]):
    id: str
    name: str
    roll: int
    elements: tuple[Element, ...]
    kill_box: bool = True
    #: False: advance deployment is deployed in regular deployment (legacy Scattered
    #: Lines), so the clock has no advance-deployment step.
    advance_deployment: bool = True
    #: Overrides of the ruleset's hooks for this scenario (None: the ruleset's).
    scoring_from: TurnMark | None = None
    victory: VictoryCheck | None = None
    #: A victory read from the table at a turn's end (a legacy scenario's condition of
    #: control, or its own CP to reach); it stands over the victory check.
    condition: ScenarioVictory[G] | None = None
    score: ScoreSheet[G] | None = None
    turn_end: TurnEndRule[G] | None = None
    #: What the server's roll does, once a turn-end rule asked for one.
    on_roll: RollRule[G] | None = None
    #: The CP each player earned from each element, kept where an element caps them.
    earned: EarnedRule[G] | None = None
    #: What the current round brings (Daybreak's line of sight), shown on the phones.
    round_notes: RoundNotes[G] | None = None
    #: The scenario's own rules, in the document's words, shown on the phones.
    rules: tuple[str, ...] = ()
    #: The scenario's victory conditions, in the document's words ("": its ruleset's).
    victory_words: str = ""
    #: The table around the elements: deployment zones, kill box, the document's section.
    layout: Layout = NO_LAYOUT

    @property
    def scored(self) -> bool:
        """Whether anything on the table is scored (otherwise: assassination only)."""
        return bool(self.elements)

    @property
    def controllable(self) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.kind is not ElementKind.OBJECTIVE)

    @property
    def objectives(self) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.kind is ElementKind.OBJECTIVE)

    def element(self, element_id: str) -> Element | None:
        return next((e for e in self.elements if e.id == element_id), None)


def table_plan(scenario: Scenario[G]) -> dict[str, object]:
    """The scenario's table as the phones draw it: its layout and each element's shape,
    by the element's id."""
    return {
        **layout_data(scenario.layout),
        "shapes": {e.id: shape_data(e.shape) for e in scenario.elements},
    }
