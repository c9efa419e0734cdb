"""Two phones (390×844) in Chromium play a Runewars game to a Final Flurry
(DC11, TS11, ST5); screenshots go to test-artifacts/."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"runewars-{name}.png"), full_page=True)


def test_two_phones_play_runewars_to_a_final_flurry__TS11_DC11(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    links = httpx.post(
        f"{live_server}/api/tables",
        json={
            "format": "runewars2017",
            "p1_name": "Ann",
            "p2_name": "Bob",
            "p1_army": 200,
            "p2_army": 186,
        },
    ).json()
    pages = []
    for seat in ("p1", "p2"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(links[seat]["url"])
        pages.append(page)
    p1, p2 = pages
    expect(p1.locator("#role")).to_have_text("Ann")  # each seat by its player's name
    expect(p2.locator("#role")).to_have_text("Bob")
    expect(p1.locator("#rw-timer")).to_have_text("1:30:00")
    # Bob has the lower army: he chooses, and makes Ann first player.
    expect(p2.locator("#rw-first")).to_be_visible()
    expect(p1.locator("#rw-first")).to_be_hidden()
    _shot(p2, "1-first-player")
    p2.locator("#rw-first-p1").click()
    expect(p2.locator("#rw-area")).to_be_visible()
    p2.locator("[data-area=red]").click()
    expect(p1.locator("#rw-start")).to_be_visible()
    p1.locator("[data-rw=start]").click()
    expect(p1.locator("#rw-end-round")).to_be_visible()
    expect(p2.locator("#rw-end-round")).to_be_hidden()  # only the first player turns it
    expect(p2.locator("#rw-tag-p2")).to_contain_text("red")
    for n in range(1, 9):
        expect(p1.locator("#rw-round")).to_have_text(str(n))
        if n == 4:
            _shot(p1, "2-playing")
        p1.locator("#rw-end-round").click()
    expect(p1.locator("#rw-score")).to_be_visible()
    p1.locator("#rw-destroyed").fill("120")
    p1.locator("#rw-objectives").fill("10")
    p1.locator("#rw-score-send").click()
    expect(p1.locator("#rw-score-wait")).to_be_visible()
    p2.locator("#rw-destroyed").fill("130")
    p2.locator("#rw-objectives").fill("0")
    _shot(p2, "3-scoring")
    p2.locator("#rw-score-send").click()
    expect(p1.locator("#rw-flurry")).to_be_visible()
    expect(p1.locator("#rw-prompt")).to_contain_text("Final Flurry")
    _shot(p1, "4-final-flurry")
    p1.locator("#rw-hits").fill("3")  # each phone enters its own player's hits
    p1.locator("#rw-flurry-send").click()
    p2.locator("#rw-hits").fill("5")
    p2.locator("#rw-flurry-send").click()
    expect(p2.locator("#rw-result-title")).to_have_text("Bob wins")
    expect(p2.locator("#rw-result-detail")).to_contain_text("TP 5 – 6")
    expect(p2.locator("#rw-result-detail")).to_contain_text("Final Flurry 3 – 5")
    p1.locator("#rw-confirm").click()
    p2.locator("#rw-confirm").click()
    expect(p1.locator("#rw-agree-state")).to_have_text("Both players confirmed: the result stands.")
    _shot(p2, "5-result")


_SEQ = itertools.count(1)


def _cmd(ws_base: str, table: dict[str, Any], seat: str, command: dict[str, Any]) -> None:
    """One command from the seat's phone (the table's answer: an ack)."""
    from websockets.sync.client import connect

    token = table["links"][seat]["url"].split("#k=", 1)[1]
    with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": f"rw-{seat}"}))
        ws.recv(timeout=60)
        ws.send(json.dumps({"t": "cmd", "seq": next(_SEQ), **command}))
        while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
            pass
        assert reply["t"] == "ack", reply


def _chooser(ws_base: str, table: dict[str, Any]) -> str:
    from websockets.sync.client import connect

    token = table["links"]["p1"]["url"].split("#k=", 1)[1]
    with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": "rw-look"}))
        return str(json.loads(ws.recv(timeout=60))["game"]["chooser"])


def test_the_eo_corrects_a_result_from_the_admin_page__TS11_ST5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events", json={"name": "Runewars Judges", "format": "runewars2017", "fixed_rounds": 2}
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    for n, name in enumerate(("Ann", "Bob", "Cal", "Dee")):
        assert (
            http.post(
                f"{base}/players", json={"name": name, "army_value": 200 - n}, headers=eo
            ).status_code
            == 201
        )
    assert http.post(f"{base}/rounds", headers=eo).status_code == 201
    assert http.post(f"{base}/rounds/current/start", headers=eo).is_success
    tables = sorted(
        http.get(f"/api/events/{eid}/tables", headers=eo).json(), key=lambda t: t["table_no"]
    )
    ws_base = live_server.replace("http://", "ws://")
    for table in tables:  # set up and play game round 1; time is called on it
        _cmd(ws_base, table, _chooser(ws_base, table), {"c": "choose_first", "first": "p1"})
        _cmd(ws_base, table, "p2", {"c": "choose_area", "area": "red"})
    assert http.post(f"{base}/rounds/current/time", headers=eo).is_success
    for table in tables:
        _cmd(ws_base, table, "p1", {"c": "end_game_round", "expect": 1})
    # Table 1's players score it themselves: P1 130 against 60, a win of MoV 70 (8-3 TP).
    _cmd(ws_base, tables[0], "p1", {"c": "enter_score", "destroyed": 120, "objectives": 10})
    _cmd(ws_base, tables[0], "p2", {"c": "enter_score", "destroyed": 60, "objectives": 0})
    for seat in ("p1", "p2"):  # both players confirm it: the result stands
        _cmd(ws_base, tables[0], seat, {"c": "confirm"})
    view = http.get(base).json()
    first = view["rounds"][0]["pairings"][0]
    p1_name, p2_name = first["p1"]["name"], first["p2"]["name"]

    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.goto(created["admin_url"])
    rows = page.locator("#rounds tbody tr")
    expect(rows.nth(0)).to_contain_text(f"{p1_name} wins · TP 8–3 · MoV 70–0")
    tp = page.locator("#standings tbody tr", has_text=p1_name).locator("td").nth(2)
    expect(tp).to_have_text("8")

    # Table 2 is disputed: the EO enters it; equal scores need the Final Flurry.
    rows.nth(1).locator(".judge-open").click()
    expect(page.locator("#judge-title")).to_have_text("Enter the result of table 2")
    for field, value in (
        ("p1-destroyed", "50"),
        ("p1-objectives", "0"),
        ("p2-destroyed", "40"),
        ("p2-objectives", "10"),
    ):
        page.fill(f"#judge-{field}", value)
    expect(page.locator("#judge-flurry")).to_be_visible()  # 50 each, as entered
    page.fill("#judge-p2-objectives", "11")
    expect(page.locator("#judge-flurry")).to_be_hidden()
    page.fill("#judge-p2-objectives", "10")
    page.click("#judge-send")
    page.click("#confirm-yes")
    expect(page.locator("#judge-error")).to_contain_text("Final Flurry")
    page.fill("#judge-flurry-p1", "4")
    page.fill("#judge-flurry-p2", "2")
    page.click("#judge-send")
    page.click("#confirm-yes")
    expect(page.locator("#judge")).to_be_hidden()
    expect(rows.nth(1)).to_contain_text("wins · TP 6–5 · MoV 0–0")

    # Table 1's scores were swapped: the EO corrects them, with the reason.
    rows.nth(0).locator(".judge-open").click()
    expect(page.locator("#judge-title")).to_have_text("Correct the result of table 1")
    expect(page.locator("#judge-p1-destroyed")).to_have_value("120")
    page.fill("#judge-p1-destroyed", "60")
    page.fill("#judge-p1-objectives", "0")
    page.fill("#judge-p2-destroyed", "120")
    page.fill("#judge-p2-objectives", "10")
    page.click("#judge-send")
    expect(page.locator("#judge-error")).to_contain_text("Give the reason")
    page.fill("#judge-reason", "the scores were swapped")
    page.click("#judge-send")
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Correct the result of table 1?")
    expect(dialog).to_contain_text(f"Now: {p1_name} wins · TP 8–3")
    expect(dialog).to_contain_text(f"{p2_name}: 120 army value destroyed + 10 objective points")
    expect(dialog).to_contain_text("Reason: the scores were swapped")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "runewars-eo-correct-result.png"))
    page.click("#confirm-yes")
    expect(rows.nth(0)).to_contain_text(
        f"{p2_name} wins · TP 3–8 · MoV 0–70 · corrected: the scores were swapped"
    )
    expect(tp).to_have_text("3")  # ST5: the standings follow the correction
    winner = page.locator("#standings tbody tr", has_text=p2_name).locator("td")
    expect(winner.nth(2)).to_have_text("8")
    expect(winner.nth(0)).to_have_text("1")
    page.screenshot(path=str(ARTIFACTS / "runewars-eo-corrected.png"), full_page=True)
    stored = http.get(base).json()["rounds"][0]["pairings"][0]["result"]
    assert stored["winner"] == first["p2"]["id"] and stored["tp"] == [3, 8]
