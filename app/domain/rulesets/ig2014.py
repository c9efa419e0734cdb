"""Iron Gauntlet 2014 (shared/seeds/iron-gauntlet-2014.txt), as its pages say.

Game timing
- DC2 player clock: 35 points 42 minutes, 50 → 60, 75 → 72.
- DC3 the first player starts his clock and begins pre-deployment; every phase of
  deployment is tapped over in turn until P2's advance deployment, then P1's turn 1.
- DC5 players cannot pause the clock; a player who pauses receives one warning, upon a
  second infraction he loses the game. Only the judge pauses.
- DC7 a player whose clock runs out loses; the loss is scored as an assassination
  victory using current table conditions (no scenario exception).
- DC8 at the round's expected end, games with more than 5 minutes combined on both
  clocks are declared a draw (no exception for a judge's pause).

Scenario reference sheet
- TS2 scoring from the end of P2's turn 2, at the end of each player's turn; an element
  is controlled (1 CP) or dominated by a warcaster/warlock (2 CP); a caster dominates one
  element, the active player's choice; a dominated element is not also controlled.
- Only the player who made the attack that destroys an objective earns its CP.
- TS3 kill box, where a scenario says "Kill Box: YES": from P1's turn 2, a caster
  completely within 14" of any table edge at the end of its player's turn gives the
  opponent 2 CP.
- TS5 the first player with at least 5 CP and more than the opponent wins at once; a
  player cannot earn more CP than are required to win.
- TS7 casters remaining, CP, army points remaining (doubled in the scenario's areas),
  army points destroyed; still equal: a draw. There is no turn limit.
- TS8 a concession gives the winner half the CP for a scenario win (3, rounded up) and
  APD as for an assassination; RP3 a bye: 1 TP, 3 CP, half the event size as APD.
- RP4 d3 for the row, d6 for the column; no scenario repeats until all six are played.
- ST4 qualifier points for the final standings.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from types import MappingProxyType

from app.domain import commands as c
from app.domain.army_lists.checks import ListChecks
from app.domain.army_lists.list_rule import ListRule
from app.domain.clock import BySide, Side, put
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.prizes import PLACES
from app.domain.rulebook import Award, KillBox, RoundEndCall, Ruleset, Tiebreaker
from app.domain.rulesets.scoring import held, objectives_fallen
from app.domain.rulesets.shared import PLAY_ON_MS
from app.domain.scenarios import Element, ElementKind, Scenario, VictoryTerms
from app.domain.state import Game
from app.domain.turn_mark import TurnMark

#: DC2: player clock (minutes) by event point size.
PLAYER_CLOCK = MappingProxyType({35: 42, 50: 60, 75: 72})

#: TS5: at least this many CP, and more than the opponent.
SCENARIO_CP = 5

ZONE = 'Zone (12"×6" rectangle)'


def _zone(eid: str, name: str) -> Element:
    return Element(eid, ElementKind.ZONE, name, control_cp=1, dominate_cp=2)


def _flag(eid: str, name: str, dominate: int = 2) -> Element:
    return Element(eid, ElementKind.FLAG, name, control_cp=1, dominate_cp=dominate)


def _friendly_flags(*, dominate_cp: int = 0, penalty: int = 0) -> list[Element]:
    """A flag friendly to each player: the enemy controls it for 1 or dominates it for 2;
    its owner scores only by dominating it."""
    return [
        Element(
            f"flag-{side.name.lower()}",
            ElementKind.FLAG,
            f"{side.label}'s friendly flag",
            control_cp=1,
            dominate_cp=2,
            owner=side,
            friendly_dominate_cp=dominate_cp,
            friendly_dominate_penalty=penalty,
        )
        for side in Side
    ]


def _objectives(name: str) -> list[Element]:
    """The objective on each player's side is friendly to that player; destroyed by the
    enemy, it scores 1 CP once."""
    return [
        Element(
            f"objective-{s.name.lower()}", ElementKind.OBJECTIVE, f"{s.label}'s {name}", owner=s
        )
        for s in Side
    ]


# -- Scenario 4, Incursion: a non-centre flag is removed at random ------------------

OUTER_FLAGS = ("flag-left", "flag-right")


def incursion_turn_end(game: Game) -> Game:
    """At the end of the second player's first turn, randomly remove a non-centre flag."""
    if game.mark == TurnMark(1, Side.P2):
        return replace(game, roll_due=len(OUTER_FLAGS))
    return game


def incursion_roll(game: Game, value: int) -> Game:
    return replace(game, removed=game.removed | {OUTER_FLAGS[value - 1]})


def _tiebreak_area(where: str) -> str:
    return f"3rd tiebreaker: double the army points {where}."


