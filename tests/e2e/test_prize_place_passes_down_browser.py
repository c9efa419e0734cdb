"""ST3 on the prizes page, in Chromium at a phone's width: "Disqualified players are not
eligible for any awards or prizes", so a place passes down to the next eligible player;
the page says where that winner stands on the standings, and a place nobody eligible
holds once the event is over says so."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.events import started_round

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
WON = {"winner": "p1", "control_points": [5, 0], "army_points_destroyed": [40, 10]}


def test_a_place_passed_down_names_the_winners_standing__ST3(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    run = started_round(live_server, {"name": "Prize day"}, ("Ann Abbot", "Bob Bryce"))
    eid = run.created["id"]
    [table] = run.tables
    path = f"/api/events/{eid}/tables/{table['id']}/result"
    assert run.http.put(path, json=WON, headers=run.eo).is_success  # one round: it is over
    winner, other = table["links"]["p1"]["name"], table["links"]["p2"]["name"]
    players = run.http.get(f"/api/events/{eid}").json()["players"]
    pid = next(p["id"] for p in players if p["name"] == winner)
    body = {"player": pid, "kind": "disqualification", "reason": "Loaded dice"}
    assert run.http.post(f"/api/events/{eid}/penalties", json=body, headers=run.eo).is_success

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server}/e/{eid}/prizes")
    first = page.locator("#prize-first")
    expect(first.locator(".prize-winner")).to_contain_text(other)
    expect(first).to_contain_text("2nd on the standings: a player placed above is disqualified")
    expect(first).not_to_contain_text(winner)
    expect(page.locator("#prize-second")).to_contain_text("No eligible player for this place")
    fits = "el => el.scrollWidth <= el.clientWidth"
    assert first.evaluate(fits), "the first place's card is wider than the page"
