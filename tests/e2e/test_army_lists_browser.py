"""The Lists view on two phones (390×844): the opponent's lists in full before the game
and during it, the list each plays marked once both chose; and a specialist reveal at
an IG2014 table, each swap secret until both chose (asserted on the socket frames)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.test_pregame_socket import without_lists
from tests.integration.test_specialists_socket import HALEY, IRUSK, IRUSK_NAME, LISTS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
#: Whole lists as players write them, without specialists (an SR2019 event without the variant).
SR_LISTS = {
    "Ann": IRUSK_NAME + "\n- Juggernaut (16)\nWidowmaker Marksman (4)\n\n"
    "Butcher 3 / Jaws of the Wolf (75)\n- Juggernaut (16)",
    "Bob": HALEY.split("\nSpecialists:")[0] + "\n\nKreoss 1 (74)\n- Repenter (6)",
}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _table(
    live_server: str, body: dict[str, Any], lists: dict[str, str], scenario: str
) -> dict[str, str]:
    """An event's round 1 started with the pre-game on the phones: each player's seat link."""
    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json=body)
    assert created.status_code == 201, created.text
    eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
    for name, text in lists.items():
        added = http.post(
            f"/api/events/{eid}/players",
            json={"name": name, "lists": text, "painted": True},
            headers=eo,
        )
        assert added.status_code == 201, added.text
    assert http.post(
        f"/api/events/{eid}/rounds", json={"scenario": scenario}, headers=eo
    ).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    seat = {table["names"][0]: "p1", table["names"][1]: "p2"}
    return {name: table["links"][seat[name]]["url"] for name in lists}


def _phone(browser: Any, url: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1)
    page = context.new_page()
    frames: list[str] = []

    def keep(frame: Any) -> None:
        try:
            frames.append(json.dumps(without_lists(json.loads(str(frame)))))
        except ValueError:
            frames.append(str(frame))

    page.on("websocket", lambda ws: ws.on("framereceived", keep))
    page.goto(url)
    return page, frames


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"army-lists-{name}.png"), full_page=True)


def _open_lists(page: Any) -> Any:
    lists = page.locator("#army-lists")
    if lists.get_attribute("open") is None:
        lists.locator("summary").click()
    return lists


def test_the_opponents_lists_on_the_phone_before_and_during_the_game(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    body = {"name": "Lists night", "format": "sr2019", "lists": 2, "pregame": True, "points": 75}
    links = _table(live_server, body, SR_LISTS, "anarchy")
    ann, _ = _phone(browser, links["Ann"])
    bob, bob_frames = _phone(browser, links["Bob"])
    expect(ann.locator("#pregame h2")).to_have_text("Choose your list")
    lists = _open_lists(ann)
    opponent = lists.get_by_test_id("lists-opponent")
    expect(opponent.locator("h3")).to_have_text("Bob's lists")
    expect(opponent.locator(".al-list")).to_have_count(2)
    expect(opponent).to_contain_text("Stormclad (19)")
    expect(opponent).to_contain_text("Storm Lances (22)")
    expect(opponent).to_contain_text("Repenter (6)")
    expect(opponent).to_contain_text("Which list is played shows when both players have chosen.")
    expect(lists.get_by_test_id("lists-mine")).to_contain_text("Widowmaker Marksman (4)")
    lists.scroll_into_view_if_needed()
    _shot(ann, "1-before-the-game")

    ann.get_by_role("button", name=IRUSK_NAME).click()
    expect(bob.get_by_test_id("opp-list")).to_contain_text("Ann has chosen")
    assert not any("Irusk" in f for f in bob_frames), "Ann's choice reached Bob before his"
    expect(_open_lists(bob).get_by_test_id("list-played")).to_have_count(0)
    bob.get_by_role("button", name=HALEY.splitlines()[0]).click()
    for page in (ann, bob):
        expect(page.get_by_test_id("lists-revealed")).to_contain_text("Haley 2")

    # Through the pre-game to the clock: the lists stay on both phones during play.
    ann.get_by_role("button", name="Armory").click()
    bob.get_by_role("button", name="Stockpile").click()
    # The server's dice: a tie is rolled again. Each attempt waits until both dice are in
    # (the order to choose, or one more tie shown), never on a page still mid-roll.
    for attempt in range(10):
        ann.get_by_role("button", name="Roll a d6").click()
        bob.get_by_role("button", name="Roll a d6").click()
        ann.wait_for_function(
            "n => document.querySelector('#pregame h2').textContent === 'First or second'"
            " || [...document.querySelectorAll('#pregame .pg-roll')]"
            ".filter(p => p.textContent.includes('roll again')).length > n",
            arg=attempt,
        )
        if ann.locator("#pregame h2").inner_text() == "First or second":
            break
    first = ann if ann.get_by_role("button", name="Go first").count() else bob
    first.get_by_role("button", name="Go first").click()
    second = bob if first is ann else ann
    second.get_by_role("button", name="Keep my side").click()
    first.locator("#start").click()
    expect(first.locator("#phase")).to_contain_text("Deployment")
    expect(ann.locator("#pregame")).to_be_hidden()
    during = _open_lists(ann)
    played = during.get_by_test_id("lists-opponent").get_by_test_id("list-played")
    expect(played).to_contain_text("Haley 2 / Storm Division (75) — played this game")
    expect(played).to_contain_text("Stormclad (19)")
    expect(during.get_by_test_id("lists-mine").get_by_test_id("list-played")).to_contain_text(
        IRUSK_NAME
    )
    during.scroll_into_view_if_needed()
    _shot(ann, "2-during-the-game")


def test_a_specialist_reveal_at_an_ig2014_table(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    body = {"name": "Gauntlet", "format": "ig2014", "lists": 2, "pregame": True, "points": 75}
    links = _table(live_server, body, LISTS, "destruction")
    ann, ann_frames = _phone(browser, links["Ann"])
    bob, bob_frames = _phone(browser, links["Bob"])
    ann.get_by_role("button", name=IRUSK_NAME).click()
    bob.get_by_role("button", name=HALEY.splitlines()[0]).click()
    for page in (ann, bob):
        expect(page.locator("#pregame h2")).to_have_text("Choose your specialists")
    removals = ann.get_by_test_id("swap-removals")
    expect(removals.locator("label")).to_have_count(5)
    expect(ann.get_by_test_id("swap-additions")).to_contain_text("Kovnik Jozef (4)")
    _shot(ann, "3-specialists-to-choose")

    # An illegal swap is refused in the list's words.
    removals.get_by_text("Widowmaker Marksman (4)").click()
    ann.get_by_role("button", name="Choose these specialists").click()
    expect(ann.locator(".toast").last).to_contain_text("would total 71 points")
    _shot(ann, "4-refused")
    expect(ann.get_by_role("button", name="Choose these specialists")).to_be_visible()
    # The refused swap stays ticked: the player adds to it.
    expect(ann.get_by_label("Widowmaker Marksman (4)")).to_be_checked()
    ann.get_by_test_id("swap-additions").get_by_text("Kovnik Jozef (4)").click()
    ann.get_by_role("button", name="Choose these specialists").click()
    expect(ann.get_by_test_id("my-specialists")).to_contain_text("in Kovnik Jozef")
    expect(bob.get_by_test_id("opp-specialists")).to_contain_text("Ann has chosen")
    assert not any("Kovnik" in f for f in bob_frames), "Ann's swap reached Bob before his"
    _shot(bob, "5-opponent-has-chosen")

    bob.get_by_role("button", name="Choose these specialists").click()
    for page in (ann, bob):  # both revealed at once
        shown = page.get_by_test_id("specialists-revealed")
        expect(shown).to_contain_text("out Widowmaker Marksman: 4 · in Kovnik Jozef (C) (4)")
        expect(shown).to_contain_text("no swap")
        expect(page.locator("#pregame h2")).to_have_text("Starting roll")
    swap = _open_lists(bob).get_by_test_id("lists-opponent").get_by_test_id("swap")
    expect(swap).to_contain_text("in: Kovnik Jozef (C) (4)")
    expect(bob.locator("#army-lists .al-added")).to_contain_text("Kovnik Jozef")
    expect(bob.locator("#army-lists .al-removed")).to_contain_text("Widowmaker Marksman")
    bob.locator("#pregame").scroll_into_view_if_needed()
    _shot(bob, "6-revealed")
    assert IRUSK  # the fixture the lists come from
    assert not any("Kovnik" in f for f in ann_frames[:1])