#: The six scenarios, in the order of the random scenario table (row by row).
SCENARIOS: tuple[Scenario[Game], ...] = (
    Scenario(
        "destruction",
        "Destruction",
        1,
        (_zone("zone", ZONE), *_objectives("Critical Asset")),
        kill_box=True,
        rules=("Enemy objective destroyed: 1 CP (once).", _tiebreak_area("within the zone")),
    ),
    Scenario(
        "balance-of-power",
        "Balance of Power",
        2,
        (_zone("zone", ZONE), *_friendly_flags(penalty=1)),
        kill_box=False,
        rules=(
            "Dominating your friendly flag: your opponent loses 1 CP before scoring (minimum 0).",
            "Enemy flag and zone: control 1 CP, dominate 2 CP.",
            _tiebreak_area("within the zone"),
        ),
    ),
    Scenario(
        "close-quarters",
        "Close Quarters",
        3,
        tuple(_friendly_flags(dominate_cp=1)),
        kill_box=True,
        rules=(
            "Friendly flag: dominate 1 CP. Enemy flag: control 1 CP, dominate 2 CP.",
            _tiebreak_area('within 4" of the enemy flag'),
        ),
    ),
    Scenario(
        "incursion",
        "Incursion",
        4,
        (
            _flag("flag-left", "Left outer flag"),
            _flag("flag-centre", "Centre flag", dominate=1),
            _flag("flag-right", "Right outer flag"),
        ),
        kill_box=False,
        turn_end=incursion_turn_end,
        on_roll=incursion_roll,
        rules=(
            "At the end of P2's turn 1 the server removes an outer flag at random.",
            "Outer flag: control 1 CP, dominate 2 CP. Centre flag: control 1, dominate 1.",
            _tiebreak_area('within 4" of each flag'),
        ),
    ),
    Scenario(
        "outflank",
        "Outflank",
        5,
        (_zone("circle-1", 'Circular zone 1 (12")'), _zone("circle-2", 'Circular zone 2 (12")')),
        kill_box=False,
        rules=(_tiebreak_area("within each zone"),),
    ),
    Scenario(
        "fire-support",
        "Fire Support",
        6,
        (_flag("flag-1", "Flag 1"), _flag("flag-2", "Flag 2"), *_objectives("Ammunition Cache")),
        kill_box=True,
        rules=(
            'Enemy objective destroyed: 1 CP (once). Enemy objectives contest flags within 4".',
            _tiebreak_area('within 4" of each flag'),
        ),
    ),
)


def at_least_five_and_more(rules: VictoryTerms, cp: tuple[int, int]) -> Side | None:
    """TS5: the first player to earn at least 5 CP and have more than the opponent."""
    for side in Side:
        if cp[side] >= rules.victory_cp and cp[side] > cp[side.other]:
            return side
    return None


def no_more_than_needed(rules: Ruleset[Game], cp: tuple[int, int]) -> tuple[int, int]:
    """A player cannot earn more control points than are required to win the scenario."""
    needed = (max(rules.victory_cp, cp[1] + 1), max(rules.victory_cp, cp[0] + 1))
    return (min(cp[0], needed[0]), min(cp[1], needed[1]))


def _dominated(game: Game, scoring: c.Scoring) -> tuple[BySide[int], BySide[int]]:
    """CP gained by dominating, and CP each side loses first (a dominated friendly flag)."""
    gained: BySide[int] = (0, 0)
    loses: BySide[int] = (0, 0)
    for side in Side:
        mine = [e for e, s in scoring.dominate.items() if s is side]
        if len(mine) > 1:
            raise BadInput(
                f"{side.label}'s caster dominates one element only: choose one of {', '.join(mine)}"
            )
    for element_id, side in scoring.dominate.items():
        element = held(game.scenario, element_id, game.removed)
        if element_id in scoring.control:
            raise BadInput(f"{element.name} is dominated, so it is not also controlled")
        if element.owner is side:
            if not (element.friendly_dominate_cp or element.friendly_dominate_penalty):
                raise BadInput(f"{side.label} scores nothing for dominating {element.name}")
            gained = put(gained, side, gained[side] + element.friendly_dominate_cp)
            loses = put(loses, side.other, loses[side.other] + element.friendly_dominate_penalty)
            continue
        if element.dominate_cp is None:
            raise BadInput(f"{element.name} cannot be dominated")
        gained = put(gained, side, gained[side] + element.dominate_cp)
    return gained, loses


