"""ST3 blind votes on a shared phone: the vote page votes only with the key of the ballot
link it was opened with. Opened without one it asks for the player's own ballot link and
never falls back on a key an earlier voter left on the device."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ASK = "Open the vote from your own ballot link"


def _vote_night(live_server: str) -> tuple[str, dict[str, str]]:
    """An event with an open vote for the best sport; each player's seat key by name."""
    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Shared phone night"}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/prizes/best_sport/vote", json={}, headers=eo).is_success
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    seats = {
        name: table["links"][side]["url"].split("#k=", 1)[1]
        for side, name in zip(("p1", "p2"), table["names"], strict=True)
    }
    return eid, seats


def test_a_vote_page_opened_without_a_key_never_votes_as_the_last_voter__ST3(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    eid, seats = _vote_night(live_server)
    device = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    keys_sent: list[str] = []
    device.on(
        "request",
        lambda request: keys_sent.append(request.headers.get("x-player-token", "")),
    )

    # Ann votes from her ballot link on the shared phone.
    ann = device.new_page()
    ann.goto(f"{live_server}/e/{eid}/vote#k={seats['Ann']}")
    expect(ann.locator("#voter")).to_have_text("Voting as Ann")
    ann.locator("#ballot-best_sport .choice", has_text="Bob").tap()
    expect(ann.locator("#ballot-best_sport .choice.mine")).to_have_text("Bob")
    ann.reload()  # the key is the link's: a reload still votes as Ann
    expect(ann.locator("#voter")).to_have_text("Voting as Ann")
    ann.close()

    # The next player opens the vote page on the same phone without a link of their own.
    keys_sent.clear()
    bare = device.new_page()
    bare.goto(f"{live_server}/e/{eid}/vote")
    expect(bare.locator("#voter")).to_contain_text(ASK)
    expect(bare.locator("#seat-form")).to_be_visible()
    expect(bare.locator("#ballots .ballot")).to_have_count(0)
    bare.reload()
    expect(bare.locator("#voter")).to_contain_text(ASK)
    stored = bare.evaluate("() => JSON.stringify({...localStorage, ...sessionStorage})")
    assert seats["Ann"] not in stored, "the seat key was kept on the device"
    assert seats["Ann"] not in keys_sent, "the page sent a key it was not opened with"

    # Bob follows his own ballot link in that very tab: he votes as Bob, not as Ann.
    bare.goto(f"{live_server}/e/{eid}/vote#k={seats['Bob']}")
    expect(bare.locator("#voter")).to_have_text("Voting as Bob")
    bare.goto(f"{live_server}/e/{eid}/vote#k={seats['Ann']}")  # the link only changes its key
    expect(bare.locator("#voter")).to_have_text("Voting as Ann")
    bare.goto(f"{live_server}/e/{eid}/vote#")
    expect(bare.locator("#voter")).to_contain_text(ASK)
    expect(bare.locator("#ballots .ballot")).to_have_count(0)
