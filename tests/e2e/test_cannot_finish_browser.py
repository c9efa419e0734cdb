"""The EO's dashboard (1366×768) flags "Cannot finish" only when it is true: a table's
clocks, which start when it begins deployment after its pre-game on the phones, hold
more time than is left before the round's end; a table in its pre-game shows as such.

The server's time and the page's move ahead together (the server's movable clock and
the page's installed clock): nobody waits for minutes to pass."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.e2e.servertime import MovableTime

pytestmark = pytest.mark.browser

MIN = 60_000
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FLAGGED = re.compile(r"\bcannot-finish\b")


class _Seat:
    """One player's phone on the table's socket."""

    def __init__(self, ws: ClientConnection, table: dict[str, Any], seat: str) -> None:
        token = table["links"][seat]["url"].split("#k=", 1)[1]
        self.ws = ws
        self.ws.send(json.dumps({"t": "hello", "token": token, "device": f"e2e-{seat}"}))
        self.ws.recv(timeout=60)
        self.seq = 0

    def command(self, name: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        self.ws.send(json.dumps({"t": "cmd", "seq": self.seq, "c": name, **fields}))
        while (reply := json.loads(self.ws.recv(timeout=60)))["t"] not in ("ack", "error"):
            pass
        return reply


def _pregame_then_deploy(ws_base: str, table: dict[str, Any]) -> None:
    """Both players choose their lists and roll (a tie rolls again); the winner goes
    first, the other player keeps their table edge, and the first player starts the
    clock: deployment begins."""
    url = f"{ws_base}/ws/tables/{table['id']}"
    with connect(url) as first, connect(url) as second:
        seats = [_Seat(first, table, "p1"), _Seat(second, table, "p2")]
        for seat, army in zip(seats, ("Butcher 3", "Haley 2"), strict=True):
            assert seat.command("choose_list", list=army)["t"] == "ack"
        winner = None
        for _ in range(50):
            for seat in seats:
                assert seat.command("roll")["t"] == "ack"
            for seat in seats:
                if seat.command("choose_order", first=True)["t"] == "ack":
                    winner = seat
                    break
            if winner is not None:
                break
        assert winner is not None, "fifty ties in a row"
        other = seats[1] if winner is seats[0] else seats[0]
        assert other.command("choose_edge", swap=False)["t"] == "ack"
        assert winner.command("start")["t"] == "ack"


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"cannot-finish-{name}.png"))


def test_cannot_finish_counts_the_time_each_table_has_left__DC4_DC8(
    browser: Any, live_server: str, server_time: MovableTime
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    body = {"name": "Cannot finish check", "format": "sr2019", "points": 75, "pregame": True}
    created = http.post("/api/events", json=body).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    paired = http.post(f"/api/events/{eid}/rounds", json={"scenario": "spread-the-net"}, headers=eo)
    assert paired.is_success, paired.text
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    tables = sorted(
        http.get(f"/api/events/{eid}/tables", headers=eo).json(), key=lambda t: t["table_no"]
    )
    assert len(tables) == 3

    # (The test reads the page's clock samples with a script of its own: past the CSP.)
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.clock.install()  # the page's time moves ahead with the server's
    page = context.new_page()
    page.goto(created["dashboard_url"])
    page.wait_for_function("window.DC.time.samples.length > 0")

    def later(ms: int) -> None:
        """`ms` pass for the server and the page alike; the page measures the server's
        clock afresh (a ping answered between the two moves would be off by `ms`)."""
        server_time.ahead_ms += ms
        page.clock.fast_forward(ms)
        page.evaluate("window.DC.time.reset()")
        page.wait_for_function("window.DC.time.samples.length > 0")

    cards = [page.locator(f'[data-table-id="{t["id"]}"]') for t in tables]
    ws_base = live_server.replace("http://", "ws://")
    try:
        # Every table in its pre-game: shown as such, none flagged, no round clock yet.
        for card in cards:
            expect(card.locator(".status")).to_have_text("pregame")
            expect(card.locator(".phase")).to_contain_text("Pre-game")
            expect(card).not_to_have_class(FLAGGED)
        expect(page.locator("#round-clock")).to_have_text("3 tables in their pre-game")

        later(1 * MIN)  # the first table is done with its pre-game after a minute
        _pregame_then_deploy(ws_base, tables[0])
        expect(cards[0].locator(".status")).to_have_text("deploying")
        expect(page.locator("#round-clock")).to_have_text("2 tables in their pre-game")
        _shot(page, "1-pregames")
        for card in cards[1:]:
            expect(card.locator(".status")).to_have_text("pregame")
            expect(card.locator(".phase")).to_contain_text("Pre-game")
            expect(card).not_to_have_class(FLAGGED)
            expect(card.locator(".finish-flag")).to_be_hidden()

        later(3 * MIN)  # four minutes after the EO's start, the other two begin
        _pregame_then_deploy(ws_base, tables[1])
        _pregame_then_deploy(ws_base, tables[2])
        expect(page.locator("#round-clock")).to_have_text(re.compile(r"^(2:00:00|1:59:\d\d)$"))

        later(4 * MIN)  # four minutes into their games (seven into the first's)
        expect(page.locator("#round-clock")).to_have_text(re.compile(r"^1:5[56]:\d\d$"))
        for card in cards:
            expect(card.locator(".status")).to_have_text("deploying")
        expect(cards[1].locator(".clock-p1")).to_have_text(re.compile(r"^5[56]:\d\d$"))
        for card in cards:
            expect(card.locator(".finish-flag")).to_be_hidden()
            expect(card).not_to_have_class(FLAGGED)

        # The EO gives the first table's player back the seven minutes: its clocks now
        # hold two hours, more than the 1:56 the round has left.
        adjusted = http.post(
            f"/api/events/{eid}/tables/{tables[0]['id']}/command",
            json={"c": "adjust_clock", "side": "p1", "remaining_ms": 60 * MIN},
            headers=eo,
        )
        assert adjusted.is_success, adjusted.text
        expect(cards[0]).to_have_class(FLAGGED)
        expect(cards[0].locator(".finish-flag")).to_be_visible()
        _shot(page, "2-flagged")
        for card in cards[1:]:
            expect(card).not_to_have_class(FLAGGED)
    finally:
        context.close()
