"""Every format's scenarios: the table the phones draw is the one the rules score.

Each element the rules score has a shape on the 48"×48" table, and the table has no
element the rules do not score (the drawing reads the same `Element`s). Sizes and spots
are checked against each document's own numbers, section by section; where a document
places its elements only "in accordance with the diagram" (Steamroller 2019, Masters and
Champions, Iron Gauntlet 2014: their text has no diagrams), the elements have their
sizes and no spot.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.domain.formats import FORMATS
from app.domain.scenarios import Element, table_plan
from app.domain.table_layout import TABLE_INCHES, Edges, Shape, ShapeKind, Spot

#: The documents, beside the repository (shared/seeds); a check that quotes them is
#: skipped where they are not.
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _document(name: str) -> str:
    path = SEEDS / name
    if not path.exists():
        pytest.skip(f"{name} is not beside the repository")
    return path.read_text()


ALL = [(f.id, s) for f in FORMATS.values() for s in f.scenarios]


def _id(case: object) -> str:
    return case if isinstance(case, str) else getattr(case, "id", str(case))


@pytest.mark.parametrize(("format_id", "scenario"), ALL, ids=_id)
def test_every_element_the_rules_score_is_on_the_table_and_nothing_else(
    format_id: str, scenario: object
) -> None:
    plan = table_plan(scenario)  # type: ignore[arg-type]
    elements: tuple[Element, ...] = scenario.elements  # type: ignore[attr-defined]
    shapes = plan["shapes"]
    assert isinstance(shapes, dict)
    assert list(shapes) == [e.id for e in elements]
    for e in elements:
        assert e.shape is not None, f"{format_id} {e.name} has no place on the table"
        assert shapes[e.id] is not None
    assert plan["table"] == TABLE_INCHES
    assert plan["source"], f"{format_id} {scenario.id}: no document section"  # type: ignore[attr-defined]


def _inside(shape: Shape) -> None:
    """A placed shape lies on the table."""
    assert shape.at is not None
    half_across = shape.across / 2 if shape.kind is not ShapeKind.MARKER else shape.reach
    half_deep = shape.deep / 2 if shape.kind is not ShapeKind.MARKER else shape.reach
    assert shape.at.across - half_across >= 0 and shape.at.across + half_across <= TABLE_INCHES
    assert shape.at.deep - half_deep >= 0 and shape.at.deep + half_deep <= TABLE_INCHES


@pytest.mark.parametrize(("format_id", "scenario"), ALL, ids=_id)
def test_placed_elements_lie_on_the_table(format_id: str, scenario: object) -> None:
    for e in scenario.elements:  # type: ignore[attr-defined]
        if e.shape.at is not None:
            _inside(e.shape)


# -- Steamroller 2019, Masters and Champions 2019 ---------------------------------

SR_FORMATS = ("sr2019", "masters2019", "champions2019")

#: Each page's "Scenario Elements": (rectangular zones, circular zones, flags, objectives).
SR_PAGES = {
    "king-of-the-hill": (2, 1, 1, 2),  # "Scenario 1 King of the Hill"
    "bunkers": (2, 0, 3, 2),  # "Scenario 2 Bunkers"
    "spread-the-net": (2, 1, 2, 0),  # "Scenario 3 Spread the Net"
    "invasion": (1, 2, 0, 2),  # "Scenario 4 Invasion"
    "anarchy": (0, 2, 2, 2),  # "Scenario 5 Anarchy"
    "recon-ii": (2, 0, 2, 2),  # "Scenario 6 Recon II"
}


def _counts(elements: tuple[Element, ...]) -> tuple[int, int, int, int]:
    kinds = [(e.kind.value, e.shape.kind if e.shape else None) for e in elements]
    return (
        kinds.count(("zone", ShapeKind.RECTANGLE)),
        kinds.count(("zone", ShapeKind.CIRCLE)),
        kinds.count(("flag", ShapeKind.MARKER)),
        kinds.count(("objective", ShapeKind.MARKER)),
    )


@pytest.mark.parametrize("format_id", SR_FORMATS)
def test_steamroller_pages_mark_their_zones_flags_and_objectives(format_id: str) -> None:
    """'Mark two rectangular zones (6" × 12"), one circular zone (12" diameter)...'; a
    flag is contested within 4" ("Flags"); the kill box is within 12" of a player's own
    table edge (TS3)."""
    rules = FORMATS[format_id]
    assert {s.id: _counts(s.elements) for s in rules.scenarios} == SR_PAGES
    for s in rules.scenarios:
        assert s.layout.source == f"Steamroller 2019, Scenario {s.roll}: {s.name}"
        assert (s.layout.kill_box, s.layout.kill_box_edges) == (12, Edges.OWN)
        assert '12"' in rules.kill_box.question
        for e in s.elements:
            assert e.shape is not None and e.shape.at is None  # the text has no diagram
            if e.shape.kind is ShapeKind.RECTANGLE:
                assert sorted((e.shape.across, e.shape.deep)) == [6, 12]
            if e.shape.kind is ShapeKind.CIRCLE:
                assert e.shape.across == e.shape.deep == 12
            if e.kind.value == "flag":
                assert e.shape.reach == 4


# -- Iron Gauntlet 2014 --------------------------------------------------------------

#: Each page: (rectangular zones, circular zones, flags, objectives), its kill box.
IG_PAGES = {
    "destruction": ((1, 0, 0, 2), True),  # "Scenario 1: Destruction", Kill Box: YES
    "balance-of-power": ((1, 0, 2, 0), False),  # "Scenario 2: Balance of Power"
    "close-quarters": ((0, 0, 2, 0), True),  # "Scenario 3: Close Quarters"
    "incursion": ((0, 0, 3, 0), False),  # "Scenario 4: Incursion"
    "outflank": ((0, 2, 0, 0), False),  # "Scenario 5: Outflank"
    "fire-support": ((0, 0, 2, 2), True),  # "Scenario 6: Fire Support"
}


def test_iron_gauntlet_pages_mark_their_zones_flags_and_objectives() -> None:
    """'Mark a zone (12" × 6" rectangle)', 'two zones (12"-diameter circles)'; 'FLAG (40
    MM BASE)', contested within 4" of a flag or an objective; 'Kill Box: YES': within
    14" of any table edge."""
    rules = FORMATS["ig2014"]
    pages = {s.id: (_counts(s.elements), s.kill_box) for s in rules.scenarios}
    assert pages == IG_PAGES
    for s in rules.scenarios:
        assert s.layout.source == f"Iron Gauntlet 2014, Scenario {s.roll}: {s.name}"
        assert s.layout.kill_box == (14 if s.kill_box else None)
        assert s.layout.kill_box_edges is Edges.ANY
        for e in s.elements:
            assert e.shape is not None and e.shape.at is None
            if e.shape.kind is ShapeKind.RECTANGLE:
                assert (e.shape.across, e.shape.deep) == (12, 6)
            if e.shape.kind is ShapeKind.CIRCLE:
                assert e.shape.across == 12
            if e.kind.value == "flag":
                assert (e.shape.base_mm, e.shape.reach) == (40, 4)
            if e.kind.value == "objective":
                assert e.shape.reach == 4


