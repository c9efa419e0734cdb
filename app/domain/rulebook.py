"""The rulebook: what every ruleset is made of, and the seam between the game and its
rules. A game's state reads its ruleset here and nowhere else; each ruleset module (one
per document, `app.domain.rulesets`) fills this shape in and reads the game's state, never
the reverse; `app.domain.formats` lists them all and puts them in play.

A ruleset (an event's format) says how long the player clocks are, how deployment
runs on the clock, which scenarios it plays, when scoring and the kill box start, when
the game ends, what wins it, how a game without a winner is broken, what a concession,
a bye and a round's end give, how the tournament pairs, ranks and rewards its players,
and which army lists a player brings.

The game engine asks the ruleset and its scenario; it never names a format. A hook is a
plain function a ruleset module passes in, so each module reads like its document's
page; the hooks that read the game are written against `G`, the game's state, which this
module never imports. A scenario may override its ruleset's scoring start, scoring sheet,
victory check and turn-end rule (`app.domain.scenarios`). Another game (a round timer
instead of a chess clock) brings its own table engine and reuses the tournament half of
this data: awards, byes, pairing, standings and list rules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Generic

from app.domain.army_lists.list_rule import ONE_LIST, ListRule
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.prizes import SR2019_PRIZES, Prize
from app.domain.scenarios import G, Scenario, ScoreSheet, VictoryCheck
from app.domain.turn_mark import TurnMark

MINUTE_MS = 60_000


@dataclass(frozen=True, slots=True)
class KillBox:
    """TS3: from which turn, how many CP to the opponent, and what the table is asked."""

    start: TurnMark
    cp: int
    question: str

    def due(self, scenario: Scenario[G], turn: int, side: Side) -> bool:
        """Asked at the end of each turn from `start`, in scenarios that have it."""
        return scenario.kill_box and self.start.reached_by(turn, side)


class Tiebreaker(StrEnum):
    """TS7: what breaks a game that ended with no winner, in a ruleset's order."""

    CASTERS = "casters"  # more warcasters/warlocks remaining
    CONTROL_POINTS = "control_points"  # more CP
    APD_SUFFERED = "apd_suffered"  # fewer army points destroyed suffered
    COLLECTED = "collected"  # a number each player enters only when it is needed


class RoundEndCall(StrEnum):
    PLAY_ON = "play_on"
    TIE = "tie"
    CLOCK_OUT = "clock_out"  # not unfinished: DC7 decides it
    DICE_DOWN = "dice_down"  # DC10: Classic Turn Timing ends the game at the round time


@dataclass(frozen=True, slots=True)
class Award:
    """TP, CP and APD a player is given without a played result (bye or concession)."""

    tp: int
    cp: int
    apd: int


#: Hook types, each called by the engine with the ruleset or the numbers it needs (the
#: scenario's hooks, which read the game, are in `app.domain.scenarios`).
CpCap = Callable[["Ruleset[G]", tuple[int, int]], tuple[int, int]]
RoundEnd = Callable[[tuple[int, int], bool, bool], RoundEndCall]
ConcessionAward = Callable[["Ruleset[G]", int, int, int], tuple[int, int]]
ByeAward = Callable[["Ruleset[G]", int], Award]
ScenarioPick = Callable[..., str]


