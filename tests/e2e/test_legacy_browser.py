"""A legacy scenario (TS10) on two phones in Chromium, 390×844: each phone shows the
scenario's own victory condition and the round's special rule, and the game ends on it.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RUNNING = re.compile(r"\brunning\b")


def _phones(browser: Any, live_server: str, scenario: str) -> tuple[Any, Any]:
    links = httpx.post(
        f"{live_server}/api/tables",
        json={
            "format": "legacy",
            "scenario": scenario,
            "clock_minutes": 50,
            "p1_name": "Ann",
            "p2_name": "Bob",
        },
    ).json()
    pages = []
    for seat in ("p1", "p2"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(links[seat]["url"])
        pages.append(page)
    return pages[0], pages[1]


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"legacy-{name}.png"), full_page=True)


def _tap_to_round(p1: Any, p2: Any, taps: int) -> None:
    """Start the clock and tap through deployment and turns, phone by phone."""
    from playwright.sync_api import expect

    p1.locator("#start").click()
    expect(p1.locator("#side-p1")).to_have_class(RUNNING)
    pages = [(p1, p2, "p2"), (p2, p1, "p1")]
    for n in range(taps):
        page, other, next_side = pages[n % 2]
        page.locator("#tap").click()
        expect(other.locator(f"#side-{next_side}")).to_have_class(RUNNING)


def test_transverse_assault_on_two_phones__TS10_transverse_assault(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    p1, p2 = _phones(browser, live_server, "transverse-assault")
    for page in (p1, p2):
        page.locator("#scenario summary").click()
        expect(page.locator("#scenario-notes")).to_contain_text("the first player wins by holding")
        expect(page.locator("#scenario-notes")).to_contain_text("No turn limit.")
        expect(page.locator("#scenario-notes")).to_contain_text("No kill box.")
        expect(page.locator("#scenario-notes")).to_contain_text("holds a Control Point")
    _shot(p2, "transverse-p2-scenario")
    _tap_to_round(p1, p2, 8)  # deployment, advance deployment, rounds 1 and 2
    expect(p1.locator("#phase")).to_contain_text("Turn 3")

    p1.locator("#tap").click()  # round 3: the end of the turn is checked
    expect(p1.locator("#sheet")).to_be_visible()
    expect(p1.locator("#sheet-note")).to_contain_text("the first player wins by holding")
    expect(p1.locator("#kill-box-yes")).to_be_hidden()
    for point in ("north", "centre", "south"):
        p1.locator(f"#score-point-{point}-p1").click()
    _shot(p1, "transverse-p1-sheet")
    p1.locator("#end-turn").click()

    for page in (p1, p2):
        expect(page.locator("#result")).to_contain_text(" wins by ")
        expect(page.locator("#result")).to_contain_text("scenario")
    _shot(p1, "transverse-p1-over")
    _shot(p2, "transverse-p2-over")


def test_daybreak_line_of_sight_on_both_phones__TS10_daybreak(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    p1, p2 = _phones(browser, live_server, "daybreak")
    for page in (p1, p2):
        expect(page.locator("#round-notes")).to_have_text('Round 1: 6" LOS')
    _tap_to_round(p1, p2, 6)  # to P1's turn 2
    for page in (p1, p2):
        expect(page.locator("#round-notes")).to_have_text('Round 2: 8" LOS')
    p1.locator("#tap").click()  # never a scoring sheet: won by assassination only
    expect(p1.locator("#sheet")).to_be_hidden()
    expect(p2.locator("#side-p2")).to_have_class(RUNNING)
    _shot(p1, "daybreak-p1-round2")
    _shot(p2, "daybreak-p2-round2")
