"""Where a scenario's elements stand on the 48"×48" table, in the documents' inches.

A spot is measured as players measure it at the table: inches across from the left
table edge, and inches deep from P1's table edge (P2's edge is 48" deep; "north" is
toward P2's edge, "east" to the right). A shape whose spot is None has the size the
document gives but no position: its document places it "in accordance with the
diagram", and the diagram is not in the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

#: The table, square, in inches.
TABLE_INCHES = 48
CENTRE = TABLE_INCHES / 2


class ShapeKind(StrEnum):
    CIRCLE = "circle"
    RECTANGLE = "rectangle"
    LINE = "line"
    MARKER = "marker"


@dataclass(frozen=True, slots=True)
class Spot:
    """An element's centre: inches across from the left edge, deep from P1's edge."""

    across: float
    deep: float


@dataclass(frozen=True, slots=True)
class Shape:
    """An element's outline. Circle: `across` is its diameter; rectangle: its width
    across the table and its depth toward the players' edges; line: its length (east
    to west); marker (a flag, objective or control point): its base in mm, and `reach`
    the distance around it that counts."""

    kind: ShapeKind
    across: float = 0
    deep: float = 0
    at: Spot | None = None
    reach: float = 0
    base_mm: int = 0


def circle(diameter: float, at: Spot | None = None) -> Shape:
    return Shape(ShapeKind.CIRCLE, diameter, diameter, at)


def rectangle(across: float, deep: float, at: Spot | None = None) -> Shape:
    return Shape(ShapeKind.RECTANGLE, across, deep, at)


def line(length: float, at: Spot | None = None, reach: float = 0) -> Shape:
    return Shape(ShapeKind.LINE, length, 0, at, reach)


def marker(reach: float, at: Spot | None = None, base_mm: int = 0) -> Shape:
    return Shape(ShapeKind.MARKER, 0, 0, at, reach, base_mm)


class Edges(StrEnum):
    """Which table edges a kill box is measured from."""

    OWN = "own"
    ANY = "any"


@dataclass(frozen=True, slots=True)
class Layout:
    """What a scenario's table shows besides its elements, as its document says: how deep
    each deployment zone reaches from its edge (None: the document does not say), the
    kill box's band (None: no kill box), and the document's section it comes from."""

    source: str
    deployment: float | None = None
    kill_box: float | None = None
    kill_box_edges: Edges = Edges.OWN


#: A scenario whose document says nothing of its table.
NO_LAYOUT = Layout("")


def shape_data(shape: Shape | None) -> dict[str, object] | None:
    """A shape as the phones read it."""
    if shape is None:
        return None
    at = None if shape.at is None else {"across": shape.at.across, "deep": shape.at.deep}
    return {
        "kind": shape.kind.value,
        "across": shape.across,
        "deep": shape.deep,
        "at": at,
        "reach": shape.reach,
        "base_mm": shape.base_mm,
    }


def layout_data(layout: Layout) -> dict[str, object]:
    return {
        "table": TABLE_INCHES,
        "source": layout.source,
        "deployment": layout.deployment,
        "kill_box": layout.kill_box,
        "kill_box_edges": layout.kill_box_edges.value,
    }
