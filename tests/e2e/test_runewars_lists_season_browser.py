"""In Chromium (1366×768): the new-event form makes a Runewars event on the October 2017
season's cards that asks for army lists (the regulations' "Legal Deployments and
Objectives" and "Army Building"); its admin page says the season and registers a player
with a list: an illegal list is refused with the rule in plain words, nothing typed is
lost, and a legal one registers the player with the list's total as army value (RP6)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

LIST = (
    "Kari Wraithstalker, Latari Elves, 44, unique\n"
    "Aymhelin Scions, Latari Elves, 60\n"
    "Deepwood Archers, Latari Elves, 50\n"
    "Terrain: Hill, 2\nTerrain: Forest, 3\nTerrain: Rocks, 3\nTerrain: Well, 1"
)


def test_an_october_event_that_asks_for_army_lists__RP6(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server}/events/new")
    page.select_option("#format", "runewars2017")
    expect(page.locator("#season")).to_be_visible()
    page.select_option("#season", "october2017")
    page.check("#army_lists")
    page.fill("#name", "October Lists")
    with page.expect_navigation():
        page.click("#create-event")
    expect(page.locator("#event-meta")).to_contain_text("October 2017 season")
    expect(page.locator("#add-list")).to_be_visible()
    expect(page.locator("#add-army")).to_have_value("")

    page.fill("#add-name", "Ann")
    page.fill("#add-list", LIST.replace("Terrain: Rocks, 3", "Terrain: Rocks, 4"))
    page.click("#add-form button[type=submit]")
    expect(page.locator("#page-error")).to_contain_text(
        "no two terrain cards may total a capacity over 6: Forest (3) and Rocks (4) make 7"
    )
    expect(page.locator("#add-name")).to_have_value("Ann")
    page.fill("#add-list", LIST)
    page.click("#add-form button[type=submit]")
    row = page.locator("#players tbody tr", has_text="Ann")
    expect(row).to_contain_text("154")
    expect(page.locator("#add-list")).to_have_value("")
    assert errors == []