# -- The legacy pages ------------------------------------------------------------------

C = TABLE_INCHES / 2

#: Each page's words, and where they put each element: (kind, across, deep, spot, reach).
LEGACY = {
    # 2. Capture the Flag: "a Flag (30 mm base) centered 14" from his table edge";
    # "no models within 3" of the same Flag".
    "capture-the-flag": {
        "flag-p1": (ShapeKind.MARKER, 0, 0, Spot(C, 14), 3),
        "flag-p2": (ShapeKind.MARKER, 0, 0, Spot(C, 48 - 14), 3),
    },
    # 3. Command Positions: "two points on the centerline of the table, one 12" from the
    # left table edge and one 12" from the right table edge. The areas within 5"".
    "command-positions": {
        "zone-left": (ShapeKind.CIRCLE, 10, 10, Spot(12, C), 0),
        "zone-right": (ShapeKind.CIRCLE, 10, 10, Spot(48 - 12, C), 0),
    },
    # 5. Engines of Destruction: "completely within 8" of the Center Point".
    "engines-of-destruction": {"centre-zone": (ShapeKind.CIRCLE, 16, 16, Spot(C, C), 0)},
    # 6. Fine Line: "a 24" Line running east to west at the center"; "within 2"".
    "fine-line": {"line": (ShapeKind.LINE, 24, 0, Spot(C, C), 2)},
    # 7. Frontline Foray: "a centerline running east to west ... four 12" Line Sections".
    "frontline-foray": {
        f"line-{n}": (ShapeKind.LINE, 12, 0, Spot(12 * n - 6, C), 0) for n in range(1, 5)
    },
    # 8. Gauntlet: "an 8" wide area running north to south in the center ... four equal
    # 8" x 12" sections"; the sections at each player's edge, then at the centerline.
    "gauntlet": {
        "gauntlet-p1-edge": (ShapeKind.RECTANGLE, 8, 12, Spot(C, 6), 0),
        "gauntlet-p1-centre": (ShapeKind.RECTANGLE, 8, 12, Spot(C, 18), 0),
        "gauntlet-p2-centre": (ShapeKind.RECTANGLE, 8, 12, Spot(C, 30), 0),
        "gauntlet-p2-edge": (ShapeKind.RECTANGLE, 8, 12, Spot(C, 42), 0),
    },
    # 9. Inner Turmoil: "between the deployment zones into four 12"-wide Territories
    # running north to south" (deployment zones 10" deep: 13. Scattered Lines).
    "inner-turmoil": {
        f"territory-{n}": (ShapeKind.RECTANGLE, 12, 28, Spot(12 * n - 6, C), 0) for n in range(1, 5)
    },
    # 11. No Man's Land: "a 8"-wide area, running east to west, centered on the table".
    "no-mans-land": {"no-mans-land": (ShapeKind.RECTANGLE, 48, 8, Spot(C, C), 0)},
    # 12. Power Play: "within 6" of the center point".
    "power-play": {"centre-zone": (ShapeKind.CIRCLE, 12, 12, Spot(C, C), 0)},
    # 14. Transverse Assault: "a Control Point at the center of the table and four
    # additional Control Points 12" to the north, east, south, and west"; "within 2"".
    "transverse-assault": {
        "point-north": (ShapeKind.MARKER, 0, 0, Spot(C, C + 12), 2),
        "point-east": (ShapeKind.MARKER, 0, 0, Spot(C + 12, C), 2),
        "point-south": (ShapeKind.MARKER, 0, 0, Spot(C, C - 12), 2),
        "point-west": (ShapeKind.MARKER, 0, 0, Spot(C - 12, C), 2),
        "point-centre": (ShapeKind.MARKER, 0, 0, Spot(C, C), 2),
    },
    # 15. Unlikely Alliance: as Command Positions.
    "unlikely-alliance": {
        "zone-left": (ShapeKind.CIRCLE, 10, 10, Spot(12, C), 0),
        "zone-right": (ShapeKind.CIRCLE, 10, 10, Spot(48 - 12, C), 0),
    },
    # 16. Workin' in a Coal Mine: "a centerline running north to south ... two Control
    # Points along the centerline of the table starting 16" from the table edge and
    # spaced 16" apart"; "within 3"".
    "workin-in-a-coal-mine": {
        "mine-1": (ShapeKind.MARKER, 0, 0, Spot(C, 16), 3),
        "mine-2": (ShapeKind.MARKER, 0, 0, Spot(C, 32), 3),
    },
}

