"""The EO settles a dispute after a starting roll that swapped the seats, in Chromium.

The pairing's second player goes first (they won the starting roll and chose to, or
their opponent won it and chose to go second), wins by assassination, and their
opponent disputes. The admin's dispute panel names the winner and each player's report
by name, the result editor opens filled in for the right player, saving it (the APD
changed, with a reason) lands on that player in the standings, and the phone and the
table log say the same."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
LISTS = {"Cara Cole": "Haley 2", "Hana Ito": "Butcher 3"}


class Seat:
    """One player's phone on the table's socket: sends commands, each acked."""

    def __init__(self, ws_base: str, table: dict[str, Any], seat: str) -> None:
        token = table["links"][seat]["url"].split("#k=", 1)[1]
        self._open = ExitStack()  # the socket is a context, closed by close()
        self.ws: ClientConnection = self._open.enter_context(
            connect(f"{ws_base}/ws/tables/{table['id']}")
        )
        self.ws.send(json.dumps({"t": "hello", "token": token, "device": f"phone-{seat}"}))
        self.seq = 0
        self.game: dict[str, Any] = {}
        while self._recv()["t"] != "state":
            pass

    def _recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
        if message["t"] in ("state", "event"):
            self.game = message["game"]
        return message

    def close(self) -> None:
        self._open.close()

    def send(self, name: str, **fields: Any) -> None:
        self.seq += 1
        self.ws.send(json.dumps({"t": "cmd", "seq": self.seq, "c": name, **fields}))
        while (reply := self._recv())["t"] not in ("ack", "error") or reply["seq"] != self.seq:
            pass
        assert reply["t"] == "ack", reply


def _swapped_and_disputed(live_server: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """An SR2019 event with the pre-game on the phones, its table played out: the
    pairing's second player goes first and wins by assassination, the other disputes.
    Returns the event as created, its one pairing and the table's id."""
    http = httpx.Client(base_url=live_server)
    body = {"name": "Swapped seats", "format": "sr2019", "pregame": True}
    created = http.post("/api/events", json=body).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name, army in LISTS.items():
        added = http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": army}, headers=eo
        )
        assert added.status_code == 201, added.text
    paired = http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    (table,) = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    (pairing,) = http.get(f"/api/events/{eid}/admin", headers=eo).json()["rounds"][0]["pairings"]
    ws_base = live_server.replace("http://", "ws://")
    first_seat, second_seat = Seat(ws_base, table, "p1"), Seat(ws_base, table, "p2")
    for seat, player in ((first_seat, pairing["p1"]), (second_seat, pairing["p2"])):
        seat.send("choose_list", list=LISTS[player["name"]])
    first_seat.send("choose_objective", objective="Armory")
    second_seat.send("choose_objective", objective="Stockpile")
    for _ in range(20):  # the server's dice: a tie is rolled again
        first_seat.send("roll")
        second_seat.send("roll")
        if second_seat.game["pregame"]["winner"] is not None:
            break
    # Whoever won the roll, the pairing's second player goes first: the seats swap.
    if second_seat.game["pregame"]["winner"] == "p2":
        second_seat.send("choose_order", first=True)
    else:
        first_seat.send("choose_order", first=False)
    first_seat.send("choose_edge", swap=False)  # the second player now
    second_seat.send("start")
    for seat, side in ((second_seat, "p1"), (first_seat, "p2")) * 2:
        seat.send("pass_turn", expect=side)
    first_seat.send("caster_destroyed")
    second_seat.send("report", army_points_destroyed=45)
    first_seat.send("report", army_points_destroyed=15)
    first_seat.send("dispute", reason="my caster was out of range")
    for seat in (first_seat, second_seat):
        seat.close()
    return created, pairing, table["id"]


