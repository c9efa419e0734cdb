"""A player's own page in Chromium: the EO's slips with each player's QR link; the
player writes their lists before the event, then sees their table, opponent, seat link,
record and standings; the lists lock when the event starts. What needs the player now
comes to the open page by itself, newest first, counted in the page's title."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import first_seat_goes_first, seat_sends

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_a_player_follows_the_event_on_their_own_page__ST1_ST6(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Spring Steamroller", "lists": 2}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    long_name = "Bartholomew" * 5 + "X" * 5  # 60 characters, unbroken
    for name in ("Ann", long_name):
        assert (
            http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).status_code
            == 201
        )
    ARTIFACTS.mkdir(exist_ok=True)

    # The EO prints the slips: each player's own link as a QR code.
    eo_page = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
    eo_page.goto(created["admin_url"].replace("/admin#", "/slips#"))
    slips = eo_page.locator(".slip")
    expect(slips).to_have_count(2)
    expect(slips.first.locator("img")).to_have_attribute(
        "src", __import__("re").compile("^data:image/svg")
    )
    eo_page.screenshot(path=str(ARTIFACTS / "player-slips.png"), full_page=True)
    ann_url = slips.filter(has_text="Ann").locator("a").get_attribute("href")
    assert ann_url and "/p/" in ann_url and "#k=" in ann_url
    token = ann_url.split("#k=", 1)[1]
    public = (
        http.get(f"/api/events/{eid}").text + http.get(f"/api/events/{eid}/tables", headers=eo).text
    )
    assert token not in public  # the player token is never in the event's API

    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(ann_url)
    expect(phone.locator("#player-name")).to_have_text("Ann")
    expect(phone.locator("#my-table-text")).to_contain_text("not paired yet")
    phone.locator("#lists-text").fill("Haley Prime")
    phone.locator("#lists-save").click()
    expect(phone.locator("#lists-error")).to_contain_text("asks each player for 2")
    phone.locator("#lists-text").fill("Haley Prime\nStryker 3")
    phone.locator("#lists-save").click()
    expect(phone.locator("#lists-shown li")).to_have_text(["Haley Prime", "Stryker 3"])
    phone.screenshot(path=str(ARTIFACTS / "player-before-event.png"), full_page=True)

    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).status_code == 201
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).status_code == 200
    phone.reload()
    expect(phone.locator("#my-table-text")).to_contain_text(
        "Round 1 · Table 1 · against " + long_name
    )
    expect(phone.locator("#lists-note")).to_contain_text("Locked")
    expect(phone.locator("#lists-form")).to_be_hidden()
    expect(phone.locator("#standings-body tr")).to_have_count(2)
    expect(phone.locator("#standings-body")).to_contain_text("Ann (me)")
    seat = phone.locator("#my-seat")
    expect(seat).to_be_visible()
    phone.screenshot(path=str(ARTIFACTS / "player-round-1.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the long name pushes the page wider than the phone"
    for table in phone.locator("table.data").all():  # no column pushed out of its card
        assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")

    # The seat link opens Ann's seat at the table.
    seat.click()
    expect(phone.locator("#role")).to_contain_text("Ann")


def test_a_player_writes_whole_lists_and_declares_the_painting_standard(
    browser: Any, live_server: str
) -> None:
    """Army List Variants and Painting Variants on the player's page, at phone size."""
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events",
        json={
            "name": "Painted night",
            "lists": 2,
            "variants": ["battlegroup_only", "painting_basic"],
        },
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    assert http.post(f"/api/events/{eid}/players", json={"name": "Ann"}, headers=eo).is_success
    url = http.get(f"/api/events/{eid}/player-links", headers=eo).json()[0]["url"]
    ARTIFACTS.mkdir(exist_ok=True)

    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(url)
    expect(phone.locator("#painting-standard")).to_contain_text("Basic Painting Required")
    expect(phone.locator("#list-rules")).to_contain_text("Battlegroup Only")
    lists = "Haley 3 / Storm Division (75)\n- Stormclad (19)\nStormblades (14)\n\nStryker 1 (74)"
    phone.locator("#lists-text").fill(lists)
    phone.locator("#lists-save").click()
    expect(phone.locator("#lists-error")).to_contain_text("Confirm that your army meets it")
    phone.locator("#lists-painted").check()
    phone.locator("#lists-save").click()
    expect(phone.locator("#lists-error")).to_contain_text("line 3 'Stormblades (14)'")
    phone.locator("#lists-text").fill(lists.replace("Stormblades (14)", "Hunter [jack] (12)"))
    phone.locator("#lists-save").click()
    expect(phone.locator("#lists-shown li")).to_have_text(
        ["Haley 3 / Storm Division (75)", "Stryker 1 (74)"]
    )
    expect(phone.locator("#lists-error")).to_be_hidden()
    phone.screenshot(path=str(ARTIFACTS / "player-lists-variants.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_new_event_form_asks_champions_for_its_active_duty_roster(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(live_server + "/events/new")
    expect(page.locator("#roster-field")).to_be_hidden()
    page.locator("#format").select_option("champions2019")
    expect(page.locator("#roster-field")).to_be_visible()
    page.locator("#name").fill("Champs")
    page.locator("#active_duty_roster").fill("Leaders:\nButcher 3\nTheme forces:\nJaws of the Wolf")
    page.locator("#create-event").click()
    page.wait_for_url("**/admin#k=*")
    eid = page.url.split("/e/", 1)[1].split("/", 1)[0]
    event = httpx.get(f"{live_server}/api/events/{eid}").json()["event"]
    assert event["active_duty_roster"].startswith("Leaders:\nButcher 3")


def test_the_players_page_tells_them_what_needs_them_from_pairing_to_result__TS9(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Friday night"}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    links = {
        row["name"]: row["url"]
        for row in http.get(f"/api/events/{eid}/player-links", headers=eo).json()
    }

    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(links["Ann"])
    expect(phone.locator("#player-name")).to_have_text("Ann")
    expect(phone).to_have_title("Ann — Friday night · Deathclock")
    expect(phone.locator("#notices-card")).to_be_hidden()
    phone.locator("#my-table").click()  # a touch: the page may beep from now on
    notices = phone.locator("#notices .notice")

    def alerts() -> int:
        return int(phone.evaluate("Number(document.body.dataset.alerts || 0)"))

    # The EO pairs the round: the page reads it again when the phone is back online.
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(notices).to_have_count(1)
    expect(notices.first).to_have_text("New Round 1: you play Bob at table 1.")
    expect(phone).to_have_title("(1) Ann — Friday night · Deathclock")
    assert alerts() == 1

    # The round starts: the page reads it again as it is shown again.
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(notices).to_have_count(2)
    expect(notices.first).to_contain_text("Round 1 has started: open your seat.")
    expect(notices.first.locator("a")).to_have_text("Open my seat")
    expect(notices.nth(1)).to_contain_text("Scenario: ")  # public once the round starts
    expect(phone).to_have_title("(2) Ann — Friday night · Deathclock")
    assert alerts() == 2
    phone.locator("#notices-seen").click()
    expect(phone).to_have_title("Ann — Friday night · Deathclock")
    expect(phone.locator("#notices .notice.new")).to_have_count(0)
    expect(phone.locator("#notices-seen")).to_be_hidden()

    # Time is called at the table and Bob reports: Ann's page shows it by itself.
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    ann, bob = ("p1", "p2") if table["names"][0] == "Ann" else ("p2", "p1")
    first_seat_goes_first(live_server, table)
    called = http.post(
        f"/api/events/{eid}/tables/{table['id']}/command", json={"c": "call_tie"}, headers=eo
    )
    assert called.is_success, called.text
    seat_sends(live_server, table, bob, "bob-1", {"c": "report", "army_points_destroyed": 10})
    expect(notices).to_have_count(1)  # on the page's own 15 s read: the game is over
    expect(notices.first.locator("p")).to_have_text(
        "New Bob has reported your game: open your seat and report yours."
    )
    expect(notices.first.locator("a")).to_have_text("Open my seat to report")
    expect(phone).to_have_title("(1) Ann — Friday night · Deathclock")
    assert alerts() == 3

    # Ann reports, both confirm; the EO corrects the result, giving the reason.
    seat_sends(
        live_server,
        table,
        ann,
        "ann-1",
        {"c": "report", "army_points_destroyed": 5},
        {"c": "confirm"},
    )
    seat_sends(live_server, table, bob, "bob-2", {"c": "confirm"})
    result = {
        "winner": "p1" if ann == "p1" else "p2",
        "control_points": [0, 0],
        "army_points_destroyed": [5, 10] if ann == "p1" else [10, 5],
        "method": "time",
        "reason": "Bob's report counted a unit twice",
    }
    entered = http.put(f"/api/events/{eid}/tables/{table['id']}/result", json=result, headers=eo)
    assert entered.is_success, entered.text
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(notices).to_have_count(1)
    expect(notices.first).to_contain_text(
        "The EO corrected the result at table 1: Ann wins by time."
    )
    expect(notices.first).to_contain_text("Reason: Bob's report counted a unit twice")
    expect(phone).to_have_title("(1) Ann — Friday night · Deathclock")
    assert alerts() == 4
    phone.screenshot(path="/tmp/player-notices-390.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
