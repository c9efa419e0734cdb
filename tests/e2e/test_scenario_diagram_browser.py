"""The scenario on the phone, 390×844: the scenario card draws the table from the same
elements the rules score. For every scenario of every format a table is opened and its
diagram read: one shape and one numbered badge per element, a legend line per element
with its name and size, the deployment zones and the kill box where the document gives
them. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from app.domain.formats import FORMATS
from app.tables.warmachine.view import element_name

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

#: Masters and Champions play Steamroller's six scenarios: one each is enough here.
CASES = [
    (f.id, s)
    for f in FORMATS.values()
    for s in f.scenarios
    if f.id not in ("masters2019", "champions2019") or s.roll == 1
]
SHOTS = {"king-of-the-hill", "incursion", "transverse-assault", "gauntlet"}


def _open(page: Any, live_server: str, format_id: str, scenario_id: str) -> None:
    links = httpx.post(
        f"{live_server}/api/tables",
        json={
            "format": format_id,
            "scenario": scenario_id,
            "clock_minutes": 50,
            "p1_name": "Ann",
            "p2_name": "Bob",
        },
    ).json()
    page.goto(links["p1"]["url"])


def _size(shape: Any) -> str:
    """The legend's words for a shape's size, as the page writes them."""
    if shape.kind.value == "circle":
        return f'{shape.across:g}" circle'
    if shape.kind.value == "rectangle":
        return f'{shape.across:g}" × {shape.deep:g}"'
    if shape.kind.value == "line":
        return f'{shape.across:g}" line'
    return f"{shape.base_mm} mm base" if shape.base_mm else "marker"


def test_every_scenario_diagram_matches_its_scenario(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    for format_id, scenario in CASES:
        _open(page, live_server, format_id, scenario.id)
        # The card is tapped open once the page shows this table's scenario.
        expect(page.locator("#scenario-name")).to_have_text(f"Scenario: {scenario.name}")
        page.locator("#scenario summary").click()
        expect(page.locator("#scenario")).to_have_attribute("open", "")
        box = page.locator("#scenario-diagram")
        expect(box).to_be_visible()
        svg = box.locator("svg.scenario-svg")
        expect(svg).to_have_attribute("aria-label", f"Table set-up for {scenario.name}")
        ids = [e.id for e in scenario.elements]
        shapes = svg.locator("[data-element]")
        expect(shapes).to_have_count(len(ids))
        assert [shapes.nth(i).get_attribute("data-element") for i in range(len(ids))] == sorted(
            ids, key=lambda i: (scenario.element(i).shape.at is None, ids.index(i))
        )
        badges = svg.locator("[data-badge]")
        expect(badges).to_have_count(len(ids))
        assert sorted(int(badges.nth(i).text_content() or 0) for i in range(len(ids))) == list(
            range(1, len(ids) + 1)
        )
        legend = box.locator("#scenario-legend li")
        expect(legend).to_have_count(len(ids))
        for n, e in enumerate(scenario.elements):
            line = legend.nth(n)
            assert line.get_attribute("data-element") == e.id
            expect(line).to_contain_text(f"{n + 1} {element_name(e)}")  # by order, not seat
            expect(line).to_contain_text(_size(e.shape))
            if e.shape.at is None:
                expect(line).to_contain_text("placed as the scenario sheet's diagram shows")
            else:
                expect(line).to_contain_text(f"{e.shape.at.deep:g}\" from the first player's edge")
        layout = scenario.layout
        deploy = svg.locator(".dg-deploy")
        expect(deploy).to_have_count(2 if layout.deployment else 0)
        kill = svg.locator("[data-kill-box]")
        expected_kill = 0 if not (scenario.kill_box and layout.kill_box) else 1
        if expected_kill and layout.kill_box_edges.value == "own":
            expected_kill = 2
        expect(kill).to_have_count(expected_kill)
        expect(box).to_contain_text(layout.source)
        # The drawing fits the phone's width.
        width = svg.bounding_box()["width"]
        assert 300 <= width <= PHONE["width"], (scenario.id, width)
        if scenario.id in SHOTS:
            ARTIFACTS.mkdir(exist_ok=True)
            box.screenshot(path=str(ARTIFACTS / f"scenario-diagram-{scenario.id}.png"))
    context.close()
