"""Two phones (390×844) settle the pre-game of an event table: secret lists revealed at
once, objectives, the starting roll, first or second, the table edge; then the clock.

The phones' socket frames are recorded: neither receives the other's list or objective
before both have chosen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def event_with_pregame(live_server: str) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """An SR2019 event with two lists each and the pre-game on the phones, round 1
    started: its table, each player's seat link and the EO's headers."""
    http = httpx.Client(base_url=live_server)
    body = {"name": "Pre-game night", "format": "sr2019", "lists": 2, "pregame": True}
    created = http.post("/api/events", json=body).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name, lists in (("Ann", "Haley Prime\nStryker 3"), ("Bob", "Kreoss\nSeverius")):
        added = http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": lists}, headers=eo
        )
        assert added.status_code == 201, added.text
    paired = http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).status_code == 200
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    seat = {table["names"][0]: "p1", table["names"][1]: "p2"}
    links = {name: table["links"][seat[name]]["url"] for name in ("Ann", "Bob")}
    return {**table, "event_id": eid, "dashboard": created["dashboard_url"]}, links, eo


def _phone(browser: Any, url: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1)
    page = context.new_page()
    frames: list[str] = []
    page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(_without_lists(f)))
    )
    page.goto(url)
    return page, frames


def _without_lists(frame: Any) -> str:
    """A frame less the Lists view's lists (every list of both players is public at the
    table: SR2019 "Players can ask to see their opponent's lists at any time")."""
    import json

    from tests.integration.test_pregame_socket import without_lists

    try:
        return json.dumps(without_lists(json.loads(str(frame))))
    except ValueError:
        return str(frame)


def _without_choices(frame: str) -> str:
    """A frame less the six objectives every phone chooses from."""
    import re

    return re.sub(r'"objective_choices": ?\[[^\]]*\]', "", frame)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pregame-{name}.png"), full_page=True)


def test_two_phones_settle_the_pregame_with_a_simultaneous_reveal(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    table, links, eo = event_with_pregame(live_server)
    ann, ann_frames = _phone(browser, links["Ann"])
    bob, bob_frames = _phone(browser, links["Bob"])
    for page in (ann, bob):
        expect(page.locator("#pregame")).to_be_visible()
        expect(page.locator("#pregame h2")).to_have_text("Choose your list")
    expect(ann.locator(".pg-choice")).to_have_text(["Haley Prime", "Stryker 3"])
    expect(bob.locator(".pg-choice")).to_have_text(["Kreoss", "Severius"])
    _shot(ann, "1-lists")

    # The EO's dashboard shows the table still in its pre-game.
    rows = httpx.get(f"{live_server}/api/events/{table['event_id']}/tables", headers=eo).json()
    assert rows[0]["status"] == "pregame"
    dashboard = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    dashboard.goto(table["dashboard"])
    card = dashboard.locator(f'[data-table-id="{table["id"]}"]')
    expect(card.locator(".status")).to_have_text("pregame")
    expect(dashboard.locator("#summary")).to_contain_text("1 in their pre-game")
    expect(card).to_contain_text("Pre-game — lists")
    dashboard.screenshot(path=str(ARTIFACTS / "pregame-dashboard.png"))

    # The EO's page of the table follows the pre-game and may start the clock over it.
    eo_table, eo_frames = _phone(browser, table["links"]["eo"])
    expect(eo_table.locator("#pregame")).to_contain_text("Ann is choosing")
    expect(eo_table.get_by_text("Start the clock now")).to_be_visible()

    # Nobody is called P1 or P2 before the starting roll decides who goes first: the
    # phones name the players (a seat number is no player's order of play).
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        expect(page.locator("#role")).to_have_text(name)
        expect(page.locator("#matchup")).to_have_text(re.compile(r"^(Ann vs Bob|Bob vs Ann)$"))
        expect(page.locator(".seat-tag").first).to_be_hidden()
        assert "P1" not in page.locator("#app").inner_text()
        assert "P2" not in page.locator("#app").inner_text()
    ann.get_by_role("button", name="Stryker 3").click()
    expect(ann.get_by_test_id("my-list")).to_contain_text("Stryker 3")
    expect(bob.get_by_test_id("opp-list")).to_contain_text("Ann has chosen")
    _shot(bob, "2-opponent-has-chosen")
    assert not any("Stryker" in f for f in bob_frames), "Bob's phone received Ann's list"
    assert not any("Haley" in f for f in bob_frames)
    expect(eo_table.locator("#pregame")).to_contain_text("Ann has chosen")
    assert not any("Stryker" in f for f in eo_frames), "the EO's screen received Ann's list"

    assert not any("Kreoss" in f or "Severius" in f for f in ann_frames)
    bob.get_by_role("button", name="Kreoss").click()
    for page in (ann, bob):  # both revealed at once
        expect(page.get_by_test_id("lists-revealed")).to_contain_text("Stryker 3")
        expect(page.get_by_test_id("lists-revealed")).to_contain_text("Kreoss")
        expect(page.locator("#pregame h2")).to_have_text("Choose your objective")

    ann.get_by_role("button", name="Armory").click()
    expect(bob.get_by_test_id("opp-objective")).to_contain_text("Ann has chosen")
    bob.get_by_role("button", name="Stockpile").click()
    expect(ann.locator("#pregame h2")).to_have_text("Starting roll")
    assert not any("Severius" in f for f in ann_frames)  # the list not chosen, never
    assert not any('"Armory"' in _without_choices(f) for f in bob_frames)

    # The starting roll: the server rolls both dice; a tie is rolled again.
    for attempt in range(10):
        ann.get_by_role("button", name="Roll a d6").click()
        if attempt == 0:  # Ann's die shows on Bob's phone before he rolls
            expect(bob.locator("#pregame")).to_contain_text("Ann rolled")
            _shot(bob, "3a-rolling")
        bob.get_by_role("button", name="Roll a d6").click()
        ann.wait_for_function(
            "n => document.querySelector('#pregame h2').textContent === 'First or second'"
            " || [...document.querySelectorAll('#pregame .pg-roll')]"
            ".filter(p => p.textContent.includes('roll again')).length > n",
            arg=attempt,
        )
        if ann.locator("#pregame h2").inner_text() == "First or second":
            break
    expect(ann.locator("#pregame h2")).to_have_text("First or second")
    _shot(ann, "3-roll-won-or-lost")
    winner = ann if ann.get_by_role("button", name="Go second").count() else bob
    loser = bob if winner is ann else ann
    expect(winner.get_by_role("button", name="Go second")).to_be_visible()
    _shot(winner, "4-first-or-second")
    winner.get_by_role("button", name="Go second").click()
    # The winner goes second: the other player goes first, and both phones say so.
    loser_name, winner_name = ("Bob", "Ann") if winner is ann else ("Ann", "Bob")
    expect(loser.locator("#role")).to_have_text(f"{loser_name} · first player")
    expect(winner.locator("#role")).to_have_text(f"{winner_name} · second player")
    expect(winner.get_by_role("button", name="Keep my side")).to_be_visible()
    expect(winner.locator("#concede")).to_be_hidden()  # nothing to concede before the game
    _shot(winner, "5-edge")
    winner.get_by_role("button", name="Take the other side").click()
    for page in (ann, bob):
        expect(page.get_by_test_id("objectives-revealed")).to_contain_text("Armory")
        expect(page.get_by_test_id("objectives-revealed")).to_contain_text("Stockpile")
    expect(loser.locator("#pregame")).to_contain_text("You go first. ")
    expect(winner.locator("#pregame")).to_contain_text("You go second. ")
    _shot(loser, "6-done")
    # The scenario's objectives are named by the players' choices (and the scoring sheet).
    for page in (ann, bob):
        elements = page.locator("#scenario-elements")
        expect(elements).to_contain_text("Ann's Armory objective", use_inner_text=False)
        expect(elements).to_contain_text("Bob's Stockpile objective", use_inner_text=False)
    loser.locator("#start").click()
    expect(loser.locator("#phase")).to_contain_text("Deployment")
    expect(card.locator(".status")).to_have_text("deploying")
    expect(winner.locator("#pregame")).to_be_hidden()
    _shot(winner, "7-deployment")
    # The game over, the report form already holds the list chosen at the table.
    winner.locator("#concede").click()
    winner.locator("#confirm-yes").click()
    own = "Stryker 3" if loser is ann else "Kreoss"
    expect(loser.locator("#report-list")).to_have_value(own)
    _shot(loser, "8-report")
    # The table log names each pre-game step, never what was chosen in secret.
    log = loser.context.new_page()
    log.set_viewport_size(PHONE)
    log.goto(loser.url.replace("/t/", "/t/").split("#")[0] + "/log#" + loser.url.split("#")[1])
    expect(log.locator("body")).to_contain_text("chose their list")
    expect(log.locator("body")).to_contain_text("Starting roll: ")
    expect(log.locator("body")).to_contain_text(f"{winner_name} won the roll and goes second")
    # People read names, never seats: after the roll, both phones and the log name the
    # players, say who goes first and second, and never say "P1"/"P2".
    order = f"{loser_name} (first player) vs {winner_name} (second player)"
    for page in (ann, bob):
        expect(page.locator("#matchup")).to_have_text(order)
    for page in (ann, bob, log):
        said = page.evaluate("document.body.innerText")
        assert not re.search(r"\bP[12]\b", said), said
    _shot(log, "9-log")