@dataclass(frozen=True, slots=True)
class Ruleset(Generic[G]):
    id: str
    name: str
    # -- the clock (DC1, DC2, DC3, DC5, DC7, DC8) -----------------------------
    player_clock_minutes: Mapping[int, int]
    default_points: int
    #: DC3: the deployment steps on the clock, each P1 then P2, before P1's turn 1.
    deployment: tuple[str, ...]
    #: DC7: a player whose clock runs out in their own turn may still win by scenario.
    clock_out_claim: bool
    #: DC5: a player pause reported to the EO is a warning; this many lose the game
    #: (None: the ruleset has no such warnings, only the EO pauses).
    pause_warnings_lose: int | None
    round_end: RoundEnd
    # -- the game (TS1-TS9) --------------------------------------------------
    scenarios: tuple[Scenario[G], ...]
    scoring_from: TurnMark
    last_turn: TurnMark | None  # None: no turn limit
    kill_box: KillBox
    victory: VictoryCheck
    #: The CP the victory checks speak of (SR2019: a lead of 5; IG2014: at least 5),
    #: how the phones check it offline ("lead" or "reach") and say it.
    victory_cp: int
    victory_kind: str
    victory_words: str
    #: The CP that may be recorded (IG2014: no more than the scenario needs to win).
    cap_cp: CpCap[G]
    score: ScoreSheet[G]
    tiebreakers: tuple[Tiebreaker, ...]
    #: The collected tiebreaker, in the players' words.
    collected: str
    concession: ConcessionAward[G]
    #: The word for a game nobody won: a "tie" or a "draw".
    tie_word: str
    # -- the tournament (RP1-RP7, ST1-ST6) ------------------------------------
    bye: ByeAward[G]
    pick_scenario: ScenarioPick
    #: How army points destroyed are counted, in the players' words ("" : at full value).
    apd_words: str = ""
    tp: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({"win": 1, "loss": 0, "tie": 0})
    )
    #: ST1: the order of the standings after TP.
    standings_order: tuple[str, ...] = ("tp", "sos", "control_points", "army_points_destroyed")
    #: ST4: (first place, last place, points) for a qualifier's final standings.
    qualifier_points: tuple[tuple[int, int, int], ...] = ()
    #: The seasons an event of this format counts in (app.domain.qualifiers' kinds: an
    #: Iron Gauntlet qualifier, ST4 2019; a Masters tournament's qualifiers).
    seasons: tuple[str, ...] = ()
    #: The army-list choices the EO has for an event, and the one taken when the EO
    #: names none (None: the EO must choose, e.g. Masters' Dyad or Trinity).
    list_rules: tuple[ListRule, ...] = (ONE_LIST,)
    default_lists: int | None = 1
    #: TS4: a game that ends with no winner at its fixed length or at dice down follows
    #: the scenario's Victory Conditions: most CP wins by scenario, equal CP goes to these
    #: tiebreakers (SR2019: the 3rd, then the 4th). None: the tiebreakers from the 1st.
    game_end_tiebreakers: tuple[Tiebreaker, ...] | None = None
    #: ST3: the prizes an event of this format gives.
    prizes: tuple[Prize, ...] = SR2019_PRIZES
    #: Scenario packs (other rulesets' ids) the EO may choose a round's scenario from: the
    #: round's games are played with the pack's scenario rules, the event stays this one.
    scenario_packs: tuple[str, ...] = ()
    #: "Starting the Game": the pre-game's steps at the table, in order (lists,
    #: objectives, roll, order, edge), and the objectives a player may choose from.
    pregame: tuple[str, ...] = ("lists", "roll", "order", "edge")
    objectives: tuple[str, ...] = ()
    #: The table engine this format's tables run on (a chess clock and turns).
    engine: str = "warmachine"
    #: The tournament policy its events are run by (pairing, standings, awards).
    tournament: str = "warmachine"
    #: The event variants an EO may choose (`app.domain.variants`), none by default.
    variants: tuple[str, ...] = ()
    #: Steamroller's Number of Rounds and Standings variants (fixed rounds, Cut to Top, a
    #: standings order): False where the format's events run by its own document alone.
    round_variants: bool = True
    #: The common event paths its events do not take, each with the reason (none).
    event_refusals: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: TS8: a concession gives the winner half the conceding player's starting army as
    #: APD (SR2019 "Sportsmanship"); False: the winner's own count (IG2014).
    concession_half_army: bool = True

    # -- what the engine asks -------------------------------------------------

    @property
    def victory_lead(self) -> int:
        """The CP the victory check speaks of (kept under its Steamroller name)."""
        return self.victory_cp

    @property
    def kill_box_cp(self) -> int:
        return self.kill_box.cp

    @property
    def kill_box_from(self) -> TurnMark:
        return self.kill_box.start

    def scenario_winner(self, cp: tuple[int, int]) -> Side | None:
        return self.victory(self, cp)

    def list_rule(self, lists: int | None) -> ListRule:
        """The army lists each player brings for the event's `lists` setting."""
        if lists is None:
            lists = self.default_lists
        for rule in self.list_rules:
            if rule.lists == lists:
                return rule
        choices = " or ".join(f"{r.name} (lists={r.lists})" for r in self.list_rules)
        if lists is None:
            raise BadInput(f"{self.name} needs the army lists chosen: {choices}")
        raise BadInput(f"{self.name} does not run with lists={lists}: choose {choices}")

    def player_clock_ms(self, points: int) -> int:
        minutes = self.player_clock_minutes.get(points)
        if minutes is None:
            sizes = ", ".join(str(p) for p in sorted(self.player_clock_minutes))
            raise BadInput(f"{self.name} has no clock for {points} points (choose {sizes})")
        return minutes * MINUTE_MS

    def scenario(self, scenario_id: str) -> Scenario[G]:
        for scenario in self.scenarios:
            if scenario.id == scenario_id:
                return scenario
        names = ", ".join(s.id for s in self.scenarios)
        raise BadInput(f"unknown scenario {scenario_id!r} for {self.name} (choose {names})")

    def concession_apd(self, opponent_army_points: int) -> int:
        """Half the opponent's starting army value, rounded up."""
        return math.ceil(opponent_army_points / 2)

    def qualifier_points_for(self, rank: int) -> int | None:
        """ST4: the qualifier points of a final standing (None: not a qualifier)."""
        if not self.qualifier_points:
            return None
        return next((p for first, last, p in self.qualifier_points if first <= rank <= last), 0)


# -- the formats in play ------------------------------------------------------------

#: Every ruleset by id, as `app.domain.formats` puts them in play when it is imported: a
#: game's setup names its format by id and the game reads it here.
_IN_PLAY: dict[str, Ruleset[Any]] = {}


def put_in_play(rulesets: Iterable[Ruleset[Any]]) -> None:
    _IN_PLAY.update((rules.id, rules) for rules in rulesets)


def format_by_id(format_id: str) -> Ruleset[Any]:
    """The ruleset a format id names."""
    if not _IN_PLAY:
        raise LookupError("no format is in play: import app.domain.formats first")
    try:
        return _IN_PLAY[format_id]
    except KeyError:
        raise BadInput(f"unknown format {format_id!r} (choose {', '.join(_IN_PLAY)})") from None
