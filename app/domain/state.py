"""A game's state: its setup, phases, clocks, scores and how it ended, and the
helpers every rule uses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from app.domain import commands as c
from app.domain.clock import Clock, Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.frozen import replace
from app.domain.method import Method as Method
from app.domain.pregame import STEP_WORDS, Pregame
from app.domain.result import Correction, Ending, Report, Result, compute_result
from app.domain.rulebook import Ruleset, format_by_id
from app.domain.scenarios import Scenario
from app.domain.time_moved import TimeMoved
from app.domain.turn_mark import TurnMark
from app.domain.turn_timing import TurnTimer
from app.domain.variants import Variants, parse

#: A tap may be asked to be undone this long after it; once the opponent's phone shows the
#: request, they have this long to answer it.
UNDO_WINDOW_MS = 10_000
#: A request the opponent's phone never showed lapses this long after it was asked, so that
#: no game waits on a phone that is off or offline.
UNDO_UNSEEN_MS = 60_000


class Phase(StrEnum):
    READY = "ready"
    PRE_DEPLOYMENT = "pre_deployment"
    DEPLOYMENT = "deployment"
    ADVANCE_DEPLOYMENT = "advance_deployment"
    TURN = "turn"
    CLOCK_OUT = "clock_out"
    OVER = "over"


#: What the end of a turn asks: (kill box due, scoring due, the game's last turn).
TurnEndDue = tuple[bool, bool, bool]
_NOTHING_DUE: TurnEndDue = (False, False, False)


@dataclass(frozen=True, slots=True)
class Setup:
    format_id: str
    scenario_id: str
    player_clock_ms: int
    army_points: int
    names: tuple[str, str] = ("Player 1", "Player 2")
    #: The event's variants (`app.domain.variants`): timing, victory, tiebreakers.
    variants: tuple[str, ...] = ()
    # Looked up once: every turn end and every view asks for them several times.
    _format: Ruleset[Game] | None = field(default=None, init=False, repr=False, compare=False)
    _scenario: Scenario[Game] | None = field(default=None, init=False, repr=False, compare=False)
    _variants: Variants | None = field(default=None, init=False, repr=False, compare=False)
    #: The questions at the end of each player's turn, (turn, side): `Game.turn_end_due`.
    _due: dict[tuple[int, Side], TurnEndDue] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def format(self) -> Ruleset[Game]:
        """The event's format, read through the rulebook: the game never names one."""
        if self._format is None:
            object.__setattr__(self, "_format", format_by_id(self.format_id))
        assert self._format is not None
        return self._format

    @property
    def scenario(self) -> Scenario[Game]:
        if self._scenario is None:
            object.__setattr__(self, "_scenario", self.format.scenario(self.scenario_id))
        assert self._scenario is not None
        return self._scenario

    @property
    def rules(self) -> Variants:
        """What the event's variants change in this game."""
        if self._variants is None:
            chosen = parse(self.variants, self.format.variants, self.format.name)
            object.__setattr__(self, "_variants", chosen)
        assert self._variants is not None
        return self._variants


@dataclass(frozen=True, slots=True)
class Undo:
    """The last tap and the game before it; once a player asked to undo it, the request.

    `seen_at_ms`: when the opponent's phone showed the request (server time), which starts
    their window to answer it.
    """

    tap_at_ms: int
    before: Game
    proposed_by: Side | None = None
    proposed_at_ms: int = 0
    seen_at_ms: int | None = None

    def lapses_at(self) -> int | None:
        """When the request lapses unanswered (None: nothing asked)."""
        if self.proposed_by is None:
            return None
        if self.seen_at_ms is None:
            return self.proposed_at_ms + UNDO_UNSEEN_MS
        return self.seen_at_ms + UNDO_WINDOW_MS


class UndoEnd(StrEnum):
    """What became of a request to undo a tap."""

    ACCEPTED = "accepted"
    DECLINED = "declined"
    LAPSED = "lapsed"  # the opponent's phone showed it; no answer in time
    UNSEEN = "unseen"  # the opponent's phone never showed it in time
    SUPERSEDED = "superseded"  # the game went on first: a tap, a switch, the EO, a flag


@dataclass(frozen=True, slots=True)
class UndoOutcome:
    asked_by: Side
    end: UndoEnd
    at_ms: int


