"""In Chromium: dice down asks the kill box of the turn it ended on that turn's player's
phone, on the end-of-turn sheet (DC10, TS3: "At dice down, resolve all end-of-turn
effects"); and the table log says what both casters destroyed at once did in the game's
rules, in the server's words (TS6, No Tiebreakers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import seat_sends

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
EO_SCREEN = {"width": 1366, "height": 768}


def _table(live_server: str, *variants: str) -> dict[str, Any]:
    links = httpx.post(
        f"{live_server}/api/tables",
        json={
            "format": "sr2019",
            "points": 75,
            "scenario": "king-of-the-hill",
            "p1_name": "Ann",
            "p2_name": "Bob",
            "variants": list(variants),
        },
    ).json()
    return {"id": links["id"], "links": links}


def _eo_sends(live_server: str, table: dict[str, Any], command: dict[str, Any]) -> None:
    from websockets.sync.client import connect

    token = table["links"]["eo"].split("#k=", 1)[1]
    with connect(f"{live_server.replace('http://', 'ws://')}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": "eo-laptop"}))
        ws.recv(timeout=60)
        ws.send(json.dumps({"t": "cmd", "seq": 1, **command}))
        while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
            pass
        assert reply["t"] == "ack", reply


def _to_turns(live_server: str, table: dict[str, Any], taps: int) -> None:
    seat_sends(live_server, table, "p1", "phone-start", {"c": "start"})
    for n in range(taps):
        seat = ("p1", "p2")[n % 2]
        seat_sends(live_server, table, seat, f"phone-{n}", {"c": "pass_turn", "expect": seat})


def test_dice_down_asks_ann_the_kill_box_of_her_turn__DC10_TS3(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    table = _table(live_server, "classic_turn_timing")
    _to_turns(live_server, table, 6)  # deployment, advance deployment, turn 1: Ann's turn 2
    ann, bob = (browser.new_context(viewport=PHONE, has_touch=True).new_page() for _ in range(2))
    ann.goto(table["links"]["p1"]["url"])
    bob.goto(table["links"]["p2"]["url"])
    _eo_sends(live_server, table, {"c": "dice_down"})

    asked = ann.locator('#prompt [data-kind="final_scoring"]')
    expect(asked).to_contain_text("Dice down ended your turn: answer the kill box of its end.")
    expect(bob.locator('#prompt [data-kind="final_scoring"]')).to_contain_text(
        "Dice down ended Ann's turn: waiting for Ann to answer the kill box."
    )
    expect(bob.locator("#final-scoring")).to_have_count(0)
    ann.locator("#final-scoring").click()
    expect(ann.locator("#sheet-title")).to_have_text("Dice down: the end of your turn 2")
    expect(ann.locator("#sheet-killbox")).to_be_visible()
    expect(ann.locator("#sheet-scoring")).to_be_hidden()  # scoring starts at Bob's turn 2
    ann.locator("#kill-box-yes").click()
    expect(ann.locator("#sheet-preview")).to_contain_text("Bob 2")
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "dice-down-kill-box-sheet.png"))
    ann.locator("#sheet-submit").click()
    for page in (ann, bob):
        expect(page.locator("#result")).to_have_text(
            "Bob wins by scenario — most control points when the game ended"
        )
        expect(page.locator('#prompt [data-kind="final_scoring"]')).to_have_count(0)


@pytest.mark.parametrize(
    ("variants", "details"),
    [
        ((), "tiebreakers decide"),
        (("classic_turn_timing", "no_tiebreakers"), "no tiebreakers: the game is a tie"),
    ],
)
def test_the_log_says_what_both_casters_at_once_did__TS6(
    browser: Any, live_server: str, variants: tuple[str, ...], details: str
) -> None:
    from playwright.sync_api import expect

    table = _table(live_server, *variants)
    _to_turns(live_server, table, 4)  # deployment, advance deployment: Ann's turn 1
    seat_sends(live_server, table, "p1", "phone-casters", {"c": "caster_destroyed", "both": True})
    page = browser.new_context(viewport=EO_SCREEN).new_page()
    page.goto(table["links"]["eo"].replace("#", "/log#"))
    row = page.locator("#log-body tr", has_text="Both casters destroyed")
    expect(row.locator(".details")).to_have_text(details)
