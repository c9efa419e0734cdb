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
from app.domain.prizes import PLACES
from app.domain.rulebook import Award, KillBox, RoundEndCall, Ruleset, Tiebreaker
from app.domain.rulesets.ig2014_scenarios import SCENARIOS
from app.domain.rulesets.scoring import held, objectives_fallen
from app.domain.rulesets.shared import PLAY_ON_MS
from app.domain.scenarios import VictoryTerms
from app.domain.state import Game
from app.domain.turn_mark import TurnMark

#: DC2: player clock (minutes) by event point size.
PLAYER_CLOCK = MappingProxyType({35: 42, 50: 60, 75: 72})

#: TS5: at least this many CP, and more than the opponent.
SCENARIO_CP = 5


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
    names = game.names
    for side in Side:
        mine = [e for e, s in scoring.dominate.items() if s is side]
        if len(mine) > 1:
            choose = ", ".join(held(game.scenario, e, names).named(names) for e in mine)
            raise BadInput(
                f"{names[side]}'s caster dominates one element only: choose one of {choose}"
            )
    for element_id, side in scoring.dominate.items():
        element = held(game.scenario, element_id, names, game.removed)
        if element_id in scoring.control:
            raise BadInput(f"{element.named(names)} is dominated, so it is not also controlled")
        if element.owner is side:
            if not (element.friendly_dominate_cp or element.friendly_dominate_penalty):
                raise BadInput(
                    f"{names[side]} scores nothing for dominating {element.named(names)}"
                )
            gained = put(gained, side, gained[side] + element.friendly_dominate_cp)
            loses = put(loses, side.other, loses[side.other] + element.friendly_dominate_penalty)
            continue
        if element.dominate_cp is None:
            raise BadInput(f"{element.named(names)} cannot be dominated")
        gained = put(gained, side, gained[side] + element.dominate_cp)
    return gained, loses


def score_sheet(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
    """Scenario scoring at the end of a turn: control, dominate, enemy objectives."""
    gained, loses = _dominated(game, scoring)
    for element_id, side in scoring.control.items():
        element = held(game.scenario, element_id, game.names, game.removed)
        if element.owner is side:
            raise BadInput(
                f"{game.names[side]} scores {element.named(game.names)} only by dominating it"
            )
        gained = put(gained, side, gained[side] + element.control_cp)
    fallen, destroyed = objectives_fallen(
        game.scenario, scoring, game.objectives_destroyed, game.names
    )
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
    # "All Iron Gauntlet qualifiers will be run in accordance with the rules in this
    # document": its own round counts and Final Standings (TP, SoS, CP, APD) only.
    round_variants=False,
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
    # Each scenario's Victory Conditions: "If time runs out before a player has won the
    # game via scenario or assassination victory, break the tie as outlined on the
    # Scenario Reference Sheet": the tiebreakers from the 1st (no fixed game length).
    game_end_tiebreakers=None,
    apd_words="units under half strength count half, casters 5 each",
    concession=concession,
    concession_half_army=False,
    tie_word="Draw",
    bye=bye,
    pick_scenario=d3_row_d6_column,
    qualifier_points=((1, 1, 10), (2, 2, 8), (3, 3, 6), (4, 4, 4), (5, 8, 2), (9, 16, 1)),
    list_rules=(LISTS,),
    default_lists=2,
)
