"""A seat's phone (390×844) says when something needs its player, in the page's title
and with a signal once: the round's start (the page was open on the draft), the
opponent's report waiting for theirs, and the result the EO entered with its reason
(seen once the player touches the page). Nothing is counted while nothing needs them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.events import seat_sends

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_the_seat_page_counts_what_needs_its_player_in_the_title__TS9(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Needs", "format": "sr2019"}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    ann, bob = ("p1", "p2") if table["names"][0] == "Ann" else ("p2", "p1")

    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(table["links"][ann]["url"])
    expect(phone.locator("#waiting-title")).to_contain_text("Waiting for the organiser")
    title = phone.title()
    assert not title.startswith("(")  # nothing needs Ann while the round waits

    def needs() -> str:
        return str(phone.evaluate("document.body.dataset.needs || ''"))

    # The round starts: the page, open all along, counts it and signals once.
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    expect(phone).to_have_title("(1) " + title)
    assert needs() == "round"
    assert phone.evaluate("document.body.dataset.lastAlert") == "notice"

    # Who goes first is settled and the clock starts: nothing needs Ann now.
    first = table["names"][0]
    seat_sends(
        live_server,
        table,
        "p1",
        "p1-dice",
        {"c": "roll", "at_table": [6, 1]},
        {"c": "choose_order", "first": True},
        {"c": "start"},
    )
    expect(phone.locator("#phase")).to_contain_text("Deployment")
    expect(phone).to_have_title(title)
    assert first in ("Ann", "Bob")

    # Time is called; Bob reports first: Ann's report is waited for.
    phone.evaluate("document.body.dataset.lastAlert = ''")
    called = http.post(
        f"/api/events/{eid}/tables/{table['id']}/command", json={"c": "call_tie"}, headers=eo
    )
    assert called.is_success, called.text
    expect(phone).to_have_title(title)  # both report: nobody waits on anyone yet
    seat_sends(live_server, table, bob, "bob-1", {"c": "report", "army_points_destroyed": 10})
    expect(phone).to_have_title("(1) " + title)
    assert needs() == "report"
    assert phone.evaluate("document.body.dataset.lastAlert") == "notice"

    # Ann reports and both confirm: nothing is left; then the EO corrects the result.
    seat_sends(
        live_server,
        table,
        ann,
        "ann-1",
        {"c": "report", "army_points_destroyed": 5},
        {"c": "confirm"},
    )
    seat_sends(live_server, table, bob, "bob-2", {"c": "confirm"})
    expect(phone).to_have_title(title)
    result = {
        "winner": ann,
        "control_points": [0, 0],
        "army_points_destroyed": [5, 10] if ann == "p1" else [10, 5],
        "method": "time",
        "reason": "Bob's report counted a unit twice",
    }
    entered = http.put(f"/api/events/{eid}/tables/{table['id']}/result", json=result, headers=eo)
    assert entered.is_success, entered.text
    expect(phone).to_have_title("(1) " + title)
    assert needs().startswith("eo:")
    expect(phone.locator("#app")).to_contain_text("Bob's report counted a unit twice")
    phone.locator("#phase").click()  # Ann has seen it
    expect(phone).to_have_title(title)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
