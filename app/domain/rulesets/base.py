"""What every ruleset is made of: data, and the few hooks where rules truly differ.

A ruleset (an event's format) says how long the player clocks are, how deployment
runs on the clock, which scenarios it plays, when scoring and the kill box start, when
the game ends, what wins it, how a game without a winner is broken, what a concession,
a bye and a round's end give, how the tournament pairs, ranks and rewards its players,
and which army lists a player brings.

The game engine asks the ruleset and its scenario; it never names a format. A hook is a
plain function a ruleset module passes in, so each module reads like its document's
page. A scenario may override its ruleset's scoring start, scoring sheet, victory check
and turn-end rule, read its own victory condition off the table at a turn's end (the
legacy scenarios each have one), cap the CP earned from an element, and say what changes
round by round. Another game (a round
timer instead of a chess clock) brings its own table engine and reuses the tournament
half of this data: awards, byes, pairing, standings and list rules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

from app.domain.army_lists import NO_CHECKS, ListChecks, check_armies, read_list, read_roster
from app.domain.army_lists import split_lists as split_lists
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.frozen import replace
from app.domain.prizes import SR2019_PRIZES, Prize

if TYPE_CHECKING:  # the hooks read the game; the game reads its ruleset
    from app.domain import commands as c
    from app.domain.scenarios import Scenario
    from app.domain.state import Game

MINUTE_MS = 60_000

#: DC8: the combined time left on both clocks that is played to completion.
PLAY_ON_MS = 5 * 60_000


@dataclass(frozen=True, slots=True)
class TurnMark:
    """A player's turn: (turn number, side). Ordered as played."""

    turn: int
    side: Side

    @property
    def order(self) -> int:
        return self.turn * 2 + int(self.side)

    def reached_by(self, turn: int, side: Side) -> bool:
        return turn * 2 + int(side) >= self.order


#: How a player's army lists are written down: one per line, or separated by ";" (or,
#: lists of several lines, by blank lines: `app.domain.army_lists.grammar`).
LIST_SEPARATORS = ("\n", ";")


@dataclass(frozen=True, slots=True)
class ListRule:
    """One choice the EO has at event creation: the event's `lists` setting and how
    many army lists that asks of every player (`fewest` to `most`)."""

    lists: int
    fewest: int
    most: int
    name: str
    #: Each list must be played at least once over the event (IG2014).
    each_played: bool = False
    #: Each list uses a different theme force (Champions).
    different_themes: bool = False
    #: The lists are built from the event's Active Duty Roster, on which these leaders
    #: always are (Champions); None: no roster.
    roster_always: tuple[str, ...] | None = None

    def check(self, count: int) -> None:
        """A player's lists; none written down yet (0) is not refused, only a wrong count."""
        if count == 0 or self.fewest <= count <= self.most:
            return
        wanted = f"{self.fewest}" if self.fewest == self.most else f"{self.fewest} or {self.most}"
        raise BadInput(
            f"{count} army list{'s' if count != 1 else ''} given, but this event "
            f"({self.name}) asks each player for {wanted} "
            "(one list per line or separated by ';', or whole lists with a blank line "
            "between them)"
        )

    def check_lists(
        self,
        lists: Sequence[str],
        event_points: int,
        note: str = "",
        *,
        checks: ListChecks = NO_CHECKS,
        painted: bool = False,
    ) -> None:
        """A player's lists as submitted (each whole): their count, then (unless the EO
        let them stand with a `note`) their point totals, leaders and theme forces, and
        what the event's `checks` add (variants, painting, roster)."""
        self.check(len(lists))
        if note.strip():
            return
        armies = [read_list(text) for text in lists]
        check_armies(armies, event_points, different_themes=self.different_themes)
        checks.check(armies, event_points, painted)

    def with_roster(self, checks: ListChecks, roster_text: str) -> ListChecks:
        """The event's checks with its Active Duty Roster, where the lists use one."""
        if self.roster_always is None:
            if roster_text.strip():
                raise BadInput(
                    "only Champions lists use an Active Duty Roster: leave it empty for this event"
                )
            return checks
        roster = read_roster(roster_text, self.roster_always)
        return replace(checks, roster_offered=True, roster=roster)

    def choices(self, lists: Sequence[str], played: Collection[str], rounds_left: int) -> list[str]:
        """The lists a player may choose for a game. When each list must be played, once
        the rounds left (this one included) are no more than the lists not yet played,
        only those may be chosen."""
        unplayed = [name for name in lists if name not in played]
        if self.each_played and unplayed and rounds_left <= len(unplayed):
            return unplayed
        return list(lists)