@dataclass(frozen=True, slots=True)
class Game:
    setup: Setup
    clock: Clock
    phase: Phase = Phase.READY
    active: Side = Side.P1
    turn: int = 0
    interrupted: bool = False
    paused: bool = False
    paused_side: Side | None = None
    paused_by_eo: bool = False
    control_points: tuple[int, int] = (0, 0)
    objectives_destroyed: frozenset[str] = frozenset()
    casters: tuple[bool, bool] = (True, True)
    flagged: Side | None = None
    claim: c.Scoring | None = None
    ending: Ending | None = None
    final_scoring_due: bool = False
    #: DC10, TS3: dice down ended this player's turn where the kill box is asked: they
    #: answer it with the last scoring (None: not asked).
    final_kill_box: Side | None = None
    reports: tuple[Report | None, Report | None] = (None, None)
    confirmed: tuple[bool, bool] = (False, False)
    disputed: str | None = None
    undo: Undo | None = None
    #: What became of the last request to undo a tap (until the next tap or request).
    undo_outcome: UndoOutcome | None = None
    recorded: Result | None = None  # the EO's result, which stands over the players'
    correction: Correction | None = None  # the last time the EO moved a settled result
    eo_reason: str = ""  # why the EO entered or last corrected the result (players see it)
    #: DC5 (IG2014): warnings each player had for pausing, and a pause a player reported.
    pause_warnings: tuple[int, int] = (0, 0)
    pause_reported: Side | None = None  # the player said to have paused
    #: The army lists each player may play this game (empty: any).
    list_choices: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: Scenario elements a special rule took off the table, and a roll the server owes.
    removed: frozenset[str] = frozenset()
    roll_due: int = 0  # the faces of the die the server rolls next (0: none)
    #: CP each player earned from each element, where a scenario caps them.
    earned: Mapping[str, tuple[int, int]] = field(default_factory=lambda: MappingProxyType({}))
    #: Time offline merges moved onto a player whose phone stayed online, and how the
    #: EO settled it.
    time_moved: tuple[TimeMoved, ...] = ()
    #: The pre-game at the table (lists, starting roll, sides), when the table has one.
    pregame: Pregame | None = None
    #: DC10: the round clock and turn timer of a Classic Turn Timing game (None: the
    #: Deathclock's chess clock).
    timer: TurnTimer | None = None
    #: DC4: the moment its first player began deployment (its clocks first ran); the
    #: game's expected end is this plus both player clocks. None: not begun.
    deployed_ms: int | None = None

    @property
    def format(self) -> Ruleset[Game]:
        return self.setup.format

    @property
    def scenario(self) -> Scenario[Game]:
        return self.setup.scenario

    @property
    def deployment_steps(self) -> tuple[str, ...]:
        """The format's deployment steps on the clock, without advance deployment where
        the scenario deploys it in regular deployment."""
        steps = self.format.deployment
        if self.scenario.advance_deployment:
            return steps
        return tuple(step for step in steps if step != Phase.ADVANCE_DEPLOYMENT.value)

    @property
    def names(self) -> tuple[str, str]:
        """The players' names as (P1's, P2's): the pre-game may have swapped the seats."""
        names = self.setup.names
        if self.pregame is not None and self.pregame.swapped:
            return (names[1], names[0])
        return names

    def turn_words(self, mark: TurnMark) -> str:
        """A player's turn by their name, as people read it: "Bob's turn 2"."""
        return f"{self.names[mark.side]}'s turn {mark.turn}"

    @property
    def in_pregame(self) -> bool:
        """The pre-game is under way (the EO may start the clock over it: then it is not)."""
        return self.phase is Phase.READY and self.pregame is not None and not self.pregame.done

    @property
    def mark(self) -> TurnMark:
        return TurnMark(self.turn, self.active)

    def remaining(self, side: Side, now_ms: int) -> int:
        return self.clock.remaining(side, now_ms)

    @property
    def turn_end_due(self) -> TurnEndDue:
        """What the end of the current turn asks (kill box, scoring) and whether it is the
        game's last: each tap and each view ask, the rules answer once a turn and setup."""
        if self.phase is not Phase.TURN:
            return _NOTHING_DUE
        key = (self.turn, self.active)
        due = self.setup._due.get(key)
        if due is None:
            last = self.format.last_turn
            kill_box = self.format.kill_box.due(self.scenario, self.turn, self.active)
            due = (kill_box, self.scoring_due_at_mark, last is not None and self.mark == last)
            self.setup._due[key] = due
        return due

    @property
    def final_due(self) -> bool:
        """The game is over and its last turn end's answers are still owed."""
        return self.final_scoring_due or self.final_kill_box is not None

    @property
    def kill_box_due(self) -> bool:
        """TS3: asked at the end of each turn from the ruleset's start, if the scenario has it."""
        return self.turn_end_due[0]

    @property
    def scoring_from(self) -> TurnMark:
        return self.scenario.scoring_from or self.format.scoring_from

    @property
    def scoring_due_at_mark(self) -> bool:
        """Whether the end of the current turn is one that is scored."""
        return (
            self.scenario.scored
            and self.turn > 0
            and self.scoring_from.reached_by(self.turn, self.active)
        )

    def scenario_winner(self, cp: tuple[int, int], scoring: c.Scoring | None = None) -> Side | None:
        """The scenario's condition (reading the sheet scored), or its victory check, or
        its ruleset's."""
        if self.scenario.condition is not None:
            return self.scenario.condition(self, scoring, cp)
        victory = self.scenario.victory or self.format.victory
        return victory(self.format, cp)

    @property
    def round_notes(self) -> tuple[str, ...]:
        """What the scenario's special rules make of the current round."""
        notes = self.scenario.round_notes
        return () if notes is None else notes(self)

    @property
    def scoring_due(self) -> bool:
        """TS2: scoring at the end of each turn from the end of P2's turn 2."""
        return self.turn_end_due[1]

    @property
    def last_turn(self) -> bool:
        return self.turn_end_due[2]

    def result(self) -> Result | None:
        return compute_result(self)


