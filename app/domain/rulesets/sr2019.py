"""Steamroller 2019 (shared/seeds/steamroller-2019.txt), as its pages say.

- DC1 player clock by event size; DC3 deployment, then advance deployment, on the clock;
  DC5 only the EO pauses; DC7 a clock out in one's own turn may still be a scenario win;
  DC8 over 5 minutes combined at the round's end is a tie, unless the EO paused the table.
- TS2 scoring from the end of P2's turn 2; TS3 kill box from P1's turn 2, within 12" of
  one's own table edge, 2 CP; TS4 a lead of 5 CP wins at once; the game ends after P2's
  turn 7; TS7 casters, CP, fewer APD suffered, scenario presence; TS8 a concession gives
  the winner at least 3 CP and half the opponent's army as APD.
- RP3 a bye is 1 TP, 3 CP, half the event size as APD; RP4 a d6 over six scenarios, none
  repeated; ST1 TP, SoS, CP, APD.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from app.domain import commands as c
from app.domain import variants
from app.domain.army_lists.list_rule import ListRule
from app.domain.clock import BySide, Side, put
from app.domain.errors import BadInput
from app.domain.rulebook import Award, KillBox, Ruleset, Tiebreaker
from app.domain.rulesets.scoring import added, held, objectives_fallen
from app.domain.rulesets.shared import as_scored, round_end_with_pause_exception
from app.domain.scenarios import Element, ElementKind, Scenario, VictoryTerms
from app.domain.state import Game
from app.domain.table_layout import Layout, circle, marker, rectangle
from app.domain.tournament import pick_scenario
from app.domain.turn_mark import TurnMark

#: DC1: Steamroller 2019 player clock (minutes) by event point size.
PLAYER_CLOCK = MappingProxyType({0: 20, 25: 30, 50: 42, 75: 60, 100: 75, 150: 120, 200: 150})


#: "Scenario Elements": rectangular zones (6" × 12"), circular zones (12" diameter); a
#: flag is contested within 4" ("Flags"). The text places them "in accordance with the
#: diagram", which it does not have: sizes, no spots.
RECTANGLE = rectangle(6, 12)
CIRCLE = circle(12)
FLAG = marker(4)
OBJECTIVE = marker(0)

#: TS3: the kill box, within 12" of a player's own table edge.
KILL_BOX_INCHES = 12


def _zones(rectangles: int, circles: int) -> list[Element]:
    zones = [
        Element(f"rect-{n}", ElementKind.ZONE, f'Rectangular zone {n} (6"×12")', shape=RECTANGLE)
        for n in range(1, rectangles + 1)
    ]
    zones += [
        Element(f"circle-{n}", ElementKind.ZONE, f'Circular zone {n} (12")', shape=CIRCLE)
        for n in range(1, circles + 1)
    ]
    return zones


def _flags(count: int) -> list[Element]:
    return [
        Element(f"flag-{n}", ElementKind.FLAG, f"Flag {n}", shape=FLAG) for n in range(1, count + 1)
    ]


def _objectives() -> list[Element]:
    return [
        Element(
            f"objective-{s.name.lower()}",
            ElementKind.OBJECTIVE,
            f"{s.label}'s objective",
            owner=s,
            shape=OBJECTIVE,
        )
        for s in Side
    ]


def _scenario(
    roll: int, sid: str, name: str, rects: int, circles: int, flags: int, objectives: bool
) -> Scenario[Game]:
    elements = _zones(rects, circles) + _flags(flags) + (_objectives() if objectives else [])
    layout = Layout(f"Steamroller 2019, Scenario {roll}: {name}", kill_box=KILL_BOX_INCHES)
    return Scenario(id=sid, name=name, roll=roll, elements=tuple(elements), layout=layout)


#: RP4: the six scenarios, by their d6 roll.
SCENARIOS: tuple[Scenario[Game], ...] = (
    _scenario(1, "king-of-the-hill", "King of the Hill", 2, 1, 1, True),
    _scenario(2, "bunkers", "Bunkers", 2, 0, 3, True),
    _scenario(3, "spread-the-net", "Spread the Net", 2, 1, 2, False),
    _scenario(4, "invasion", "Invasion", 1, 2, 0, True),
    _scenario(5, "anarchy", "Anarchy", 0, 2, 2, True),
    _scenario(6, "recon-ii", "Recon II", 2, 0, 2, True),
)


def lead_of(rules: VictoryTerms, cp: tuple[int, int]) -> Side | None:
    """TS4: the first player to lead by 5 CP wins at once."""
    if cp[0] - cp[1] >= rules.victory_cp:
        return Side.P1
    if cp[1] - cp[0] >= rules.victory_cp:
        return Side.P2
    return None


def score_sheet(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
    """TS2: 1 CP for each zone or flag a player controls, 1 for each enemy objective
    destroyed or removed from play (once). Nothing is dominated in Steamroller."""
    if scoring.dominate:
        raise BadInput(f"{game.format.name} scores control only: nothing is dominated")
    gained: BySide[int] = (0, 0)
    for element_id, side in scoring.control.items():
        element = held(game.scenario, element_id, game.names)
        gained = put(gained, side, gained[side] + element.control_cp)
    fallen, destroyed = objectives_fallen(
        game.scenario, scoring, game.objectives_destroyed, game.names, removed_scores=True
    )
    return added(added(game.control_points, gained), fallen), destroyed


def concession(rules: Ruleset[Game], cp: int, apd: int, opponent_army: int) -> tuple[int, int]:
    """TS8: the winner gets at least 3 CP and at least half the opponent's army as APD."""
    return max(cp, 3), max(apd, rules.concession_apd(opponent_army))


