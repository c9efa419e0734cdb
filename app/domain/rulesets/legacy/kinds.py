"""The kinds of legacy page (shared/seeds/legacy-scenarios.txt): won by assassination
only, scored in Control Points up to a number that wins, or won by a condition of
control read at the end of a turn. Every one is also won when a player is the only one
with a warcaster/warlock in play (TS6); none has a kill box or a turn limit.
"""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.frozen import replace
from app.domain.rulesets.legacy.places import DEPLOYMENT, page
from app.domain.rulesets.legacy.rules import (
    control_points_sheet,
    control_sheet,
    earned_by_element,
    earned_notes,
    scores,
)
from app.domain.scenarios import Element, RoundNotes, Scenario, ScenarioVictory
from app.domain.state import Game
from app.domain.turn_mark import TurnMark

P1, P2 = Side.P1, Side.P2

#: "Starting on the second player's third turn", "starting on the third round"...
SECOND_PLAYERS_THIRD_TURN = TurnMark(3, P2)
THIRD_ROUND = TurnMark(3, P1)
SECOND_ROUND = TurnMark(2, P1)

ASSASSINATION = (
    "A player wins when he is the only player with one or more warcasters/warlocks in play."
)
OR_ASSASSINATION = " or when he is the only player with one or more warcasters/warlocks in play."


def assassination_only(
    number: int,
    sid: str,
    name: str,
    *rules: str,
    round_notes: RoundNotes[Game] | None = None,
    deployment: float = DEPLOYMENT,
    advance_deployment: bool = True,
) -> Scenario[Game]:
    """Nothing on the table is scored: the scenario is won by assassination only."""
    return Scenario(
        sid,
        name,
        number,
        (),
        kill_box=False,
        advance_deployment=advance_deployment,
        round_notes=round_notes,
        rules=rules,
        victory_words=ASSASSINATION,
        layout=page(number, name, deployment),
    )


def scored_in_cp(
    number: int,
    sid: str,
    name: str,
    elements: tuple[Element, ...],
    *,
    start: TurnMark,
    wins_at: int,
    own_turn: bool,
    rules: tuple[str, ...],
) -> Scenario[Game]:
    """Control Points for the elements controlled, up to a number that wins."""
    return Scenario(
        sid,
        name,
        number,
        elements,
        kill_box=False,
        scoring_from=start,
        condition=scores(wins_at),
        score=control_points_sheet(own_turn=own_turn),
        earned=earned_by_element(own_turn=own_turn),
        round_notes=earned_notes,
        rules=rules,
        layout=page(number, name),
        victory_words=f"A player wins when he scores {wins_at} Control Points{OR_ASSASSINATION}",
    )


def won_by_control(
    number: int,
    sid: str,
    name: str,
    elements: tuple[Element, ...],
    *,
    start: TurnMark,
    victory: ScenarioVictory[Game],
    words: str,
    rules: tuple[str, ...],
) -> Scenario[Game]:
    """No Control Points: a condition of control read at the end of a turn wins (its
    elements are worth no CP)."""
    return Scenario(
        sid,
        name,
        number,
        tuple(replace(e, control_cp=0) for e in elements),
        kill_box=False,
        scoring_from=start,
        condition=victory,
        score=control_sheet,
        rules=rules,
        layout=page(number, name),
        victory_words=words + OR_ASSASSINATION,
    )
