"""An SR2019 one-list event in Chromium, from the form to a result: the EO (1366×768)
creates it with one list, a second optional; each player (390×844) pastes a whole list
as players export it and is told in plain words what is wrong with one; the lists lock
at round 1; the EO prints every player's lists (one sheet a player, no script the
page's CSP refuses) and shows them on the public page, where a player reads them with
the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1366, "height": 768}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army_lists"


def _csp_watch(page: Any) -> list[str]:
    refused: list[str] = []
    page.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: refused.append(str(e)))
    return refused


def test_an_sr2019_one_list_event_from_registration_to_a_result(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    war_room = (FIXTURES / "warroom2_khador.txt").read_text()
    written = (FIXTURES / "written_whole.txt").read_text()
    ARTIFACTS.mkdir(exist_ok=True)

    eo = browser.new_context(viewport=DESK).new_page()
    refused = _csp_watch(eo)
    eo.goto(live_server + "/events/new")
    options = eo.locator("#lists option")
    expect(options).to_have_text(["1 list, a 2nd optional", "2 lists"])
    expect(eo.locator("#variants-field")).to_be_visible()
    eo.locator("#format").select_option("ig2014")
    expect(eo.locator("#variants-field")).to_be_hidden()
    expect(eo.locator("#list-rules-ig2014")).to_contain_text("Fully Painted")
    eo.locator("#format").select_option("sr2019")
    eo.locator("#lists").select_option("1")
    eo.locator("#name").fill("One-list night")
    eo.locator("#create-event").click()
    eo.wait_for_url("**/admin#k=*")
    admin_url = eo.url
    eid = admin_url.split("/e/", 1)[1].split("/", 1)[0]
    key = {"X-EO-Token": admin_url.split("#k=", 1)[1]}
    for name in ("Ann", "Bob"):
        eo.locator("#new-name").fill(name)
        eo.locator("#add-player-btn").click()
        expect(eo.locator("#players-body")).to_contain_text(name)
    http = httpx.Client(base_url=live_server)
    links = {
        row["name"]: row["url"]
        for row in http.get(f"/api/events/{eid}/player-links", headers=key).json()
    }

    # Each player pastes a whole list on their phone; a refusal says the list and the rule.
    phones = {}
    for name, text in (("Ann", war_room), ("Bob", written)):
        phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
        phone.goto(links[name])
        expect(phone.locator("#player-name")).to_have_text(name)
        if name == "Bob":
            phone.locator("#lists-text").fill(text.replace("(75)", "(70)", 1))
            phone.locator("#lists-save").click()
            expect(phone.locator("#lists-error")).to_contain_text(
                "70 points; a list at this 75-point event totals 71 to 75 points"
            )
        phone.locator("#lists-text").fill(text)
        phone.locator("#lists-save").click()
        expect(phone.locator("#lists-shown li")).to_have_count(1)
        expect(phone.locator("#lists-error")).to_be_hidden()
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phones[name] = phone
    phones["Ann"].screenshot(path=str(ARTIFACTS / "lists-one-list-player.png"), full_page=True)

    # Round 1 starts: the lists lock; the EO shows them on the public page.
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=key).status_code == 201
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=key).is_success
    phones["Ann"].reload()
    expect(phones["Ann"].locator("#lists-form")).to_be_hidden()
    eo.reload()
    expect(eo.locator("#lists-public")).to_be_enabled()
    eo.locator("#lists-public").check()
    expect(eo.locator("#lists-public-hint")).to_contain_text("Everyone sees every player's lists")
    # The EO still fixes a locked list, giving the reason the EO's log keeps.
    bob = next(
        p["id"] for p in http.get(f"/api/events/{eid}").json()["players"] if p["name"] == "Bob"
    )
    eo.locator(f"#edit-{bob}").click()
    eo.locator("#edit-lists").fill(written.replace("Kodiak [jack] (14)", "Kodiak [jack] (13)"))
    eo.locator("#edit-save").click()
    expect(eo.locator("#edit-error")).to_contain_text("Bob's lists are locked; give the reason")
    eo.locator("#edit-reason").fill("Kodiak costs 13 on the card")
    eo.locator("#edit-save").click()
    expect(eo.locator("#actions")).to_contain_text(
        "Fixed Bob's locked lists: Kodiak costs 13 on the card"
    )
    eo.screenshot(path=str(ARTIFACTS / "lists-eo-admin.png"), full_page=True)

    # The result, then the public page on a phone: the standings and every list in full.
    table = http.get(f"/api/events/{eid}/tables", headers=key).json()[0]
    result = {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [40, 20]}
    saved = http.put(f"/api/events/{eid}/tables/{table['id']}/result", json=result, headers=key)
    assert saved.status_code == 200, saved.text
    public = phones["Bob"]
    public.goto(f"{live_server}/e/{eid}")
    expect(public.locator("#standings-body tr")).to_have_count(2)
    expect(public.locator("#public-lists .list-sheet")).to_have_count(2)
    expect(public.locator("#public-lists")).to_contain_text("Kommander Sorscha - WJ: +28")
    expect(public.locator("#public-lists")).to_contain_text("Butcher 3 / Jaws of the Wolf (75)")
    assert public.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    public.screenshot(path=str(ARTIFACTS / "lists-public-page.png"), full_page=True)
    assert refused == []


def test_the_eo_prints_one_sheet_a_player(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Print night", "lists": 2}).json()
    eid, key = created["id"], {"X-EO-Token": created["admin_token"]}
    two = (FIXTURES / "two_written_lists.txt").read_text()
    for name, lists in (("Ann", two), ("Bob", "Irusk 2 (75)\nSorscha 1 (74)")):
        added = http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": lists}, headers=key
        )
        assert added.status_code == 201, added.text
    page = browser.new_context(viewport=DESK).new_page()
    refused = _csp_watch(page)
    page.goto(created["admin_url"].replace("/admin#", "/lists#"))
    sheets = page.locator(".list-sheet")
    expect(sheets).to_have_count(2)
    expect(sheets.first.locator(".list-block")).to_have_count(2)
    expect(sheets.nth(1)).to_contain_text("List 2: Sorscha 1 (74)")
    page.screenshot(path=str(ARTIFACTS / "lists-print-screen.png"), full_page=True)
    page.emulate_media(media="print")
    expect(page.locator("#print")).to_be_hidden()
    breaks = sheets.first.evaluate("s => getComputedStyle(s).breakAfter")
    assert breaks == "page"
    page.screenshot(path=str(ARTIFACTS / "lists-print-paper.png"), full_page=True)
    assert refused == []