def score_sheet(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
    """Scenario scoring at the end of a turn: control, dominate, enemy objectives."""
    gained, loses = _dominated(game, scoring)
    for element_id, side in scoring.control.items():
        element = held(game.scenario, element_id, game.removed)
        if element.owner is side:
            raise BadInput(f"{side.label} scores {element.name} only by dominating it")
        gained = put(gained, side, gained[side] + element.control_cp)
    fallen, destroyed = objectives_fallen(game.scenario, scoring, game.objectives_destroyed)
    before = game.control_points
    cp = (
        max(0, before[0] - loses[0]) + gained[0] + fallen[0],
        max(0, before[1] - loses[1]) + gained[1] + fallen[1],
    )
    return cp, destroyed


def draw_over_five_minutes(
    remaining_ms: tuple[int, int], _paused_by_eo: bool, clock_ran_out: bool
) -> RoundEndCall:
    """DC8: less than 5 minutes combined are played to completion; more: a draw."""
    if clock_ran_out:
        return RoundEndCall.CLOCK_OUT
    if sum(remaining_ms) <= PLAY_ON_MS:
        return RoundEndCall.PLAY_ON
    return RoundEndCall.TIE


def concession(rules: Ruleset[Game], _cp: int, apd: int, _opponent_army: int) -> tuple[int, int]:
    """TS8: half the CP for a scenario win (rounding up), and APD as for an assassination
    using current table conditions (the winner's own count)."""
    return math.ceil(rules.victory_cp / 2), apd


def bye(rules: Ruleset[Game], points: int) -> Award:
    """RP3: 1 TP, half the CP for a scenario win and half the event's point size (rounded up)."""
    if points < 0:
        raise BadInput("the event's point size cannot be negative")
    return Award(tp=1, cp=math.ceil(rules.victory_cp / 2), apd=math.ceil(points / 2))


def this_cycle(scenario_ids: Sequence[str], used: Sequence[str]) -> set[str]:
    """The scenarios played since every scenario was last played."""
    cycle: set[str] = set()
    for played in used:
        cycle.add(played)
        if cycle >= set(scenario_ids):
            cycle = set()
    return cycle


def d3_row_d6_column(
    scenario_ids: Sequence[str],
    used: Collection[str],
    rng: random.Random,
    chosen: str | None = None,
) -> str:
    """RP4: the EO's choice, or a d3 for the row and a d6 for the column (1-3 left, 4-6
    right); a scenario cannot be repeated until all the others have been played."""
    if len(scenario_ids) != 6:
        raise BadInput("the random scenario table has six scenarios")
    cycle = this_cycle(scenario_ids, list(used))
    if chosen is not None:
        if chosen not in scenario_ids:
            raise BadInput(f"unknown scenario {chosen!r} (choose {', '.join(scenario_ids)})")
        if chosen in cycle:
            raise RuleError(
                f"{chosen} was already played: no scenario repeats until all six are played"
            )
        return chosen
    while True:
        row, column = rng.randint(1, 3), rng.randint(1, 6)
        rolled = scenario_ids[(row - 1) * 2 + (0 if column <= 3 else 1)]
        if rolled not in cycle:
            return rolled


#: "Specialist Point Values": the army points each list may add as specialists, by
#: game size.
SPECIALIST_POINTS = ((35, 10), (50, 10), (75, 15))

#: "Modeling and Painting": every model completely painted (declared with the lists).
FULLY_PAINTED = (
    "Fully Painted (IG2014 Modeling and Painting)",
    "All models must be completely painted: a reasonable diversity of color, individual "
    "elements distinguishable by color or shading, and bases finished with sand or "
    "flock or otherwise modeled and painted.",
)

#: "Army Lists": two lists, each played at least once, each at most 2 points under the
#: size; the same version of a character (FA C) in one list only; specialists by size;
#: every model painted. Free models a theme force grants are never substituted.
LISTS = ListRule(
    2,
    2,
    2,
    "Iron Gauntlet, 2 lists, each played once",
    each_played=True,
    points_under=2,
    rules=ListChecks(
        character_restrictions=True,
        character_rule="Army Lists (IG2014, field allowance C)",
        specialist_table=SPECIALIST_POINTS,
    ),
    painting=FULLY_PAINTED,
    free_models_stay=True,
)

IG2014: Ruleset[Game] = Ruleset(
    id="ig2014",
    name="Iron Gauntlet 2014",
    prizes=PLACES,
    player_clock_minutes=PLAYER_CLOCK,
    default_points=50,
    deployment=("pre_deployment", "deployment", "advance_deployment"),
    clock_out_claim=False,
    pause_warnings_lose=2,
    round_end=draw_over_five_minutes,
    scenarios=SCENARIOS,
    scoring_from=TurnMark(2, Side.P2),
    last_turn=None,
    kill_box=KillBox(
        TurnMark(2, Side.P1), 2, 'is {whose} caster completely within 14" of any table edge?'
    ),
    victory=at_least_five_and_more,
    victory_cp=SCENARIO_CP,
    victory_kind="reach",
    victory_words="At least 5 CP and more than the opponent wins at once.",
    cap_cp=no_more_than_needed,
    score=score_sheet,
    tiebreakers=(
        Tiebreaker.CASTERS,
        Tiebreaker.CONTROL_POINTS,
        Tiebreaker.COLLECTED,
        Tiebreaker.APD_SUFFERED,
    ),
    collected=(
        "army points remaining (casters 5 each; units under half strength ignored; "
        "doubled inside the scenario's areas)"
    ),
    apd_words="units under half strength count half, casters 5 each",
    concession=concession,
    tie_word="Draw",
    bye=bye,
    pick_scenario=d3_row_d6_column,
    qualifier_points=((1, 1, 10), (2, 2, 8), (3, 3, 6), (4, 4, 4), (5, 8, 2), (9, 16, 1)),
    list_rules=(LISTS,),
    default_lists=2,
)
