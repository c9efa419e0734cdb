"""The table log names what a turn end scored as the table page does, by the players'
names ("Ann's objective destroyed"), never by the scenario's ids ("objective-p1"): the
EO settling a dispute reads who held what, not a seat tag (TS2)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import seat_sends

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
EO_SCREEN = {"width": 1366, "height": 768}


def test_the_log_names_scored_elements_by_their_players__TS2(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    links = httpx.post(
        f"{live_server}/api/tables",
        json={"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"},
    ).json()
    table = {"id": links["id"], "links": links}
    sent = iter(range(100))

    def tap(seat: str, **turn_end: Any) -> None:
        command = {"c": "pass_turn", "expect": seat, **turn_end}
        seat_sends(live_server, table, seat, f"phone-{next(sent)}", command)

    seat_sends(live_server, table, "p1", "phone-start", {"c": "start"})
    for seat in ("p1", "p2", "p1", "p2", "p1", "p2"):  # deployment, advance, turn 1
        tap(seat)
    tap("p1", kill_box=False)  # Ann's turn 2: the kill box is asked
    # Bob's turn 2: the first scoring; Bob holds a zone and destroys Ann's objective.
    tap("p2", kill_box=False, scoring={"control": {"rect-1": "p2"}, "destroyed": ["objective-p1"]})

    eo_link = links["eo"]["url"] if isinstance(links["eo"], dict) else links["eo"]
    page = browser.new_context(viewport=EO_SCREEN).new_page()
    page.goto(eo_link.replace("#", "/log#"))
    log = page.locator("main")
    expect(log).to_contain_text("Ann's objective destroyed")
    text = log.inner_text()
    assert "objective-p1" not in text and "rect-1" not in text
    assert re.search(r"→ Bob", text), text
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "log-scoring-names.png"), full_page=True)