ONE_LIST = ListRule(1, 1, 1, "1 list")


@dataclass(frozen=True, slots=True)
class KillBox:
    """TS3: from which turn, how many CP to the opponent, and what the table is asked."""

    start: TurnMark
    cp: int
    question: str

    def due(self, scenario: Scenario, turn: int, side: Side) -> bool:
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


#: Hook types, each called by the engine with the game or the numbers it needs.
VictoryCheck = Callable[["Ruleset", tuple[int, int]], Side | None]
#: A scenario's own victory, read at the end of a scored turn: the game as the turn ends
#: (its active player is the one ending it), the sheet scored (None: none was) and the
#: CP it gives.
ScenarioVictory = Callable[["Game", "c.Scoring | None", tuple[int, int]], Side | None]
#: The CP each player has earned from each element after a sheet (a scenario that caps
#: what one element may give).
EarnedRule = Callable[["Game", "c.Scoring"], Mapping[str, tuple[int, int]]]
#: What a scenario's special rules make of the current round, in the players' words.
RoundNotes = Callable[["Game"], tuple[str, ...]]
CpCap = Callable[["Ruleset", tuple[int, int]], tuple[int, int]]
ScoreSheet = Callable[["Game", "c.Scoring"], tuple[tuple[int, int], frozenset[str]]]
TurnEndRule = Callable[["Game"], "Game"]
RollRule = Callable[["Game", int], "Game"]
RoundEnd = Callable[[tuple[int, int], bool, bool], RoundEndCall]
ConcessionAward = Callable[["Ruleset", int, int, int], tuple[int, int]]
ByeAward = Callable[["Ruleset", int], Award]
ScenarioPick = Callable[..., str]


@dataclass(frozen=True, slots=True)
class Ruleset:
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
    scenarios: tuple[Scenario, ...]
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
    cap_cp: CpCap
    score: ScoreSheet
    tiebreakers: tuple[Tiebreaker, ...]
    #: The collected tiebreaker, in the players' words.
    collected: str
    concession: ConcessionAward
    #: The word for a game nobody won: a "tie" or a "draw".
    tie_word: str
    # -- the tournament (RP1-RP7, ST1-ST6) ------------------------------------
    bye: ByeAward
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
    #: The army-list choices the EO has for an event, and the one taken when the EO
    #: names none (None: the EO must choose, e.g. Masters' Dyad or Trinity).
    list_rules: tuple[ListRule, ...] = (ONE_LIST,)
    default_lists: int | None = 1
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
    #: The common event paths its events do not take, each with the reason (none).
    event_refusals: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

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

    def scenario(self, scenario_id: str) -> Scenario:
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


# -- hooks more than one ruleset shares ----------------------------------------


def as_scored(_rules: Ruleset, cp: tuple[int, int]) -> tuple[int, int]:
    """Every CP scored is recorded."""
    return cp


def round_end_with_pause_exception(
    remaining_ms: tuple[int, int], paused_by_eo: bool, clock_ran_out: bool
) -> RoundEndCall:
    """DC8 (SR2019, M&C): under 5 minutes combined plays on; more is a tie unless the
    EO paused the table this round. Exactly 5:00 plays on."""
    if clock_ran_out:
        return RoundEndCall.CLOCK_OUT
    if sum(remaining_ms) <= PLAY_ON_MS or paused_by_eo:
        return RoundEndCall.PLAY_ON
    return RoundEndCall.TIE
