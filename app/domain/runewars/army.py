"""The regulations' "Army Building": an army list as an event that asks for lists takes
it, and its checks. "An army cannot exceed 200 points", its figures come "from only one
faction", it "cannot contain more than two unique units", and it includes "four terrain
cards" of which "the total capacity of any combination of two chosen terrain cards
cannot exceed 6". Each refusal says the rule in plain words.

A list is text, one line a card: a unit as `name, faction, points` (its points with its
upgrade cards), `, unique` after a unique unit; a terrain card as `Terrain: name,
capacity`. There is no card database here: the list says each unit's faction, points
and uniqueness, and each terrain card's capacity."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from app.domain.errors import BadInput
from app.domain.runewars.rules import MOST_ARMY_POINTS

MOST_UNIQUE_UNITS = 2
TERRAIN_CARDS = 4
MOST_TWO_TERRAIN_CAPACITY = 6
MOST_LINES = 60


@dataclass(frozen=True, slots=True)
class Unit:
    name: str
    faction: str
    points: int
    unique: bool = False


@dataclass(frozen=True, slots=True)
class TerrainCard:
    name: str
    capacity: int


@dataclass(frozen=True, slots=True)
class ArmyList:
    units: tuple[Unit, ...]
    terrain: tuple[TerrainCard, ...]

    @property
    def points(self) -> int:
        return sum(u.points for u in self.units)


def _number(text: str, what: str, line: str) -> int:
    if not text.strip().isdigit():
        raise BadInput(f"{what} is a whole number, not {text.strip()!r} (in {line!r})")
    return int(text.strip())


def _terrain(line: str) -> TerrainCard:
    parts = [p.strip() for p in line.split(":", 1)[1].split(",")]
    if len(parts) != 2 or not parts[0]:
        raise BadInput(f"a terrain card is 'Terrain: name, capacity', not {line!r}")
    return TerrainCard(parts[0], _number(parts[1], "a terrain card's capacity", line))


def _unit(line: str) -> Unit:
    parts = [p.strip() for p in line.split(",")]
    unique = len(parts) == 4 and parts[3].lower() == "unique"
    if len(parts) not in (3, 4) or (len(parts) == 4 and not unique) or not all(parts[:2]):
        raise BadInput(f"a unit is 'name, faction, points' (', unique' after it), not {line!r}")
    return Unit(parts[0], parts[1], _number(parts[2], "a unit's points", line), unique)


def parse(text: str) -> ArmyList:
    """The list's lines as units and terrain cards (the format's errors say the line)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise BadInput("this event asks each player for an army list: its units and terrain")
    if len(lines) > MOST_LINES:
        raise BadInput(f"an army list has at most {MOST_LINES} lines")
    units, terrain = [], []
    for line in lines:
        if line.lower().startswith("terrain:"):
            terrain.append(_terrain(line))
        else:
            units.append(_unit(line))
    return ArmyList(tuple(units), tuple(terrain))


def problems(army: ArmyList) -> list[str]:
    """Every rule of Army Building the list breaks, in plain words (empty: none)."""
    found = []
    if not army.units:
        found.append("an army has at least one unit")
    if army.points > MOST_ARMY_POINTS:
        found.append(f"an army cannot exceed {MOST_ARMY_POINTS} points: this one is {army.points}")
    factions = sorted({u.faction for u in army.units}, key=str.lower)
    if len({f.lower() for f in factions}) > 1:
        found.append(
            "an army has figures from only one faction: this one has " + " and ".join(factions)
        )
    unique = [u.name for u in army.units if u.unique]
    if len(unique) > MOST_UNIQUE_UNITS:
        found.append(
            f"an army cannot contain more than {MOST_UNIQUE_UNITS} unique units: this one has "
            f"{len(unique)} ({', '.join(unique)})"
        )
    if len(army.terrain) != TERRAIN_CARDS:
        found.append(
            f"an army includes {TERRAIN_CARDS} terrain cards: this one has {len(army.terrain)}"
        )
    for a, b in combinations(army.terrain, 2):
        if a.capacity + b.capacity > MOST_TWO_TERRAIN_CAPACITY:
            found.append(
                f"no two terrain cards may total a capacity over {MOST_TWO_TERRAIN_CAPACITY}: "
                f"{a.name} ({a.capacity}) and {b.name} ({b.capacity}) make "
                f"{a.capacity + b.capacity}"
            )
            break
    return found


def check(text: str) -> ArmyList:
    """The list, or a refusal naming every rule it breaks."""
    army = parse(text)
    broken = problems(army)
    if broken:
        raise BadInput("this army list is not legal: " + "; ".join(broken))
    return army
