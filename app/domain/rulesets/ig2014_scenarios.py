"""Iron Gauntlet 2014's six scenarios (shared/seeds/iron-gauntlet-2014.txt, "Scenario 1"
to "Scenario 6"): what each puts on the table, how each element scores, and Incursion's
flag removed at random.
"""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.frozen import replace
from app.domain.scenarios import Element, ElementKind, Scenario
from app.domain.state import Game
from app.domain.table_layout import Edges, Layout, circle, marker, rectangle
from app.domain.turn_mark import TurnMark

ZONE = 'Zone (12"×6" rectangle)'

#: "Scenario Elements": a zone is a 12" × 6" rectangle or a 12"-diameter circle; a flag
#: stands on a 40 mm base and is contested within 4", as is an objective. Each scenario
#: places them "in accordance with the diagram", which the text does not have.
RECTANGLE = rectangle(12, 6)
CIRCLE = circle(12)
FLAG = marker(4, base_mm=40)
OBJECTIVE = marker(4)

#: TS3: the kill box, within 14" of any table edge.
KILL_BOX_INCHES = 14


def _zone(eid: str, name: str) -> Element:
    shape = CIRCLE if eid.startswith("circle") else RECTANGLE
    return Element(eid, ElementKind.ZONE, name, control_cp=1, dominate_cp=2, shape=shape)


def _flag(eid: str, name: str, dominate: int = 2) -> Element:
    return Element(eid, ElementKind.FLAG, name, control_cp=1, dominate_cp=dominate, shape=FLAG)


def _friendly_flags(*, dominate_cp: int = 0, penalty: int = 0) -> list[Element]:
    """A flag friendly to each player: the enemy controls it for 1 or dominates it for 2;
    its owner scores only by dominating it."""
    return [
        Element(
            f"flag-{side.name.lower()}",
            ElementKind.FLAG,
            f"{side.label}'s friendly flag",
            control_cp=1,
            dominate_cp=2,
            owner=side,
            friendly_dominate_cp=dominate_cp,
            friendly_dominate_penalty=penalty,
            shape=FLAG,
        )
        for side in Side
    ]


def _objectives(name: str) -> list[Element]:
    """The objective on each player's side is friendly to that player; destroyed by the
    enemy, it scores 1 CP once."""
    return [
        Element(
            f"objective-{s.name.lower()}",
            ElementKind.OBJECTIVE,
            f"{s.label}'s {name}",
            owner=s,
            shape=OBJECTIVE,
        )
        for s in Side
    ]


# -- Scenario 4, Incursion: a non-centre flag is removed at random ------------------

OUTER_FLAGS = ("flag-left", "flag-right")


def incursion_turn_end(game: Game) -> Game:
    """At the end of the second player's first turn, randomly remove a non-centre flag."""
    if game.mark == TurnMark(1, Side.P2):
        return replace(game, roll_due=len(OUTER_FLAGS))
    return game


def incursion_roll(game: Game, value: int) -> Game:
    return replace(game, removed=game.removed | {OUTER_FLAGS[value - 1]})


def _tiebreak_area(where: str) -> str:
    return f"3rd tiebreaker: double the army points {where}."


def _layout(number: int, name: str, kill_box: bool) -> Layout:
    """The scenario's page; a kill box within 14" of any edge where it says "YES"."""
    inches = KILL_BOX_INCHES if kill_box else None
    return Layout(f"Iron Gauntlet 2014, Scenario {number}: {name}", None, inches, Edges.ANY)


#: The six scenarios, in the order of the random scenario table (row by row).
SCENARIOS: tuple[Scenario[Game], ...] = (
    Scenario(
        "destruction",
        "Destruction",
        1,
        (_zone("zone", ZONE), *_objectives("Critical Asset")),
        kill_box=True,
        layout=_layout(1, "Destruction", True),
        rules=("Enemy objective destroyed: 1 CP (once).", _tiebreak_area("within the zone")),
    ),
    Scenario(
        "balance-of-power",
        "Balance of Power",
        2,
        (_zone("zone", ZONE), *_friendly_flags(penalty=1)),
        kill_box=False,
        layout=_layout(2, "Balance of Power", False),
        rules=(
            "Dominating your friendly flag: your opponent loses 1 CP before scoring (minimum 0).",
            "Enemy flag and zone: control 1 CP, dominate 2 CP.",
            _tiebreak_area("within the zone"),
        ),
    ),
    Scenario(
        "close-quarters",
        "Close Quarters",
        3,
        tuple(_friendly_flags(dominate_cp=1)),
        kill_box=True,
        layout=_layout(3, "Close Quarters", True),
        rules=(
            "Friendly flag: dominate 1 CP. Enemy flag: control 1 CP, dominate 2 CP.",
            _tiebreak_area('within 4" of the enemy flag'),
        ),
    ),
    Scenario(
        "incursion",
        "Incursion",
        4,
        (
            _flag("flag-left", "Left outer flag"),
            _flag("flag-centre", "Centre flag", dominate=1),
            _flag("flag-right", "Right outer flag"),
        ),
        kill_box=False,
        layout=_layout(4, "Incursion", False),
        turn_end=incursion_turn_end,
        on_roll=incursion_roll,
        rules=(
            "At the end of the second player's turn 1 the server removes an outer flag at random.",
            "Outer flag: control 1 CP, dominate 2 CP. Centre flag: control 1, dominate 1.",
            _tiebreak_area('within 4" of each flag'),
        ),
    ),
    Scenario(
        "outflank",
        "Outflank",
        5,
        (_zone("circle-1", 'Circular zone 1 (12")'), _zone("circle-2", 'Circular zone 2 (12")')),
        kill_box=False,
        layout=_layout(5, "Outflank", False),
        rules=(_tiebreak_area("within each zone"),),
    ),
    Scenario(
        "fire-support",
        "Fire Support",
        6,
        (_flag("flag-1", "Flag 1"), _flag("flag-2", "Flag 2"), *_objectives("Ammunition Cache")),
        kill_box=True,
        layout=_layout(6, "Fire Support", True),
        rules=(
            'Enemy objective destroyed: 1 CP (once). Enemy objectives contest flags within 4".',
            _tiebreak_area('within 4" of each flag'),
        ),
    ),
)
