"""The EO dashboard in Chromium shows each Runewars table's round timer and game round
(DC11), live as the phones play; a screenshot goes to test-artifacts/."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _play(ws_base: str, table: dict[str, Any], moves: list[tuple[str, dict[str, Any]]]) -> None:
    """Each move on its seat's phone: (seat, command), numbered in order."""
    for n, (seat, command) in enumerate(moves, start=1):
        token = table["links"][seat]["url"].split("#k=", 1)[1]
        with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"t": "hello", "token": token, "device": f"rw-{seat}"}))
            ws.recv(timeout=60)
            ws.send(json.dumps({"t": "cmd", "seq": n, **command}))
            while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", reply


def _hello(ws_base: str, table: dict[str, Any]) -> dict[str, Any]:
    token = table["links"]["p1"]["url"].split("#k=", 1)[1]
    with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": "rw-look"}))
        game: dict[str, Any] = json.loads(ws.recv(timeout=60))["game"]
        return game


def test_dashboard_shows_runewars_round_timer_and_game_round__DC11(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events",
        json={"name": "Runewars Night", "format": "runewars2017", "fixed_rounds": 2},
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    for n, name in enumerate(("Ann", "Bob", "Cal", "Dee")):
        added = http.post(f"{base}/players", json={"name": name, "army_value": 200 - n}, headers=eo)
        assert added.status_code == 201, added.text
    assert http.post(f"{base}/rounds", headers=eo).status_code == 201
    assert http.post(f"{base}/rounds/current/start", headers=eo).is_success
    tables = sorted(
        http.get(f"/api/events/{eid}/tables", headers=eo).json(), key=lambda t: t["table_no"]
    )
    assert len(tables) == 2 and all(t["game"] == "runewars" for t in tables)

    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(created["dashboard_url"])
    cards = [page.locator(f'[data-table-id="{t["id"]}"]') for t in tables]
    for card in cards:
        expect(card).to_have_class(re.compile(r"\bround-timer\b"))
    # The round timer counts down on the dashboard by itself (90 minutes, DC11).
    timer = cards[0].locator(".round-timer-clock")
    expect(timer).to_have_text(re.compile(r"^1:29:|^1:30:00$"))
    before = timer.inner_text()
    expect(timer).not_to_have_text(before)

    # The first table sets up: the lower army total chooses who goes first, the other
    # player picks the side; then the first player ends game round 1.
    first = tables[0]
    ws_base = live_server.replace("http://", "ws://")
    chooser = _hello(ws_base, first)["chooser"]
    other = "p1" if chooser == "p2" else "p2"
    _play(
        ws_base,
        first,
        [
            (chooser, {"c": "choose_first", "first": chooser}),
            (other, {"c": "choose_area", "area": "red"}),
            (chooser, {"c": "end_game_round", "expect": 1}),
        ],
    )
    expect(cards[0].locator(".phase")).to_have_text(re.compile(r"Game round 2 of 8"))
    expect(cards[0].locator(".game-round")).to_have_text("2")
    expect(cards[1].locator(".phase")).to_have_text("Choosing the first player")
    expect(page.locator("#round-label")).to_contain_text("Round 1 of 2")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "runewars-dashboard.png"), full_page=True)


def test_eo_page_runs_a_runewars_event_and_the_public_page_follows__RP6_ST5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events",
        json={"name": "Runewars Cup", "format": "runewars2017", "fixed_rounds": 3, "cut_to_top": 2},
    ).json()
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.goto(created["admin_url"])
    expect(page.locator("#event-meta")).to_contain_text("3 Swiss rounds, then a cut to the top 2")
    for n, name in enumerate(("Ann", "Bob", "Cal", "Dee")):
        page.fill("#add-name", name)
        page.fill("#add-army", str(200 - n))
        page.click("#add-form button[type=submit]")
        expect(page.locator("#players tbody tr")).to_have_count(n + 1)
    page.fill("#add-name", "Eve")
    page.fill("#add-army", "250")
    page.click("#add-form button[type=submit]")
    expect(page.locator("#page-error")).to_contain_text("200")  # the players' words
    expect(page.locator("#add-name")).to_have_value("Eve")  # nothing typed is lost
    expect(page.locator("#players")).to_contain_text("197")
    page.click("#do-pair")
    page.click("#confirm-yes")  # asked first: a paired round cannot be taken back
    expect(page.locator("#rounds")).to_contain_text("Round 1 · Swiss")
    expect(page.locator("#rounds tbody tr")).to_have_count(2)
    page.click("#do-start")
    page.click("#confirm-yes")
    expect(page.locator("#rounds tbody")).to_contain_text("Waiting")
    expect(page.locator("#standings tbody tr")).to_have_count(4)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "runewars-event-admin.png"), full_page=True)

    public = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    public.goto(created["public_url"])
    expect(public.locator("#rounds")).to_contain_text("Round 1 · Swiss")
    assert public.locator("#add-form").count() == 0  # nothing to change for the public
    standings = http.get(f"/api/events/{created['id']}/tournament/standings.csv").text
    assert (
        standings.splitlines()[0] == "rank,player_id,name,tp,mov,sos,dropped,status,dropped_after"
    )
