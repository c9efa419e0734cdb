"""A seat opened from the table card before the organiser starts the round, in Chromium
at 390×844: the page says it waits for the organiser to start round 1, with the
opponent's name, and has nothing to press and nothing of the scenario; when the EO
starts the round over the API, the same page moves on by itself, without a reload
(RP4, DC4, DC11).

Screenshots go to test-artifacts/draft-seat/ (git-ignored)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "draft-seat"
WAITING = re.compile(r"waiting for the organiser to start round 1", re.IGNORECASE)
ANY_START = re.compile(r"start", re.IGNORECASE)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _phone(browser: Any, url: str, errors: list[str]) -> Any:
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def _runewars_event(http: httpx.Client) -> tuple[str, dict[str, str]]:
    body = {"name": "Draft Runewars", "format": "runewars2017", "fixed_rounds": 2}
    created = http.post("/api/events", json=body).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name, army in (("Ann", 180), ("Bob", 190)):
        entrant = {"name": name, "army_value": army}
        added = http.post(f"/api/events/{eid}/tournament/players", json=entrant, headers=eo)
        assert added.is_success, added.text
    return eid, eo


def test_a_draft_seat_waits_for_the_organiser_then_moves_on_without_a_reload__RP4_DC4(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Draft Day", "points": 75}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    paired = http.post(f"/api/events/{eid}/rounds", json={"scenario": "spread-the-net"}, headers=eo)
    assert paired.is_success, paired.text
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    opponent = table["names"][1]

    page = _phone(browser, table["links"]["p1"]["url"], errors)
    waiting = page.locator("#waiting")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text(WAITING)
    expect(waiting).to_contain_text(opponent)
    expect(page.locator("#table-label")).to_have_text("Table 1 · Round 1 · Draft Day")
    # Nothing to press: no start, no tap area, no concede; nothing of the scenario.
    expect(page.get_by_role("button", name=ANY_START)).to_have_count(0)
    expect(page.get_by_role("button", name="Concede")).to_have_count(0)
    expect(page.locator("#tap")).to_be_hidden()
    expect(page.locator("body")).not_to_contain_text("Spread the Net")
    _fits(page)
    _shot(page, "waiting-p1")
    # The table card the seat was opened from says nothing of the scenario either.
    cards = _phone(browser, f"{live_server}/e/{eid}/cards#k={created['admin_token']}", errors)
    expect(cards.locator(".print-card .pc-round")).to_have_text("Round 1")
    # Who goes first is settled at the table once the round starts: no card says it.
    expect(cards.locator(".print-card").first).not_to_contain_text("First player")
    cards.close()
    page.evaluate("window.__samePage = true")

    started = http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.is_success, started.text

    expect(waiting).to_be_hidden()
    # Off the clock, the table settles who goes first: the starting roll comes first.
    expect(page.locator("#phase")).to_contain_text("Pre-game")
    expect(page.locator("#pregame h2")).to_have_text("Starting roll")
    expect(page.get_by_role("button", name="Roll a d6")).to_be_visible()
    expect(page.locator("#scenario-name")).to_contain_text("Spread the Net")
    assert page.evaluate("window.__samePage") is True  # moved on live, not reloaded
    _shot(page, "started-p1")
    assert errors == []


def test_a_draft_runewars_seat_waits_then_shows_the_round_cards__DC11_RP4(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    http = httpx.Client(base_url=live_server)
    eid, eo = _runewars_event(http)
    paired = http.post(f"/api/events/{eid}/tournament/rounds", headers=eo)
    assert paired.is_success, paired.text
    deployment = paired.json()["deployment"]
    tables = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    table = next(t for t in tables if t["round"] == 1)
    opponent = table["names"][1]

    page = _phone(browser, table["links"]["p1"]["url"], errors)
    waiting = page.locator("#waiting")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text(WAITING)
    expect(waiting).to_contain_text(opponent)
    expect(page.get_by_role("button", name=ANY_START)).to_have_count(0)
    expect(page.get_by_role("button", name="Concede")).to_have_count(0)
    expect(page.locator("body")).not_to_contain_text(deployment)
    _fits(page)
    _shot(page, "waiting-runewars-p1")
    page.evaluate("window.__samePage = true")

    started = http.post(f"/api/events/{eid}/tournament/rounds/current/start", headers=eo)
    assert started.is_success, started.text

    expect(waiting).to_be_hidden()
    expect(page.locator("#rw-deployment")).to_have_text(deployment)
    expect(page.locator("#rw-prompt")).to_contain_text("chooses the first player")
    assert page.evaluate("window.__samePage") is True
    _shot(page, "started-runewars-p1")
    assert errors == []
