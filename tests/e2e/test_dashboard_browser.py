"""The EO dashboard in Chromium follows the tables' phones live."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.e2e.events import first_seat_goes_first

pytestmark = pytest.mark.browser


def _tap(ws_base: str, table: dict[str, Any], seat: str, expect: str) -> None:
    token = table["links"][seat]["url"].split("#k=", 1)[1]
    with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": f"e2e-{seat}"}))
        ws.recv(timeout=60)
        ws.send(json.dumps({"t": "cmd", "seq": 1, "c": "pass_turn", "expect": expect}))
        while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
            pass
        assert reply["t"] == "ack", reply


def test_dashboard_shows_tables_tapping_and_a_paused_table__DC5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Dashboard check", "points": 75}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    tables = sorted(
        http.get(f"/api/events/{eid}/tables", headers=eo).json(), key=lambda t: t["table_no"]
    )
    assert len(tables) == 3

    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(created["dashboard_url"])
    cards = [page.locator(f'[data-table-id="{t["id"]}"]') for t in tables]
    ws_base = live_server.replace("http://", "ws://")
    for card, table in zip(cards, tables, strict=True):
        expect(card.locator(".status")).to_have_text("pregame")  # who goes first, off the clock
        first_seat_goes_first(live_server, table)
        expect(card).to_have_class(re.compile(r"\brunning-p1\b"))
    # Clocks tick on the dashboard by themselves.
    before = cards[0].locator(".clock-p1").inner_text()
    expect(cards[0].locator(".clock-p1")).not_to_have_text(before)

    _tap(ws_base, tables[0], "p1", "p1")
    _tap(ws_base, tables[1], "p1", "p1")
    for card in cards[:2]:
        expect(card).to_have_class(re.compile(r"\brunning-p2\b"))
    p2_before = cards[0].locator(".clock-p2").inner_text()
    expect(cards[0].locator(".clock-p2")).not_to_have_text(p2_before)

    paused = http.post(
        f"/api/events/{eid}/tables/{tables[2]['id']}/command", json={"c": "pause"}, headers=eo
    )
    assert paused.json()["status"] == "paused"
    expect(cards[2].locator(".status")).to_have_text("paused")
    frozen = cards[2].locator(".clock-p1").inner_text()
    page.wait_for_timeout(1200)  # the paused clock must not move, so watch it for a while
    assert cards[2].locator(".clock-p1").inner_text() == frozen


def test_the_eo_page_stays_live_and_syncs_its_clock(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "EO page check", "points": 75}).json()
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(created["admin_url"])
    expect(page.locator("#live")).to_have_text("live")
    # Its socket pings (the heartbeat): the pongs set the page's estimate of server time.
    page.wait_for_function("window.DC.time.samples.length >= 2")
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    assert http.post(f"/api/events/{eid}/players", json={"name": "Ann"}, headers=eo).is_success
    expect(page.locator("body")).to_contain_text("Ann")  # live: no reload
    standings = page.locator("#standings-body tr[data-player-id]")
    expect(standings).to_have_count(1)
    expect(standings.first.locator("td").nth(1)).to_have_text("Ann")
    public = browser.new_context().new_page()
    public.goto(f"{live_server}/e/{eid}")
    expect(public.locator("#standings-body tr[data-player-id] td").nth(1)).to_have_text("Ann")
