"""A drop and a rejoin on the WARMACHINE admin page ask first, in the page's own dialog
(RP7): by name, saying when a round paired and not started is paired again (its seat
links and cards stop working) and, for a rejoin, which rounds count as losses. Cancel
changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}


def test_a_drop_and_a_rejoin_ask_first_and_say_what_they_change__RP7(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Drop And Rejoin", "points": 75}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    ids = {
        name: http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).json()["id"]
        for name in ("Ann Archer", "Bob Boulder", "Cal Cutter", "Dee Dagger", "Eve Ember")
    }
    # Ann leaves before round 1 starts: round 1 is played without her.
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    dropped = http.post(f"/api/events/{eid}/players/{ids['Ann Archer']}/drop", json={}, headers=eo)
    assert dropped.is_success, dropped.text
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    for game in http.get(f"/api/events/{eid}").json()["rounds"][0]["pairings"]:
        if game["p2"] is not None:
            won = {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [30, 10]}
            path = f"/api/events/{eid}/tables/{game['table_id']}/result"
            assert http.put(path, json=won, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success  # a draft

    def draft() -> tuple[set[str], set[str]]:
        """Round 2's players and its tables."""
        rounds = http.get(f"/api/events/{eid}/admin", headers=eo).json()["rounds"]
        games = rounds[-1]["pairings"]
        players = {x["id"] for g in games for x in (g["p1"], g["p2"]) if x is not None}
        return players, {g["table_id"] for g in games if g["table_id"]}

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(created["admin_url"])
    dialog = page.locator("#confirm-dialog")

    # Ann rejoins: asked first, with the loss for round 1 and round 2 paired again.
    before = draft()
    assert ids["Ann Archer"] not in before[0]
    page.locator(f"#drop-{ids['Ann Archer']}").click()
    expect(dialog).to_contain_text("Let Ann Archer rejoin?")
    expect(dialog).to_contain_text("Ann Archer is paired again from round 2.")
    expect(dialog).to_contain_text("Round 1 was played without Ann Archer: it counts as a loss.")
    expect(dialog).to_contain_text("it is paired again with Ann Archer")
    expect(dialog).to_contain_text("seat links already handed out for round 2 stop working")
    expect(dialog.locator("#confirm-yes")).to_have_text("Rejoin Ann Archer")
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-rejoin-player.png"))
    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert draft() == before  # Cancel: still dropped, round 2 as it was
    expect(page.locator(f"#drop-{ids['Ann Archer']}")).to_have_text("Rejoin")
    page.locator(f"#drop-{ids['Ann Archer']}").click()
    dialog.locator("#confirm-yes").click()
    expect(page.locator("#toast")).to_contain_text("Ann Archer rejoins · round 2 paired again")
    assert ids["Ann Archer"] in draft()[0]
    expect(page.locator(f"#drop-{ids['Ann Archer']}")).to_have_text("Drop")

    # Bob drops: asked first; Cancel keeps him in round 2, Drop pairs it again without him.
    before = draft()
    page.locator(f"#drop-{ids['Bob Boulder']}").click()
    expect(dialog).to_contain_text("Drop Bob Boulder?")
    expect(dialog).to_contain_text("it is paired again without Bob Boulder")
    expect(dialog).to_contain_text("seat links already handed out for round 2 stop working")
    expect(dialog.locator("#confirm-yes")).to_have_text("Drop Bob Boulder")
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-drop-player.png"))
    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert draft() == before
    page.locator(f"#drop-{ids['Bob Boulder']}").click()
    dialog.locator("#confirm-yes").click()
    expect(page.locator("#toast")).to_contain_text("Bob Boulder dropped: not paired again")
    assert ids["Bob Boulder"] not in draft()[0]
