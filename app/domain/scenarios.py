"""Scenarios as data: their scoring elements and special rules.

The SR2019 documents give element shapes and counts; positions are only in the
diagrams, so elements are named by shape and number (“Rectangular zone 1”).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ElementKind(StrEnum):
    ZONE = "zone"
    FLAG = "flag"
    OBJECTIVE = "objective"


@dataclass(frozen=True, slots=True)
class Element:
    id: str
    kind: ElementKind
    name: str
    control_cp: int = 1


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    roll: int
    elements: tuple[Element, ...]
    kill_box: bool = True

    @property
    def controllable(self) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.kind is not ElementKind.OBJECTIVE)

    @property
    def objectives(self) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.kind is ElementKind.OBJECTIVE)

    def element(self, element_id: str) -> Element | None:
        return next((e for e in self.elements if e.id == element_id), None)


def _zones(rectangles: int, circles: int) -> list[Element]:
    zones = [
        Element(f"rect-{n}", ElementKind.ZONE, f'Rectangular zone {n} (6"×12")')
        for n in range(1, rectangles + 1)
    ]
    zones += [
        Element(f"circle-{n}", ElementKind.ZONE, f'Circular zone {n} (12")')
        for n in range(1, circles + 1)
    ]
    return zones


def _flags(count: int) -> list[Element]:
    return [Element(f"flag-{n}", ElementKind.FLAG, f"Flag {n}") for n in range(1, count + 1)]


def _objectives() -> list[Element]:
    return [
        Element("objective-p1", ElementKind.OBJECTIVE, "P1's objective"),
        Element("objective-p2", ElementKind.OBJECTIVE, "P2's objective"),
    ]


def _sr2019(
    roll: int, sid: str, name: str, rects: int, circles: int, flags: int, objectives: bool
) -> Scenario:
    elements = _zones(rects, circles) + _flags(flags) + (_objectives() if objectives else [])
    return Scenario(id=sid, name=name, roll=roll, elements=tuple(elements))


SR2019_SCENARIOS: tuple[Scenario, ...] = (
    _sr2019(1, "king-of-the-hill", "King of the Hill", 2, 1, 1, True),
    _sr2019(2, "bunkers", "Bunkers", 2, 0, 3, True),
    _sr2019(3, "spread-the-net", "Spread the Net", 2, 1, 2, False),
    _sr2019(4, "invasion", "Invasion", 1, 2, 0, True),
    _sr2019(5, "anarchy", "Anarchy", 0, 2, 2, True),
    _sr2019(6, "recon-ii", "Recon II", 2, 0, 2, True),
)