def test_the_dispute_panel_after_a_seat_swapping_roll_settles_on_the_right_player__TS9_ST1(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    created, pairing, tid = _swapped_and_disputed(live_server)
    went_second, went_first = pairing["p1"], pairing["p2"]
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(created["admin_url"])
    row = page.locator(f'tr.pairing[data-table-id="{tid}"]')
    # The pairing's second player is marked as the one who went first.
    expect(row.locator(".tag.first")).to_have_count(1)
    expect(row.locator("td").nth(2)).to_contain_text("goes first")
    # The dispute panel: the winner and each report, by name.
    box = row.locator(".dispute-box")
    expect(box).to_contain_text(f"assassination: {went_first['name']} wins")
    expect(box.locator(".dispute-reason")).to_contain_text(
        f"{went_second['name']}: my caster was out of range"
    )
    reports = box.locator(f"#reports-{tid}")
    expect(reports).to_contain_text(f"{went_first['name']} (went first): 45 APD")
    expect(reports).to_contain_text(f"{went_second['name']} (went second): 15 APD")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dispute-after-swap.png"), full_page=True)

    # The editor opens filled in for the right player; only the APD is changed.
    page.locator(f"#result-btn-{tid}").click()
    expect(page.locator(f"#res-winner-p2-{tid}")).to_be_checked()
    expect(page.locator(f"label[for='res-winner-p2-{tid}']")).to_have_text(went_first["name"])
    expect(page.locator(f"#res-apd1-{tid}")).to_have_value("15")
    expect(page.locator(f"#res-apd2-{tid}")).to_have_value("45")
    expect(page.locator(f"#res-list2-{tid}")).to_have_count(0)  # one list each: not asked
    page.locator(f"#res-apd2-{tid}").fill("40")
    page.locator(f"#res-reason-{tid}").fill("a unit was counted twice")
    page.locator(f"#res-save-{tid}").click()
    # The EO is asked first, and the question names the same winner as the form.
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text(f"After: {went_first['name']} wins")
    dialog.locator("#confirm-yes").click()
    expect(row.locator(".result-cell")).to_contain_text(f"{went_first['name']} wins")
    expect(row.locator(".result-cell")).to_contain_text("15–40 APD")

    # The standings: the win and the APD on the player who went first.
    winner_row = page.locator(f'#standings-body tr[data-player-id="{went_first["id"]}"]')
    expect(winner_row.locator("td").nth(3)).to_have_text("1")
    expect(winner_row.locator("td").nth(6)).to_have_text("40")
    loser_row = page.locator(f'#standings-body tr[data-player-id="{went_second["id"]}"]')
    expect(loser_row.locator("td").nth(3)).to_have_text("0")
    expect(loser_row.locator("td").nth(6)).to_have_text("15")
    # The action log: from what to what, and why.
    expect(page.locator("#actions")).to_contain_text(f"{went_first['name']}'s APD 45 → 40")
    expect(page.locator("#actions")).to_contain_text("Why: a unit was counted twice")
    page.screenshot(path=str(ARTIFACTS / "dispute-after-swap-saved.png"), full_page=True)

    # The phone of the player who disputed: the organiser's result, by name, and why.
    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(_seat_url(live_server, tid, created))
    expect(phone.locator("#result")).to_have_text(
        f"{went_first['name']} wins by the organiser's decision"
    )
    expect(phone.locator("#result-by")).to_contain_text("a unit was counted twice")
    # The table log names who won the roll's choice and went first.
    log = phone.context.new_page()
    log.goto(phone.url.split("#")[0] + "/log#" + phone.url.split("#")[1])
    expect(log.locator("#log-body")).to_contain_text(f"{went_first['name']} deploys")
    expect(log.locator("#log-body")).to_contain_text(f"{went_first['name']} wins")
    # The turns the server wrote by side read by name, the swap followed.
    expect(log.locator("#log-body")).to_contain_text(
        f"Tap: end of {went_first['name']}'s deployment"
    )
    expect(log.locator("#log-body")).to_contain_text(
        f"Tap: end of {went_second['name']}'s deployment"
    )

    # People read names, never seats: both phones and the log, after the swap, name the
    # players and say who went first and second, and no "P1"/"P2" anywhere.
    other = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    other.goto(_seat_url(live_server, tid, created, "p2"))
    order = f"{went_first['name']} (first player) vs {went_second['name']} (second player)"
    for screen, player, word in ((phone, went_second, "second"), (other, went_first, "first")):
        expect(screen.locator("#role")).to_have_text(f"{player['name']} · {word} player")
        expect(screen.locator("#matchup")).to_have_text(order)
        expect(screen.locator("#side-p1 .seat-tag")).to_have_text("first player")
    for screen in (phone, other, log):
        said = screen.evaluate("document.body.innerText")
        assert not re.search(r"\bP[12]\b", said), said


def _seat_url(live_server: str, tid: str, created: dict[str, Any], seat: str = "p1") -> str:
    """A seat's link ("p1": the player who went second), as the EO's table list has it."""
    tables = httpx.get(
        f"{live_server}/api/events/{created['id']}/tables",
        headers={"X-EO-Token": created["admin_token"]},
    ).json()
    url: str = next(t for t in tables if t["id"] == tid)["links"][seat]["url"]
    return url
