"""A game to look back at, in Chromium: once a game is over, both phones, the table's log
page and the EO's table view draw each player's clock time per turn, the CP after each
turn and the turn that decided it, labelled with the players' names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
PHONE = {"width": 390, "height": 844}
RUNNING = re.compile(r"\brunning\b")
#: The game chart fits the phone's width and is tall enough to read.
FITS = """width => {
  const chart = document.querySelector("#game-story svg.game-chart");
  if (!chart) return false;
  const box = chart.getBoundingClientRect();
  return box.width > 0 && box.width <= width && box.height > 150;
}"""


def _page(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    page.goto(url)
    return page


def _chart_shows_the_game(page: Any, name: str) -> None:
    from playwright.sync_api import expect

    story = page.locator("#game-story")
    expect(story).to_be_visible()
    # Deployment and turns 1 and 2 were played; Ann conceded in her turn 2.
    expect(story.locator(".gc-turn")).to_have_count(3)
    expect(story.locator(".gc-bar")).to_have_count(6)
    expect(story.locator(".gc-name")).to_have_text(["Ann", "Bob"])
    expect(story.locator(".gc-decided")).to_have_attribute("data-turn", "2")
    expect(story.locator(".story-words")).to_have_text("Bob wins by concession in Ann's turn 2")
    assert "P1" not in story.inner_text() and "P2" not in story.inner_text()
    expect(story.locator("svg.game-chart")).to_be_visible()
    # The chart is drawn again as the table's state comes in: wait for the one on the
    # page to fit the phone's width and be tall enough to read, however soon it settles.
    page.wait_for_function(FITS, arg=PHONE["width"])
    story.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"game-chart-{name}.png"), full_page=True)


def test_a_finished_game_is_drawn_on_both_phones_the_log_and_the_eo_view(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    links = httpx.post(
        f"{live_server}/api/tables",
        json={"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"},
    ).json()
    p1, p2 = _page(browser, links["p1"]["url"]), _page(browser, links["p2"]["url"])
    expect(p1.locator("#role")).to_have_text("Ann · first player")
    expect(p2.locator("#role")).to_have_text("Bob · second player")
    p1.locator("#start").click()
    expect(p1.locator("#side-p1")).to_have_class(RUNNING)
    plays = ((p1, "p2"), (p2, "p1"), (p1, "p2"), (p2, "p1"), (p1, "p2"), (p2, "p1"))
    for page, side in plays:
        page.locator("#tap").click()
        expect(page.locator(f"#side-{side}")).to_have_class(RUNNING)
    expect(p1.locator("#phase")).to_contain_text("Turn 2")
    expect(p1.locator("#game-story")).to_be_hidden()  # nothing to look back at yet

    p1.locator("#concede").click()
    p1.locator("#confirm-yes").click()
    p2.locator("#report-apd").fill("12")
    p2.locator("#report-submit").click()
    expect(p2.locator("#result")).to_contain_text("Bob wins")

    _chart_shows_the_game(p1, "ann-phone")
    _chart_shows_the_game(p2, "bob-phone")
    eo_link = links["eo"]["url"] if isinstance(links["eo"], dict) else links["eo"]
    _chart_shows_the_game(_page(browser, eo_link.replace("#", "/log#")), "log-page")
    _chart_shows_the_game(_page(browser, eo_link), "eo-table")