def bye(_rules: Ruleset[Game], points: int) -> Award:
    """RP3: 1 TP, 3 CP and half the event's point size, rounded up."""
    if points < 0:
        raise BadInput("the event's point size cannot be negative")
    return Award(tp=1, cp=3, apd=math.ceil(points / 2))


#: "Army Lists": one army list, a second optional (the baseline), or two (the event
#: chooses); each at most 4 points under the event size.
LIST_RULES = (
    ListRule(1, 1, 2, "1 list, a 2nd optional"),
    ListRule(2, 2, 2, "2 lists"),
)

#: The six SR2019 objectives a player chooses from each game.
OBJECTIVES = ("Armory", "Dugout", "Fuel Cache", "Observatory", "Stockpile", "Treasure Chest")


def steamroller(**changes: object) -> Ruleset[Game]:
    """Steamroller 2019's rules; Masters and Champions play them with their own clock
    and lists."""
    rules: dict[str, object] = dict(
        id="sr2019",
        name="Steamroller 2019",
        player_clock_minutes=PLAYER_CLOCK,
        default_points=75,
        deployment=("deployment", "advance_deployment"),
        clock_out_claim=True,
        pause_warnings_lose=None,
        round_end=round_end_with_pause_exception,
        scenarios=SCENARIOS,
        scoring_from=TurnMark(2, Side.P2),
        last_turn=TurnMark(7, Side.P2),
        kill_box=KillBox(
            TurnMark(2, Side.P1),
            2,
            'is {whose} caster completely within 12" of {their} own table edge?',
        ),
        victory=lead_of,
        victory_cp=5,
        victory_kind="lead",
        victory_words="A lead of 5 CP wins at once.",
        cap_cp=as_scored,
        score=score_sheet,
        tiebreakers=(
            Tiebreaker.CASTERS,
            Tiebreaker.CONTROL_POINTS,
            Tiebreaker.APD_SUFFERED,
            Tiebreaker.COLLECTED,
        ),
        collected="scenario presence",
        # Each scenario's Victory Conditions: "If the game ends before a player wins via
        # scenario or assassination victory, the player with the most control points wins
        # via scenario victory. If the players are tied for control points when the game
        # ends, use the 3rd tiebreaker ... and if necessary the 4th tiebreaker".
        game_end_tiebreakers=(Tiebreaker.APD_SUFFERED, Tiebreaker.COLLECTED),
        concession=concession,
        tie_word="Tie",
        bye=bye,
        pick_scenario=pick_scenario,
        # "Army Lists": one list with a second optional, or two, as the EO sets.
        list_rules=LIST_RULES,
        # A round may be played on a legacy scenario the EO picks (legacy-scenarios.txt).
        scenario_packs=("legacy",),
        # Objectives are chosen after list selection and revealed together after the
        # starting roll and the choice of sides.
        pregame=("lists", "objectives", "roll", "order", "edge"),
        objectives=OBJECTIVES,
        # The event variants of the document's "Event Variants" section.
        variants=variants.ALL,
    )
    rules.update(changes)
    return Ruleset(**rules)  # type: ignore[arg-type]


SR2019 = steamroller()