def new_game(setup: Setup, now_ms: int) -> Game:
    setup.format.scenario(setup.scenario_id)
    if setup.player_clock_ms <= 0:
        raise BadInput("the player clock must be longer than zero")
    timing = setup.rules.timing
    timer = None if timing is None else TurnTimer.new(timing.timing(setup.army_points))
    return Game(setup=setup, clock=Clock.start_with(setup.player_clock_ms, now_ms), timer=timer)


def slot(game: Game) -> str:
    """Where the game stands, in the players' words: "P2's turn 3"."""
    who = game.active.label
    match game.phase:
        case Phase.READY:
            return "the pre-game" if game.in_pregame else "before the clock started"
        case Phase.PRE_DEPLOYMENT:
            return f"{who}'s pre-deployment"
        case Phase.DEPLOYMENT:
            return f"{who}'s deployment"
        case Phase.ADVANCE_DEPLOYMENT:
            return f"{who}'s advance deployment"
        case Phase.TURN | Phase.CLOCK_OUT:
            return f"{who}'s turn {game.turn}"
    return "after the game"


def end_game(game: Game, method: Method, winner: Side | None, at_ms: int) -> Game:
    return replace(
        game,
        phase=Phase.OVER,
        clock=game.clock.run(None, max(at_ms, game.clock.since_ms)),
        interrupted=False,
        paused=False,
        paused_side=None,
        claim=None,
        ending=Ending(method=method, winner=winner, at_ms=at_ms),
    )


def end_by_victory_conditions(game: Game, at_ms: int) -> Game:
    """TS4, DC10: the game ends with no winner yet (the last turn, dice down), its CP as
    scored. The scenario's Victory Conditions: the player with the most CP wins by
    scenario; on equal CP the format's game-end tiebreakers decide (SR2019: the 3rd, then
    the 4th). A format whose scenarios say none of this (IG2014, the legacy pack) goes to
    its tiebreakers from the 1st. No Tiebreakers ("This event does not use tiebreakers"):
    where tiebreakers would decide, the game is a tie."""
    chain = game.format.game_end_tiebreakers
    if chain is None:
        method = Method.TIEBREAKER if game.setup.rules.tiebreakers else Method.TIME
        return end_game(game, method, None, at_ms)
    p1, p2 = game.control_points
    if p1 != p2:
        return end_game(game, Method.SCENARIO, Side.P1 if p1 > p2 else Side.P2, at_ms)
    if not game.setup.rules.tiebreakers:
        return end_game(game, Method.SCENARIO, None, at_ms)
    ended = end_game(game, Method.TIEBREAKER, None, at_ms)
    return replace(ended, ending=Ending(Method.TIEBREAKER, None, at_ms, chain))


def seat_of(actor: c.Actor) -> Side:
    if not isinstance(actor, Side):
        raise NotYourSeat("only a player at the table can do that")
    return actor


def in_play(game: Game) -> None:
    if game.phase in (
        Phase.PRE_DEPLOYMENT,
        Phase.DEPLOYMENT,
        Phase.ADVANCE_DEPLOYMENT,
        Phase.TURN,
    ):
        if game.paused:
            raise RuleError("the EO has paused this table; wait for the EO to resume")
        return
    if game.in_pregame and game.pregame is not None:
        raise RuleError(f"the pre-game comes first: {STEP_WORDS[game.pregame.step]}")
    if game.phase is Phase.READY:
        raise RuleError(
            "the clock has not started yet: the first player starts it to begin deployment"
        )
    if game.phase is Phase.CLOCK_OUT:
        whose = "A" if game.flagged is None else f"{game.names[game.flagged]}'s"
        raise RuleError(f"{whose} clock ran out")
    raise RuleError("the game is over")


def score(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
    """CP totals after a scoring sheet, and the objectives now destroyed: the scenario's
    own scoring, or its ruleset's."""
    sheet = game.scenario.score or game.format.score
    return sheet(game, scoring)


def earned(game: Game, scoring: c.Scoring) -> Mapping[str, tuple[int, int]]:
    """The CP earned from each element after a sheet, where the scenario keeps them."""
    rule = game.scenario.earned
    return game.earned if rule is None else rule(game, scoring)
