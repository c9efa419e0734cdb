"""Two phones in Chromium on the two seat links of one table."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.shown_time import seconds_of

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}


def _seat_pages(browser: Any, live_server: str) -> tuple[Any, Any, dict[str, Any]]:
    links = httpx.post(
        f"{live_server}/api/tables",
        json={"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"},
    ).json()
    pages = []
    for seat in ("p1", "p2"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(links[seat]["url"])
        pages.append(page)
    return pages[0], pages[1], links


def test_two_phones_play_to_a_conceded_game__DC3_TS3_TS8(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    p1, p2, _ = _seat_pages(browser, live_server)
    expect(p1.locator("#role")).to_have_text("Ann · first player")
    expect(p2.locator("#role")).to_have_text("Bob · second player")
    p1.locator("#start").click()
    expect(p1.locator("#side-p1")).to_have_class(_running())

    # P1 taps at the end of deployment: P2's phone shows P2's clock running within 1 s.
    p1.locator("#tap").click()
    expect(p2.locator("#side-p2")).to_have_class(_running())
    expect(p2.locator("#phase")).to_contain_text("Deployment")

    for page, side in ((p2, "p1"), (p1, "p2"), (p2, "p1"), (p1, "p2"), (p2, "p1")):
        page.locator("#tap").click()
        expect(page.locator(f"#side-{side}")).to_have_class(_running())
    expect(p1.locator("#phase")).to_contain_text("Turn 2")
    # The kill-box prompt is due at the end of P1's turn 2 (TS3).
    expect(p1.locator("#prompt")).to_contain_text("Kill box")
    p1.locator("#tap").click()
    expect(p1.locator("#sheet")).to_be_visible()
    expect(p1.locator("#kill-box-yes")).to_be_visible()
    p1.locator("#sheet-cancel").click()

    # Bob is out of luck and concedes; Ann enters the army points she destroyed.
    p2.locator("#concede").click()
    p2.locator("#confirm-yes").click()
    p1.locator("#report-apd").fill("12")
    p1.locator("#report-submit").click()
    expect(p1.locator("#result")).to_contain_text("Ann wins")
    expect(p1.locator("#result")).to_contain_text("concession")
    expect(p2.locator("#result")).to_have_text(p1.locator("#result").inner_text())


def _running() -> Any:
    import re

    return re.compile(r"\brunning\b")


def test_each_clock_carries_the_value_it_is_drawn_from(browser: Any, live_server: str) -> None:
    """The clock elements say the milliseconds their text was drawn from, and when (the
    page's performance.now()): how two screens of one table are compared."""
    from playwright.sync_api import expect

    p1, _p2, _ = _seat_pages(browser, live_server)
    expect(p1.locator("#role")).to_have_text("Ann · first player")
    started_at = p1.evaluate("Date.now()")
    p1.locator("#start").click()
    expect(p1.locator("#side-p1")).to_have_class(_running())
    # A frame drawn after the start: P1's clock below its hour.
    p1.wait_for_function(
        "() => parseFloat(document.getElementById('clock-p1').dataset.ms) < 3600000"
    )
    read = p1.evaluate(
        """() => [Date.now(), ['p1', 'p2'].map(side => {
            const c = document.getElementById('clock-' + side);
            return {text: c.textContent, ms: parseFloat(c.dataset.ms),
                    age: performance.now() - parseFloat(c.dataset.at)};
        })]"""
    )
    read_at, (running, stopped) = read
    assert stopped == {"text": "60:00", "ms": 3_600_000.0, "age": stopped["age"]}
    # Down by no more than the page's own time since the tap (plus a redraw's slack).
    assert 3_600_000 - (read_at - started_at) - 1_000 < running["ms"] < 3_600_000
    shown_s = seconds_of(running["text"])
    assert shown_s in (int(running["ms"] // 1000), int(running["ms"] // 1000) + 1)
    assert 0 <= running["age"] < 1000  # drawn frame by frame
