"""The Runewars 2017 tournament regulations as numbers: round times (DC11), the end of a
game and its score (TS11), margin of victory and tournament points (ST5), byes, round
counts and cuts, deployments and objectives (RP6)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.domain.errors import BadInput, RuleError

MINUTE_MS = 60_000

#: DC11: a Swiss or elimination round is 90 minutes; the final elimination round 140.
ROUND_MINUTES = 90
FINAL_MINUTES = 140

#: "Lost and Damaged Components": a short time extension for one table, at most this
#: many minutes each time the organiser gives one.
MOST_EXTENSION_MINUTES = 30

#: TS11: the game ends after the eighth game round.
LAST_GAME_ROUND = 8

#: An army cannot exceed 200 points; destroying every unit scores 200.
MOST_ARMY_POINTS = 200
ALL_DESTROYED = 200

#: ST5: (lowest MoV, TP for the win, TP for the loss), highest band first.
TP_TABLE: tuple[tuple[int, int, int], ...] = (
    (150, 10, 1),
    (110, 9, 2),
    (70, 8, 3),
    (30, 7, 4),
    (0, 6, 5),
)

#: RP6: a bye, and a concession whose winner led by less, is a win of 8 TP and MoV 70.
BYE_TP = 8
BYE_MOV = 70
CONCESSION_KEEPS_FROM = 70

#: The 2017 season (from July 19th): the legal deployments and objectives.
DEPLOYMENTS = ("Battle Lines", "Careful Approach", "Hammer and Anvil")
OBJECTIVES = ("Bounty", "Break Their Defenses", "Supply Raid")


@dataclass(frozen=True, slots=True)
class Season:
    """Legal Deployments and Objectives: the cards a season's rounds are drawn from."""

    id: str
    name: str
    deployments: tuple[str, ...]
    objectives: tuple[str, ...]


#: The seasons the regulations list: from July 19th, 2017, and from October 2017.
SEASONS: dict[str, Season] = {
    s.id: s
    for s in (
        Season("july2017", "July 2017", DEPLOYMENTS, OBJECTIVES),
        Season(
            "october2017",
            "October 2017",
            ("Careful Approach", "Hammer and Anvil", "Standoff"),
            ("Bounty", "Supply Raid", "Demoralize Their Forces"),
        ),
    )
}
FIRST_SEASON = "july2017"


def season(season_id: str) -> Season:
    """The season by its id; refused in the organiser's words."""
    found = SEASONS.get(season_id)
    if found is None:
        names = " or ".join(s.name for s in SEASONS.values())
        raise BadInput(f"the season of deployments and objectives is {names}")
    return found


#: The deployment areas the second player chooses between.
AREAS = ("red", "blue")


class Stage(StrEnum):
    SWISS = "swiss"
    ELIMINATION = "elimination"


def round_minutes(stage: Stage, final: bool) -> int:
    """DC11: the round's time limit."""
    return FINAL_MINUTES if stage is Stage.ELIMINATION and final else ROUND_MINUTES


def margin_of_victory(winner_score: int, loser_score: int) -> int:
    """ST5: the winner's score less the loser's, never below 0 nor above 200."""
    return max(0, min(ALL_DESTROYED, winner_score - loser_score))


def tournament_points(mov: int, won: bool) -> int:
    """ST5: TP by the winner's margin of victory, for the winner or the loser."""
    if not 0 <= mov <= ALL_DESTROYED:
        raise BadInput(f"a margin of victory is 0 to 200, not {mov}")
    for lowest, win, loss in TP_TABLE:
        if mov >= lowest:
            return win if won else loss
    raise AssertionError("the table starts at 0")  # pragma: no cover


def score(destroyed: int, objectives: int, everything_destroyed: bool = False) -> int:
    """TS11: army value destroyed (all destroyed counts 200) plus objective points."""
    if destroyed < 0 or objectives < 0:
        raise BadInput("army points destroyed and objective points cannot be negative")
    if destroyed > MOST_ARMY_POINTS:
        raise BadInput(f"no army is worth more than {MOST_ARMY_POINTS} points")
    return (ALL_DESTROYED if everything_destroyed else destroyed) + objectives


def check_army_value(points: int) -> int:
    """An army cannot exceed 200 points."""
    if not 1 <= points <= MOST_ARMY_POINTS:
        raise BadInput(f"an army is worth 1 to {MOST_ARMY_POINTS} points, not {points}")
    return points


class Structure(StrEnum):
    BASIC = "basic"
    ADVANCED = "advanced"
    CUSTOM = "custom"


#: RP6: (fewest players, Swiss rounds, cut) for the Basic and Advanced structures.
BASIC = ((4, 2, 0), (9, 3, 0), (33, 4, 0), (49, 5, 0))
ADVANCED = ((9, 3, 0), (29, 4, 2), (45, 5, 2), (91, 5, 4))


@dataclass(frozen=True, slots=True)
class Plan:
    """How many Swiss rounds, then a cut to the top `cut` (0: no cut)."""

    swiss_rounds: int
    cut: int
    #: RP6: the structure whose table sets the rounds and the cut by attendance when the
    #: first round is paired (None: they are set).
    by_attendance: Structure | None = None

    @property
    def elimination_rounds(self) -> int:
        return max(0, self.cut - 1).bit_length()


def plan_for(structure: Structure, players: int, rounds: int | None = None, cut: int = 0) -> Plan:
    """RP6: the Swiss rounds and cut by attendance; a custom event names its own."""
    if structure is Structure.CUSTOM:
        if rounds is None or rounds < 1:
            raise BadInput("a custom structure names its Swiss rounds (at least 1)")
        if cut and (cut < 2 or cut & (cut - 1) or cut > players):
            raise BadInput(f"a cut is to the top 2, 4, 8… and no more than {players} players")
        return Plan(rounds, cut)
    table = BASIC if structure is Structure.BASIC else ADVANCED
    fits = [row for row in table if players >= row[0]]
    if not fits:
        raise RuleError(
            f"the {structure.value} structure needs at least {table[0][0]} players, not {players}"
        )
    _, count, top = fits[-1]
    return Plan(count, top)


def draw_card(cards: Sequence[str], used_in_stage: Sequence[str], rng: random.Random) -> str:
    """RP6 game setup: a card at random, not drawn again in this stage until all are used
    (then the deck starts over: `used_in_stage` is the stage's draws in order)."""
    if not cards:
        raise BadInput("there are no cards to draw from")
    done = len(used_in_stage) - len(used_in_stage) % len(cards)
    this_pass = set(used_in_stage[done:])
    return rng.choice([card for card in cards if card not in this_pass])
