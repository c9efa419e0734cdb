"""A phone (390×844) open on its seat before the round starts follows the round live:
when the organiser starts a round with the pre-game on the phones, the page, never
reloaded, offers the player's registered lists, and the list chosen is accepted."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_a_page_open_before_the_start_offers_the_registered_lists(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    body = {"name": "Lists live", "format": "sr2019", "lists": 2, "pregame": True}
    created = http.post("/api/events", json=body).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name, lists in (("Ann", "Haley Prime\nStryker 3"), ("Bob", "Kreoss\nSeverius")):
        added = http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": lists}, headers=eo
        )
        assert added.status_code == 201, added.text
    paired = http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    seat = "p1" if table["names"][0] == "Ann" else "p2"

    context = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1)
    ann = context.new_page()
    ann.goto(table["links"][seat]["url"])
    expect(ann.locator("#waiting-title")).to_have_text("Waiting for the organiser to start round 1")
    marker = ann.evaluate("() => (window.__notReloaded = true)")
    assert marker is True

    started = http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.status_code == 200, started.text

    expect(ann.locator("#pregame h2")).to_have_text("Choose your list")
    expect(ann.locator(".pg-choice")).to_have_text(["Haley Prime", "Stryker 3"])
    expect(ann.locator("#pg-free")).to_have_count(0)
    ann.get_by_role("button", name="Stryker 3").click()
    expect(ann.get_by_test_id("my-list")).to_contain_text("Stryker 3")
    assert ann.evaluate("() => window.__notReloaded") is True  # the same page all along
    ann.reload()  # the server kept the choice: it was accepted, not only drawn
    expect(ann.get_by_test_id("my-list")).to_contain_text("Stryker 3")
    context.close()


def test_a_page_open_before_the_start_settles_who_goes_first_off_the_clock__DC3(
    browser: Any, live_server: str
) -> None:
    """Without the pre-game on the phones: the page moves, live, into the starting roll
    (no clock runs); the dice rolled at the table are entered on it, the second seat's
    player wins and goes first, and their clock runs once they start deployment."""
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Roll live", "format": "sr2019"}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        added = http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        assert added.status_code == 201, added.text
    paired = http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    first_name, second_name = table["names"]

    def seat_page(seat: str) -> Any:
        context = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1)
        page = context.new_page()
        page.goto(table["links"][seat]["url"])
        expect(page.locator("#waiting-title")).to_contain_text("Waiting for the organiser")
        page.evaluate("() => (window.__notReloaded = true)")
        return page

    first, second = seat_page("p1"), seat_page("p2")
    started = http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.status_code == 200, started.text

    for page in (first, second):
        expect(page.locator("#pregame h2")).to_have_text("Starting roll")
        expect(page.locator("#phase")).to_contain_text("Pre-game")
    rows = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    assert rows[0]["status"] == "pregame"  # no clock runs

    # Real dice at the table: the first seat's player enters both; the second seat won.
    first.locator(".pg-at-table summary").click()
    first.locator("#pg-die-p1").select_option("2")
    first.locator("#pg-die-p2").select_option("5")
    first.get_by_role("button", name="Enter the roll").click()
    expect(second.locator("#pregame h2")).to_have_text("First or second")
    expect(first.locator("#pregame")).to_contain_text(f"{second_name} chooses to go first")
    second.get_by_role("button", name="Go first").click()
    expect(second.locator("#pregame")).to_contain_text("You go first")
    expect(first.locator("#pregame")).to_contain_text(f"You go second: {second_name} starts")

    second.locator("#start").click()
    expect(second.locator("#phase")).to_contain_text("Deployment")
    rows = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    assert rows[0]["status"] == "deploying"
    links = http.get(f"/api/events/{eid}/tables/{table['id']}", headers=eo).json()["links"]
    assert (links["p2"]["first"], links["p1"]["first"]) == (True, False)
    for page in (first, second):
        assert page.evaluate("() => window.__notReloaded") is True
    assert first_name != second_name
