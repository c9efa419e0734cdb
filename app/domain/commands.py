"""What players, the EO and the server's timer can ask of a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from app.domain.clock import Side
from app.domain.method import Method


class Role(StrEnum):
    EO = "eo"
    SYSTEM = "system"
    #: A watch link: it reads the table, and every command from it is refused.
    WATCHER = "watch"


#: What a watcher's command is told, whichever game the table plays.
WATCHING = "a watch link only watches: it cannot change the table"


Actor = Side | Role


@dataclass(frozen=True, slots=True)
class Scoring:
    """One scoring of the table: who controls and who dominates which element, which
    objectives the opponent destroyed, and which fell otherwise (scoring nobody)."""

    control: Mapping[str, Side] = field(default_factory=lambda: MappingProxyType({}))
    destroyed: frozenset[str] = frozenset()
    dominate: Mapping[str, Side] = field(default_factory=lambda: MappingProxyType({}))
    removed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """What the table records as a turn ends: the kill box check and the scoring."""

    kill_box: bool | None = None
    scoring: Scoring | None = None


@dataclass(frozen=True, slots=True)
class StartClock:
    """DC3: P1 starts their clock and begins normal deployment."""


@dataclass(frozen=True, slots=True)
class PassTurn:
    """TS1/DC3: a tap. `expect` names the side the tapper sees running."""

    expect: Side
    turn_end: TurnEnd | None = None


@dataclass(frozen=True, slots=True)
class SwitchClock:
    """DC6: switch the running clock to `to` for an interrupt, or back."""

    to: Side


@dataclass(frozen=True, slots=True)
class ProposeUndo:
    pass


@dataclass(frozen=True, slots=True)
class UndoSeen:
    """The opponent's phone shows the request to undo: their window to answer starts."""


@dataclass(frozen=True, slots=True)
class AnswerUndo:
    accept: bool


@dataclass(frozen=True, slots=True)
class CasterDestroyed:
    """TS6: the sender's caster is destroyed, or both at once (`both`)."""

    both: bool = False


@dataclass(frozen=True, slots=True)
class Concede:
    pass


@dataclass(frozen=True, slots=True)
class ClaimScenario:
    """DC7: the player who ran out of time scores the current state."""

    scoring: Scoring


@dataclass(frozen=True, slots=True)
class AnswerClaim:
    agree: bool


@dataclass(frozen=True, slots=True)
class AcceptClockLoss:
    pass


@dataclass(frozen=True, slots=True)
class FinalScoring:
    """TS6, DC10: one last scoring of the final state after an assassination or at dice
    down; at dice down, the kill box of the turn it ended too (TS3), where it is asked."""

    scoring: Scoring | None = None
    kill_box: bool | None = None


@dataclass(frozen=True, slots=True)
class ReportGame:
    """TS9: army points of the opponent's this player destroyed, presence, list."""

    army_points_destroyed: int
    scenario_presence: int | None = None
    list_played: str = ""


@dataclass(frozen=True, slots=True)
class ConfirmResult:
    pass


@dataclass(frozen=True, slots=True)
class DisputeResult:
    """A player does not agree with the result as recorded: the EO decides."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class CallTie:
    """DC8: the round's end time came and the game is declared a tie."""


@dataclass(frozen=True, slots=True)
class RecordResult:
    """The EO enters or corrects the result: the game ends with it, already confirmed.

    A settled result moves only with a `reason` (TS9); `round_closed` says the EO moved
    it after its round was closed. `lists` None: the lists the players reported.
    """

    winner: Side | None
    control_points: tuple[int, int]
    army_points_destroyed: tuple[int, int]
    method: Method = Method.EO
    lists: tuple[str, str] | None = None
    reason: str = ""
    round_closed: bool = False


@dataclass(frozen=True, slots=True)
class PauseClock:
    pass


@dataclass(frozen=True, slots=True)
class ResumeClock:
    pass


