"""Once the event is over the admin page takes no new player (RP1): its add and import
forms are gone, and it says why; a player more would reopen the event (a 9th player
raises 8 players' 3 rounds to 4). While the event runs they are there (RP7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)


def test_the_admin_page_takes_no_player_once_the_event_is_over__RP1(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "All done"}).json()
    eid, token = created["id"], created["admin_token"]
    eo = {"X-EO-Token": token}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success

    admin = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    admin.goto(f"{live_server}/e/{eid}/admin#k={token}")
    expect(admin.locator("#add-player")).to_be_visible()  # running: a late arrival joins
    expect(admin.locator("#import")).to_be_visible()
    expect(admin.locator("#players-closed")).to_be_hidden()

    # One game, one winner: one player ahead of every other, the event is over (RP1).
    [table] = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    result = {"winner": "p1", "control_points": [5, 0], "army_points_destroyed": [40, 10]}
    saved = http.put(f"/api/events/{eid}/tables/{table['id']}/result", json=result, headers=eo)
    assert saved.is_success, saved.text

    admin.reload()
    expect(admin.locator("#event-over")).to_be_visible()
    expect(admin.locator("#add-player")).to_be_hidden()
    expect(admin.locator("#import")).to_be_hidden()
    expect(admin.locator("#players-closed")).to_contain_text("The event is over")
    # Nobody drops from a finished event either: the standings are final.
    expect(admin.locator("#players-body tr.player")).to_have_count(2)
    expect(admin.locator("#players-body [id^='drop-']")).to_have_count(0)
    admin.locator("#players-card").screenshot(path=str(ARTIFACTS / "players-closed.png"))

    refused = http.post(f"/api/events/{eid}/players", json={"name": "Cal"}, headers=eo)
    assert refused.status_code == 400 and "the event is over" in refused.json()["detail"]
    ann = next(p for p in http.get(f"/api/events/{eid}").json()["players"] if p["name"] == "Ann")
    gone = http.post(f"/api/events/{eid}/players/{ann['id']}/drop", json={}, headers=eo)
    assert gone.status_code == 400 and "Ann cannot drop from it" in gone.json()["detail"]
    assert [p["name"] for p in http.get(f"/api/events/{eid}").json()["players"]] == [
        "Ann",
        "Bob",
    ]
