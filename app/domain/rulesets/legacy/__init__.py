"""The legacy scenario pack (shared/seeds/legacy-scenarios.txt): sixteen scenarios a
WARMACHINE/HORDES event may play instead of the current season's.

The document is a pack of scenarios, not a tournament format: each page brings its own
elements, start of scoring and victory condition (TS10), and nothing else. The pack is
played with the Deathclock rules of Steamroller 2019 (DC1, DC3, DC5, DC7, DC8) on a
player clock the EO sets (the DC1 table is offered), one army list, W1/L0 and standings
by SoS, CP and APD; a round's scenario is the EO's choice or rolled among those not yet
played. No scenario has a kill box or a turn limit; every one ends by assassination.
"""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.rulebook import KillBox
from app.domain.rulesets.legacy.pages import SCENARIOS
from app.domain.rulesets.sr2019 import steamroller
from app.domain.scenarios import VictoryTerms
from app.domain.turn_mark import TurnMark


def no_victory_of_its_own(_rules: VictoryTerms, _cp: tuple[int, int]) -> Side | None:
    """The pack wins by no CP count of its own: each scenario names its condition."""
    return None


LEGACY = steamroller(
    id="legacy",
    name="Legacy scenario pack",
    scenarios=SCENARIOS,
    last_turn=None,
    kill_box=KillBox(TurnMark(2, Side.P1), 0, "no legacy scenario has a kill box"),
    victory=no_victory_of_its_own,
    victory_cp=0,
    victory_kind="scenario",
    victory_words="Each scenario names its own victory condition; every one ends by assassination.",
    # No page has Steamroller's "the player with the most control points wins via scenario
    # victory" when the game ends: a game without a winner at dice down goes to the
    # tiebreakers from the 1st (SR2019's Scenario Reference, the Deathclock rules it is
    # played with: "If the game ends before a player has won the game ...").
    game_end_tiebreakers=None,
    scenario_packs=(),
)

__all__ = ["LEGACY", "SCENARIOS"]
