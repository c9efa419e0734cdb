"""What the players, the organiser and the round timer can ask of a Runewars table."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.clock import Side


@dataclass(frozen=True, slots=True)
class ChooseFirstPlayer:
    """Setup step 2: the player with the lower army total names the first player."""

    first: Side


@dataclass(frozen=True, slots=True)
class ChooseArea:
    """Setup step 3: the second player takes the red or blue deployment area."""

    area: str


@dataclass(frozen=True, slots=True)
class StartRound:
    """DC11: the round timer starts (the organiser, or either player at a lone table)."""


@dataclass(frozen=True, slots=True)
class EndGameRound:
    """The first player turns the round counter in the End Phase (TS11)."""

    expect: int  # the game round the tapper sees, so a double tap does not skip one


@dataclass(frozen=True, slots=True)
class CallTime:
    """DC11: the round time is up (the organiser or the timer): finish this game round."""


@dataclass(frozen=True, slots=True)
class ExtendTime:
    """Lost and Damaged Components: a leader gives one table a short time extension
    to find a missing component: `minutes` more on this table's round timer, and why."""

    minutes: int
    reason: str


@dataclass(frozen=True, slots=True)
class ArmyDestroyed:
    """TS11: at the end of a game round all of `side`'s units are destroyed
    (`side` None: both players' last units fell together)."""

    side: Side | None


@dataclass(frozen=True, slots=True)
class Concede:
    """TS11: the player concedes the game."""


@dataclass(frozen=True, slots=True)
class EnterScore:
    """TS11: a player's score: the army value they destroyed and their objective points."""

    destroyed: int
    objectives: int


@dataclass(frozen=True, slots=True)
class FinalFlurry:
    """TS11: the hits each player rolled in the Final Flurry (P1's, P2's), entered by
    the organiser at the table (each player enters their own: `FlurryHits`)."""

    hits: tuple[int, int]


@dataclass(frozen=True, slots=True)
class FlurryHits:
    """TS11: equal scores: the hits this player rolled in the Final Flurry."""

    hits: int


@dataclass(frozen=True, slots=True)
class ConfirmResult:
    """The player agrees with the result as worked out from both players' entries."""


@dataclass(frozen=True, slots=True)
class DisputeResult:
    """The player does not agree with the result: the organiser decides it."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class StepBack:
    """Step the round counter back by one (or undo the game's end at the counter): a
    player asks, the other player agrees by asking too; the organiser just does it."""

    expect: int  # the game round the sender sees, so a stale request does nothing


@dataclass(frozen=True, slots=True)
class KeepRound:
    """A player turns down (or withdraws) the request to step the round counter back."""


@dataclass(frozen=True, slots=True)
class JudgeScores:
    """TS11/ST5: the organiser's result for the table: both players' entries (army
    value destroyed, objective points; P1's, P2's), the Final Flurry hits when the
    scores are equal, a concession by `conceded` (None: the table's own stands), and
    the reason, needed when a decided result changes."""

    entries: tuple[tuple[int, int], tuple[int, int]]
    flurry: tuple[int, int] | None = None
    conceded: Side | None = None
    reason: str = ""


Command = (
    ChooseFirstPlayer
    | ChooseArea
    | StartRound
    | EndGameRound
    | CallTime
    | ExtendTime
    | ArmyDestroyed
    | Concede
    | EnterScore
    | FinalFlurry
    | FlurryHits
    | ConfirmResult
    | DisputeResult
    | StepBack
    | KeepRound
    | JudgeScores
)