@dataclass(frozen=True, slots=True)
class AdjustClock:
    side: Side
    remaining_ms: int


@dataclass(frozen=True, slots=True)
class OfferLists:
    """The army lists each player may play this game (IG2014: each list is played at
    least once over the event); none named: any list."""

    p1: tuple[str, ...] = ()
    p2: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReportPause:
    """DC5 (IG2014): a player tells the EO the opponent paused the clock."""


@dataclass(frozen=True, slots=True)
class WarnForPausing:
    """DC5 (IG2014): the EO warns `side` for pausing the clock; a second warning loses."""

    side: Side


@dataclass(frozen=True, slots=True)
class ScenarioRoll:
    """The server's die for a scenario's special rule (Incursion's removed flag)."""

    value: int


@dataclass(frozen=True, slots=True)
class OpenPregame:
    """The pre-game begins: the lists each seat may choose (empty: any it writes), and
    which of the format's steps it has (empty: all of them)."""

    choices: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    steps: tuple[str, ...] = ()
    #: Each seat's army lists, each whole as written: shown to both players.
    armies: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: The event uses specialists (SR2019's variant, IG2014): a step after the lists.
    specialists: bool = False


@dataclass(frozen=True, slots=True)
class ChooseList:
    """A player's secret choice of list for this game."""

    name: str


@dataclass(frozen=True, slots=True)
class ChooseSpecialists:
    """A player's secret specialist substitution: cards removed from the chosen list
    and specialists of that list added (both may be empty)."""

    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseObjective:
    """A player's secret choice of objective for this game."""

    name: str


@dataclass(frozen=True, slots=True)
class StartingRoll:
    """A player's d6 for the starting roll; the server rolls it. `at_table`: both dice
    as the players rolled them at the table (P1's, P2's), entered on a phone instead."""

    value: int = 0
    at_table: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ChooseOrder:
    """The winner of the starting roll goes first (or second)."""

    first: bool


@dataclass(frozen=True, slots=True)
class ChooseEdge:
    """The second player keeps their side of the table or takes the other."""

    swap: bool


@dataclass(frozen=True, slots=True)
class FlagCheck:
    """The server's timer: decide a clock out that is due."""


@dataclass(frozen=True, slots=True)
class StartTurnTimer:
    """DC10: the active player starts (or restarts) the turn timer."""


@dataclass(frozen=True, slots=True)
class StopTurnTimer:
    """DC10: the active player stops the turn timer while the opponent acts."""


@dataclass(frozen=True, slots=True)
class TakeExtension:
    """DC10: the active player declares their one turn extension of the game."""


@dataclass(frozen=True, slots=True)
class StartExtension:
    """DC10: the opponent starts the declared extension once the turn time is up."""


@dataclass(frozen=True, slots=True)
class DiceDown:
    """DC10: the EO calls dice down at the round time; the game ends."""


@dataclass(frozen=True, slots=True)
class NoModelsLeft:
    """No Assassination Victory: the sender has no models left; the opponent wins."""


Command = (
    StartClock
    | PassTurn
    | SwitchClock
    | ProposeUndo
    | UndoSeen
    | AnswerUndo
    | CasterDestroyed
    | Concede
    | ClaimScenario
    | AnswerClaim
    | AcceptClockLoss
    | FinalScoring
    | ReportGame
    | ConfirmResult
    | DisputeResult
    | CallTie
    | RecordResult
    | PauseClock
    | ResumeClock
    | AdjustClock
    | OfferLists
    | ReportPause
    | WarnForPausing
    | ScenarioRoll
    | OpenPregame
    | ChooseList
    | ChooseSpecialists
    | ChooseObjective
    | StartingRoll
    | ChooseOrder
    | ChooseEdge
    | FlagCheck
    | StartTurnTimer
    | StopTurnTimer
    | TakeExtension
    | StartExtension
    | DiceDown
    | NoModelsLeft
)
