"""Two phones (390×844) in Chromium play a Runewars game to a Final Flurry
(DC11, TS11, ST5); screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"runewars-{name}.png"), full_page=True)


def test_two_phones_play_runewars_to_a_final_flurry__TS11_DC11(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    links = httpx.post(
        f"{live_server}/api/tables",
        json={"format": "runewars2017", "p1_name": "Ann", "p2_name": "Bob",
              "p1_army": 200, "p2_army": 186},
    ).json()
    pages = []
    for seat in ("p1", "p2"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(links[seat]["url"])
        pages.append(page)
    p1, p2 = pages
    expect(p1.locator("#role")).to_contain_text("P1")
    expect(p2.locator("#role")).to_contain_text("P2")
    expect(p1.locator("#rw-timer")).to_have_text("1:30:00")
    # Bob has the lower army: he chooses, and makes Ann first player.
    expect(p2.locator("#rw-first")).to_be_visible()
    expect(p1.locator("#rw-first")).to_be_hidden()
    _shot(p2, "1-first-player")
    p2.locator("#rw-first-p1").click()
    expect(p2.locator("#rw-area")).to_be_visible()
    p2.locator("[data-area=red]").click()
    expect(p1.locator("#rw-start")).to_be_visible()
    p1.locator("[data-rw=start]").click()
    expect(p1.locator("#rw-end-round")).to_be_visible()
    expect(p2.locator("#rw-end-round")).to_be_hidden()  # only the first player turns it
    expect(p2.locator("#rw-tag-p2")).to_contain_text("red")
    for n in range(1, 9):
        expect(p1.locator("#rw-round")).to_have_text(str(n))
        if n == 4:
            _shot(p1, "2-playing")
        p1.locator("#rw-end-round").click()
    expect(p1.locator("#rw-score")).to_be_visible()
    p1.locator("#rw-destroyed").fill("120")
    p1.locator("#rw-objectives").fill("10")
    p1.locator("#rw-score-send").click()
    expect(p1.locator("#rw-score-wait")).to_be_visible()
    p2.locator("#rw-destroyed").fill("130")
    p2.locator("#rw-objectives").fill("0")
    _shot(p2, "3-scoring")
    p2.locator("#rw-score-send").click()
    expect(p1.locator("#rw-flurry")).to_be_visible()
    expect(p1.locator("#rw-prompt")).to_contain_text("Final Flurry")
    _shot(p1, "4-final-flurry")
    p1.locator("#rw-hits-p1").fill("3")
    p1.locator("#rw-hits-p2").fill("5")
    p1.locator("#rw-flurry-send").click()
    expect(p2.locator("#rw-result-title")).to_have_text("Bob wins")
    expect(p2.locator("#rw-result-detail")).to_contain_text("TP 5 – 6")
    expect(p2.locator("#rw-result-detail")).to_contain_text("Final Flurry 3 – 5")
    _shot(p2, "5-result")
