"""A game without an event: what the players ask for, and the setup it makes."""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.domain.errors import BadInput
from app.domain.formats import MINUTE_MS, get_format
from app.domain.game import Setup

MAX_CLOCK_MS = 6 * 60 * MINUTE_MS
#: What a quick game calls players whose names were left blank: their order of play.
UNNAMED = ("First player", "Second player")
#: Why a game whose order is not settled at creation needs both names.
NAMES_NEEDED = (
    "write both players' names: {why}, and the phones, the log and the result call "
    "each player by name"
)


def both_named(p1_name: str, p2_name: str, why: str) -> None:
    """A game that settles who goes first at the table needs both names first."""
    if not (p1_name.strip() and p2_name.strip()):
        raise BadInput(NAMES_NEEDED.format(why=why))


@dataclass(frozen=True, slots=True)
class QuickGame:
    """A game without an event: format, clock and scenario as the players choose."""

    format_id: str = "sr2019"
    points: int | None = None
    clock_minutes: float | None = None
    clock_seconds: int | None = None
    scenario: str = "random"
    #: Blank: the players are called by their order, which a game without a pre-game
    #: settles here (the first name takes the first turn): never by a seat's number.
    p1_name: str = ""
    p2_name: str = ""
    army_points: int | None = None
    #: Games whose players bring armies of their own value (Runewars: at most 200 each).
    p1_army: int | None = None
    p2_army: int | None = None
    #: SR2019 event variants (app.domain.variants), e.g. Classic Turn Timing.
    variants: tuple[str, ...] = ()

    def setup(self, rng: random.Random) -> Setup:
        fmt = get_format(self.format_id)
        points = fmt.default_points if self.points is None else self.points
        if self.clock_seconds is not None and self.clock_minutes is not None:
            raise BadInput("give the custom clock in minutes or in seconds, not both")
        if self.clock_seconds is not None:
            clock_ms = self.clock_seconds * 1000
        elif self.clock_minutes is not None:
            clock_ms = round(self.clock_minutes * MINUTE_MS)
        else:
            clock_ms = fmt.player_clock_ms(points)
        if not 0 < clock_ms <= MAX_CLOCK_MS:
            raise BadInput("the player clock must be between 1 second and 6 hours")
        if self.scenario in ("", "random"):
            scenario_id = rng.choice(fmt.scenarios).id
        else:
            scenario_id = fmt.scenario(self.scenario).id
        names = (self.p1_name.strip() or UNNAMED[0], self.p2_name.strip() or UNNAMED[1])
        if any(len(n) > 60 for n in names):
            raise BadInput("player names are 60 characters at most")
        army = points if self.army_points is None else self.army_points
        if not 0 <= army <= 1000:
            raise BadInput("army points must be between 0 and 1000")
        return Setup(
            format_id=fmt.id,
            scenario_id=scenario_id,
            player_clock_ms=clock_ms,
            army_points=army,
            names=names,
            variants=self.variants,
        )
