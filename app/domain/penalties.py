"""Warnings and penalties: what the EO records against a player, and what each does.

The documents' words (steamroller-2019.txt and masters-champions-2019.txt,
Sportsmanship): unsporting behaviour "will lead to a warning, loss of the game, or
immediate disqualification, at the discretion of the EO". A warning changes nothing
but the record. A game loss: the player loses the game of the round named. A
disqualification: the player is dropped, not paired again, and "not eligible for any
awards or prizes" (ST3). Iron Gauntlet 2014 (DC5): "A player who pauses his chess
clock receives one warning. Upon a second infraction he loses the game": the table
keeps those warnings (app.domain.judge); the record shows them beside the EO's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.domain.errors import BadInput, RuleError

REASON_LENGTH = 300


class Kind(StrEnum):
    WARNING = "warning"
    GAME_LOSS = "game_loss"
    DISQUALIFICATION = "disqualification"

    @property
    def words(self) -> str:
        return _WORDS[self]

    @property
    def effect(self) -> str:
        """What it does, in the documents' words."""
        return _EFFECTS[self]


_WORDS = {
    Kind.WARNING: "Warning",
    Kind.GAME_LOSS: "Game loss",
    Kind.DISQUALIFICATION: "Disqualification",
}

_EFFECTS = {
    Kind.WARNING: "recorded; nothing else changes",
    Kind.GAME_LOSS: "the player loses the game of the round named",
    Kind.DISQUALIFICATION: (
        "removed from the event: not paired again, not eligible for any award or prize"
    ),
}


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """The EO took a penalty back (recorded in error), saying why."""

    at_ms: int
    reason: str


@dataclass(frozen=True, slots=True)
class Penalty:
    """One warning or penalty against a player. `round` None: none named. `at_table`:
    the table gave it (IG2014's warnings for pausing), not the EO's record."""

    player: str
    kind: Kind
    round: int | None
    reason: str
    at_ms: int
    at_table: bool = False
    withdrawn: Withdrawal | None = None

    @property
    def standing(self) -> bool:
        return self.withdrawn is None


def parse_kind(word: str) -> Kind:
    try:
        return Kind(word)
    except ValueError:
        raise BadInput("a penalty is a warning, a game loss or a disqualification") from None


def check_reason(reason: str) -> str:
    """The EO's reason, required: every penalty and withdrawal says why."""
    said = reason.strip()
    if not said:
        raise BadInput("say why: the reason is kept with the record")
    if len(said) > REASON_LENGTH:
        raise BadInput(f"the reason is too long ({REASON_LENGTH} characters at most)")
    return said


def check_new(
    kind: Kind,
    player: str,
    round_number: int | None,
    name: str,
    standing: Sequence[Penalty],
    opponent: str | None = None,
) -> None:
    """Refuse a penalty that cannot stand beside the player's standing ones (and, for a
    game loss, the opponent's): one game is lost once, by one player; one disqualification."""
    mine = [p for p in standing if p.player == player and p.standing]
    if kind is Kind.GAME_LOSS:
        if round_number is None:
            raise BadInput("name the round whose game the player loses")
        if any(p.kind is Kind.GAME_LOSS and p.round == round_number for p in mine):
            raise RuleError(f"{name} already has a game loss in round {round_number}")
        if opponent is not None and any(
            p.player == opponent
            and p.standing
            and p.kind is Kind.GAME_LOSS
            and p.round == round_number
            for p in standing
        ):
            raise RuleError(
                f"the opponent already lost this game as a penalty in round {round_number}: "
                "withdraw that one first"
            )
    if kind is Kind.DISQUALIFICATION and any(p.kind is Kind.DISQUALIFICATION for p in mine):
        raise RuleError(f"{name} is already disqualified")


def check_withdraw(penalty: Penalty) -> None:
    if penalty.at_table:
        raise RuleError(
            "a warning the table gave for pausing stays in the table's record: "
            "correct the game's result instead"
        )
    if penalty.withdrawn is not None:
        raise RuleError("this penalty is already withdrawn")


def pause_record(warnings: int, lose: int) -> tuple[Kind, ...]:
    """DC5 (IG2014): a table's warnings for pausing as the record lists them: each a
    warning, but the one that reaches `lose` (the second), which loses the game."""
    return tuple(Kind.GAME_LOSS if n == lose else Kind.WARNING for n in range(1, warnings + 1))
