"""Scenarios as data: their scoring elements and special rules.

The documents give element shapes and counts; positions are only in the diagrams, so
elements are named by shape and number (“Rectangular zone 1”). A scenario may bring its
own scoring start, scoring sheet, victory check and turn-end rule; left None, its
ruleset's stand. A scenario with nothing on the table to score (won by assassination
only) is never scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from app.domain.clock import Side

if TYPE_CHECKING:
    from app.domain.rulesets.base import (
        EarnedRule,
        RollRule,
        RoundNotes,
        ScenarioVictory,
        ScoreSheet,
        TurnEndRule,
        TurnMark,
        VictoryCheck,
    )


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


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    roll: int
    elements: tuple[Element, ...]
    kill_box: bool = True
    #: Overrides of the ruleset's hooks for this scenario (None: the ruleset's).
    scoring_from: TurnMark | None = None
    victory: VictoryCheck | None = None
    #: A victory read from the table at a turn's end (a legacy scenario's condition of
    #: control, or its own CP to reach); it stands over the victory check.
    condition: ScenarioVictory | None = None
    score: ScoreSheet | None = None
    turn_end: TurnEndRule | None = None
    #: What the server's roll does, once a turn-end rule asked for one.
    on_roll: RollRule | None = None
    #: The CP each player earned from each element, kept where an element caps them.
    earned: EarnedRule | None = None
    #: What the current round brings (Daybreak's line of sight), shown on the phones.
    round_notes: RoundNotes | None = None
    #: The scenario's own rules, in the document's words, shown on the phones.
    rules: tuple[str, ...] = ()
    #: The scenario's victory conditions, in the document's words ("": its ruleset's).
    victory_words: str = ""

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
