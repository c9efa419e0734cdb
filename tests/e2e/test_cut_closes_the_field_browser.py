"""RP1 on the EO's admin page, in Chromium at 1366×768: once the cut's round is under way,
"the remaining tournament rounds are only played by the top X players". The page offers
no add or import and says why; a player the cut left out (here one who dropped before
it) has no Rejoin button; the players kept still have Drop. The server refuses the same
(tests/service/test_cut_is_closed__RP1.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
EO = {"width": 1366, "height": 768}
WON = {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [30, 10]}


def test_the_cut_closes_the_field_on_the_admin_page__RP1(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Cut day", "cut_to_top": 4}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for n in range(8):
        assert http.post(
            f"/api/events/{eid}/players", json={"name": f"Player {n + 1}"}, headers=eo
        ).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    for table in http.get(f"/api/events/{eid}/tables", headers=eo).json():
        path = f"/api/events/{eid}/tables/{table['id']}/result"
        assert http.put(path, json=WON, headers=eo).is_success
    bird = http.post(f"/api/events/{eid}/players", json={"name": "Early Bird"}, headers=eo).json()
    dropped = http.post(f"/api/events/{eid}/players/{bird['id']}/drop", json={}, headers=eo)
    assert dropped.is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success  # the cut
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success

    page = browser.new_context(viewport=EO).new_page()
    page.goto(created["admin_url"])
    note = page.locator("#players-cut")
    expect(note).to_be_visible()
    expect(note).to_contain_text("top 4 players only")
    expect(page.locator("#add-player")).to_be_hidden()
    expect(page.locator("#import")).to_be_hidden()
    expect(page.locator(f"#drop-{bird['id']}")).to_have_count(0)  # left out: no Rejoin
    players = http.get(f"/api/events/{eid}", headers=eo).json()["players"]
    kept = [p for p in players if not p["cut"] and not p["dropped"]]
    assert len(kept) == 4
    for player in kept:
        expect(page.locator(f"#drop-{player['id']}")).to_have_text("Drop")
    note.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "admin-players-cut-made-eo.png"))
    refused = http.post(f"/api/events/{eid}/players", json={"name": "Late Larry"}, headers=eo)
    assert refused.status_code == 400 and "the cut to the top 4 is made" in refused.text
