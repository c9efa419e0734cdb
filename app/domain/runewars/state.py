"""A Runewars table: who sets up first, the game-round counter, the round timer, the
way the game ended, the scores and the result. Immutable; time is passed in."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.frozen import replace
from app.domain.runewars.rules import (
    AREAS,
    MINUTE_MS,
    ROUND_MINUTES,
    check_army_value,
)


class Phase(StrEnum):
    FIRST_PLAYER = "first_player"  # the lower army total chooses who goes first
    AREA = "area"  # the second player chooses red or blue
    READY = "ready"  # waiting for the round to start
    PLAYING = "playing"
    SCORING = "scoring"
    FINAL_FLURRY = "final_flurry"
    OVER = "over"


class EndedBy(StrEnum):
    EIGHT_ROUNDS = "eight_rounds"
    DEFEATED = "defeated"
    MUTUAL_DESTRUCTION = "mutual_destruction"
    TIME = "time"
    CONCESSION = "concession"
    #: The organiser entered the result of a game that had not ended at the table.
    ORGANISER = "organiser"


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a table is opened with: the players, their army values, the round's
    deployment and objective, and the round's time limit."""

    names: tuple[str, str]
    army_values: tuple[int, int]
    deployment: str = ""
    objective: str = ""
    round_minutes: int = ROUND_MINUTES
    #: Equal armies: whom the server's coin named to choose the first player (rolled
    #: when the table opens, then kept with the table so it replays the same).
    coin: Side | None = None

    @property
    def format_id(self) -> str:
        return "runewars2017"

    def __post_init__(self) -> None:
        for value in self.army_values:
            check_army_value(value)
        if self.round_minutes < 1:
            raise BadInput("a round lasts at least a minute")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The game's result: the winner, both scores, the winner's MoV and each side's TP."""

    winner: Side
    scores: tuple[int, int]
    mov: tuple[int, int]
    tp: tuple[int, int]
    ended_by: EndedBy
    flurry: tuple[int, int] | None = None


Entries = tuple[tuple[int, int] | None, tuple[int, int] | None]


@dataclass(frozen=True, slots=True)
class Correction:
    """The organiser moved a decided result, saying why; `before` is the outcome it
    replaced and `entries_before` the scores it was decided on."""

    reason: str
    at_ms: int
    before: Outcome
    entries_before: Entries


@dataclass(frozen=True, slots=True)
class RwGame:
    setup: TableSetup
    phase: Phase
    #: Setup step 2: who chooses the first player, and whether a coin decided that.
    chooser: Side
    chooser_by_chance: bool
    first: Side | None = None
    #: The area the second player took (the first player has the other).
    second_area: str | None = None
    game_round: int = 0
    started_ms: int | None = None
    time_called: bool = False
    #: "Lost and Damaged Components": the organiser's extensions of this table's round
    #: time, added up, and the last one's reason as the players read it.
    extension_ms: int = 0
    extension_reason: str = ""
    ended_by: EndedBy | None = None
    #: Whose army was wholly destroyed (both, after mutual destruction).
    destroyed: tuple[bool, bool] = (False, False)
    conceded: Side | None = None
    #: Each player's entry: (army value destroyed, objective points).
    entries: Entries = (None, None)
    outcome: Outcome | None = None
    #: The organiser entered the result (a disputed score, or a correction).
    judged: bool = False
    #: Why the organiser entered it, as the players read it (may be empty).
    judged_reason: str = ""
    #: The last correction of a decided result, with what it replaced.
    correction: Correction | None = None
    #: Equal scores: the hits each player says they rolled in the Final Flurry.
    flurry_hits: tuple[int | None, int | None] = (None, None)
    #: Both players rolled this many hits: the Final Flurry is rolled again.
    flurry_tie: int | None = None
    #: Each player agreed to the result as their phones worked it out.
    confirmed: tuple[bool, bool] = (False, False)
    #: Each player's reason for disputing the result (None: no dispute).
    disputed: tuple[str | None, str | None] = (None, None)
    #: A player asked to step the round counter back; the other player's agreement
    #: (or the organiser) steps it back.
    step_back: Side | None = None

    @property
    def settled(self) -> bool:
        """The result stands: both players confirmed it, or the organiser entered it."""
        return self.outcome is not None and (self.judged or all(self.confirmed))

    @property
    def in_dispute(self) -> bool:
        return any(reason is not None for reason in self.disputed)

    @property
    def format_id(self) -> str:
        return "runewars2017"

    @property
    def second(self) -> Side | None:
        return None if self.first is None else self.first.other

    def area_of(self, side: Side) -> str | None:
        if self.second_area is None or self.first is None:
            return None
        if side is self.first.other:
            return self.second_area
        return next(a for a in AREAS if a != self.second_area)

    @property
    def limit_ms(self) -> int:
        return self.setup.round_minutes * MINUTE_MS + self.extension_ms

    def ends_ms(self) -> int | None:
        return None if self.started_ms is None else self.started_ms + self.limit_ms

    def time_left_ms(self, now_ms: int) -> int | None:
        end = self.ends_ms()
        return None if end is None else max(0, end - now_ms)


def new_game(setup: TableSetup, rng: random.Random) -> RwGame:
    """Setup step 2: the lower army total chooses the first player; equal totals, a coin
    (the server's dice, `rng`) names who chooses."""
    a, b = setup.army_values
    if a != b:
        chooser = Side.P1 if a < b else Side.P2
        return RwGame(
            setup=setup, phase=Phase.FIRST_PLAYER, chooser=chooser, chooser_by_chance=False
        )
    if setup.coin is None:
        setup = replace(setup, coin=Side.P1 if rng.random() < 0.5 else Side.P2)
    assert setup.coin is not None
    return RwGame(setup=setup, phase=Phase.FIRST_PLAYER, chooser=setup.coin, chooser_by_chance=True)
