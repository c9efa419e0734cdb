"""Warnings and penalties in Chromium: the EO records a warning and a game loss on the
admin page at 1366×768 (the game loss only after the page asks), the result and the
log follow, and the player's record sheet shows them at 390×844.

Screenshots go to /tmp/penalties-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.events import started_round

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ("Ann Archer", "Bob Boulder", "Cal Crane", "Dee Drake")


def _choose(page: Any, select: str, label: str) -> None:
    page.locator(select).select_option(label=label)


def test_the_eo_records_a_warning_and_a_game_loss_and_the_sheet_shows_them(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    started = started_round(live_server, {"name": "Conduct Open"}, NAMES)
    http, eo = started.http, started.eo
    eid, token = started.created["id"], started.created["admin_token"]
    event = http.get(f"/api/events/{eid}").json()
    ids = {p["name"]: p["id"] for p in event["players"]}
    game = next(
        p
        for p in event["rounds"][0]["pairings"]
        if "Ann Archer" in (p["p1"]["name"], p["p2"]["name"])
    )
    ann_slot = "p1" if game["p1"]["name"] == "Ann Archer" else "p2"
    opponent = game["p2" if ann_slot == "p1" else "p1"]["name"]
    won = {"winner": ann_slot, "control_points": [3, 3], "army_points_destroyed": [20, 20]}
    entered = http.put(f"/api/events/{eid}/tables/{game['table_id']}/result", json=won, headers=eo)
    assert entered.is_success, entered.text

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{live_server}/e/{eid}/admin#k={token}")
    card = page.locator("#penalties-card")
    expect(card.locator("#no-penalties")).to_be_visible()
    expect(card.locator("#penalty-kind option")).to_have_count(3)

    # A warning: recorded at once, no question asked.
    _choose(page, "#penalty-player", "Bob Boulder")
    _choose(page, "#penalty-kind", "Warning")
    expect(card.locator("#penalty-effect")).to_have_text("Warning: recorded; nothing else changes.")
    card.locator("#penalty-reason").fill("Slow play after two reminders")
    card.locator("#penalty-record").click()
    rows = card.locator("#penalties-body tr.penalty")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Bob Boulder")
    expect(rows.first).to_contain_text("Slow play after two reminders")
    expect(page.locator("#confirm-dialog")).to_have_count(0)

    # A game loss: the page asks first, by the players' names; Cancel changes nothing.
    _choose(page, "#penalty-player", "Ann Archer")
    _choose(page, "#penalty-kind", "Game loss")
    _choose(page, "#penalty-round", "Round 1")
    card.locator("#penalty-reason").fill("Moved models after the turn ended")
    card.locator("#penalty-record").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Ann Archer loses the game of round 1?")
    expect(dialog).to_contain_text(f"against {opponent} (table {game['table']})")
    page.locator("#confirm-no").click()
    expect(rows).to_have_count(1)
    card.locator("#penalty-record").click()
    page.screenshot(path="/tmp/penalties-admin-confirm.png")
    page.locator("#confirm-yes").click()
    expect(rows).to_have_count(2)
    newest = rows.first
    expect(newest).to_contain_text("Ann Archer")
    expect(newest).to_contain_text("Game loss")
    expect(newest).to_contain_text("Moved models after the turn ended")
    expect(newest.locator("td").nth(2)).to_have_text("1")
    # The result moved by the EO's path, with the reason; the log says so in words.
    result = http.get(f"/api/events/{eid}").json()["rounds"][0]["pairings"]
    moved = next(p for p in result if p["table_id"] == game["table_id"])["result"]
    assert moved["winner"] != ann_slot
    assert moved["reason"] == "Game loss for Ann Archer: Moved models after the turn ended"
    log = page.locator("#actions")
    expect(log).to_contain_text("Game loss for Ann Archer (round 1): Moved models after")
    expect(log).to_contain_text("Warning for Bob Boulder (round 1): Slow play")
    standings = http.get(f"/api/events/{eid}/standings").json()
    assert next(s for s in standings if s["player_id"] == ids["Ann Archer"])["tp"] == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]

    # The warning was recorded in error: withdrawn with the reason, after the page asks.
    warned = rows.nth(1)
    warned.get_by_role("button", name="Withdraw").click()
    card.locator("#withdraw-reason").fill("It was the player at the next table")
    card.locator("#withdraw-confirm").click()
    expect(dialog).to_contain_text("Withdraw Bob Boulder's warning?")
    page.locator("#confirm-yes").click()
    expect(warned).to_contain_text("withdrawn")
    expect(warned).to_contain_text("It was the player at the next table")
    expect(warned.get_by_role("button", name="Withdraw")).to_have_count(0)
    expect(log).to_contain_text("Withdrew Bob Boulder's warning: It was the player")
    page.screenshot(path="/tmp/penalties-admin.png", full_page=True)

    # The player's record sheet on a phone.
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_server}/e/{eid}/players/{ids['Ann Archer']}/sheet")
    shown = phone.locator("#sheet-penalties")
    expect(shown).to_be_visible()
    expect(shown.locator("li")).to_have_count(1)
    expect(shown).to_contain_text("Game loss")
    expect(shown).to_contain_text("Round 1")
    expect(shown).to_contain_text("Moved models after the turn ended")
    expect(phone.locator("#sheet-body")).to_contain_text("Loss")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path="/tmp/penalties-sheet.png", full_page=True)
    bob = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    bob.goto(f"{live_server}/e/{eid}/players/{ids['Bob Boulder']}/sheet")
    expect(bob.locator("#sheet-penalties")).to_contain_text("Slow play after two reminders")
    expect(bob.locator("#sheet-penalties")).to_contain_text(
        "Withdrawn: It was the player at the next table"
    )
    expect(bob.locator("#sheet-penalties")).not_to_contain_text("Game loss")