#: Won by assassination only: nothing on the table but the deployment zones.
LEGACY_EMPTY = ("bodyguard", "daybreak", "nightfall", "scattered-lines")


def test_legacy_pages_put_each_element_where_the_page_says() -> None:
    rules = FORMATS["legacy"]
    assert {s.id for s in rules.scenarios} == set(LEGACY) | set(LEGACY_EMPTY)
    for s in rules.scenarios:
        assert s.layout.source == f"Legacy scenarios, {s.roll}. {s.name}"
        assert s.layout.kill_box is None
        if s.id in LEGACY_EMPTY:
            assert s.elements == ()
            continue
        drawn = {
            e.id: (e.shape.kind, e.shape.across, e.shape.deep, e.shape.at, e.shape.reach)
            for e in s.elements
            if e.shape is not None
        }
        assert drawn == LEGACY[s.id], s.id


def test_legacy_deployment_zones_are_10_inches_and_16_in_scattered_lines() -> None:
    """13. Scattered Lines: "A player's deployment zone extends 16" from his table edge
    instead of 10"."""
    depths = {s.id: s.layout.deployment for s in FORMATS["legacy"].scenarios}
    assert depths.pop("scattered-lines") == 16
    assert set(depths.values()) == {10}


def test_the_quoted_words_are_the_documents() -> None:
    """The numbers above are the documents' own: each quoted phrase is in its document."""
    for name, phrases in QUOTED.items():
        text = " ".join(_document(name).split())
        for words in phrases:
            assert words in text, (name, words)


QUOTED = {
    "steamroller-2019.txt": (
        'Mark two rectangular zones (6" × 12"), one circular zone (12" diameter)',
        'within 4" of a flag',
        'completely within 12" of his table edge',
        "and two objectives in accordance with the diagram below",
    ),
    "iron-gauntlet-2014.txt": (
        'Mark a zone (12" × 6" rectangle)',
        'Mark two zones (12"-diameter circles)',
        "FLAG (40 MM BASE)",
        'within 4" of a flag or an objective',
        'completely within 14" of any table edge',
        "Critical Asset objectives in accordance with the diagram below",
    ),
    "runewars-tournament-regulations-2017.txt": (
        "players should bring the legal deployment cards and objective cards",
    ),
    "legacy-scenarios.txt": (
        'extends 16" from his table edge instead of 10"',
        'Flag (30 mm base) centered 14" from his table edge',
        'one 12" from the left table edge and one 12" from the right table edge',
        'completely within 8" of the Center Point',
        'mark a 24" Line running east to west at the center of the table',
        'Divide the centerline into four 12" Line Sections',
        'Divide the Gauntlet into four equal 8" x 12" sections',
        'four 12"-wide Territories running north to south',
        'Mark a 8"-wide area, running east to west, centered on the table',
        'within 6" of the center point',
        'four additional Control Points 12" to the north, east, south, and west',
        'starting 16" from the table edge and spaced 16" apart',
    ),
}


def test_runewars_has_no_scenario_layout() -> None:
    """Runewars deployments and objectives are cards the document only names ("Legal
    Deployments and Objectives"): nothing to draw."""
    assert "runewars" not in FORMATS
