"""The EO dashboard in Chromium follows the tables' phones live."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.e2e.events import first_seat_goes_first, seat_sends, started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


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


#: A seat named as a tag ("P1", "P2's clock", "(P2)"): never in what a person reads.
SEAT_TAG = re.compile(r"\bP[12]\b")
#: Every title, aria-label and tooltip of the page, and each select's options.
READ_ALOUD = """() => [
    ...[...document.querySelectorAll('[title], [aria-label], [placeholder]')].flatMap(
        (n) => ['title', 'aria-label', 'placeholder'].map((a) => n.getAttribute(a) || '')),
    ...[...document.querySelectorAll('option')].map((o) => o.textContent),
    document.title,
].join('\\n')"""


def _says_no_seat(page: Any) -> None:
    """Nothing the page shows or reads aloud names a seat."""
    text = page.evaluate("document.body.innerText")
    assert not SEAT_TAG.search(text), text
    aloud = page.evaluate(READ_ALOUD)
    assert not SEAT_TAG.search(aloud), aloud


def test_names_not_seats_after_a_roll_makes_the_second_seat_first__DC3(
    browser: Any, live_server: str
) -> None:
    """The dashboard (and its projector view) and the EO's page of a table name the
    players: no order before the starting roll decides it; then "first player" against
    the second seat's player, who won the right to go first, and never "P1"/"P2"."""
    from playwright.sync_api import expect

    event = started_round(live_server, {"name": "Names not seats", "points": 75})
    (table,) = event.tables
    seat_one, seat_two = table["links"]["p1"]["name"], table["links"]["p2"]["name"]
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    dashboard = context.new_page()
    dashboard.goto(event.created["dashboard_url"])
    eo_table = context.new_page()
    eo_table.goto(table["links"]["eo"])
    card = dashboard.locator(f'[data-table-id="{table["id"]}"]')
    expect(card.locator(".status")).to_have_text("pregame")
    expect(card.locator(".dname")).to_have_text([seat_one, seat_two])
    expect(card.locator(".seat-tag")).to_have_count(2)
    for tag in card.locator(".seat-tag").all():
        expect(tag).to_be_hidden()  # no order implied before the roll
    expect(eo_table.locator("#matchup")).to_have_text(f"{seat_one} vs {seat_two}")
    for page in (dashboard, eo_table):
        _says_no_seat(page)
        assert "first player" not in page.evaluate("document.body.innerText")

    # The dice at the table go the first seat's way; its player chooses to go second.
    token = table["links"]["p1"]["url"].split("#k=", 1)[1]
    ws_base = live_server.replace("http://", "ws://")
    with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": "seat-one"}))
        ws.recv(timeout=60)
        settle = ({"c": "roll", "at_table": [6, 1]}, {"c": "choose_order", "first": False})
        for seq, command in enumerate(settle, start=1):
            ws.send(json.dumps({"t": "cmd", "seq": seq, **command}))
            while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", reply

    first = card.locator(".dside", has_text=seat_two)
    second = card.locator(".dside", has_text=seat_one)
    expect(first.locator(".seat-tag")).to_have_text("first player")
    expect(second.locator(".seat-tag")).to_have_text("second player")
    expect(eo_table.locator("#matchup")).to_have_text(
        f"{seat_two} (first player) vs {seat_one} (second player)"
    )
    # Every part of the EO's page follows the swap, the ones drawn before it too.
    expect(eo_table.locator("#pregame")).to_contain_text(f"{seat_two} goes first.")
    expect(eo_table.locator("#prompt")).to_contain_text(f"{seat_two} deploys first.")
    expect(eo_table.locator("#side-p1 .name")).to_have_text(seat_two)
    expect(eo_table.locator("#side-p1 .seat-tag")).to_have_text("first player")
    expect(eo_table.locator("#side-p2 .seat-tag")).to_have_text("second player")
    expect(eo_table.locator("#adjust-side option")).to_have_text(
        [f"{seat_two} (first player)", f"{seat_one} (second player)"]
    )

    # The EO starts the clock: the first player deploys, named on both screens.
    eo_table.get_by_role("button", name=f"Start the clock ({seat_two} deploys)").click()
    expect(card.locator(".phase")).to_have_text(re.compile(rf"^(Pre-d|D)eploy\w* — {seat_two}$"))
    expect(eo_table.locator("#phase")).to_have_text(
        re.compile(rf"^(Pre-deployment|Deployment) — {seat_two}$")
    )
    card.get_by_role("button", name="Adjust clock").click()
    expect(card.locator(".adj-side option")).to_have_text(
        [f"{seat_two} (first player)", f"{seat_one} (second player)"]
    )
    for page in (dashboard, eo_table):
        _says_no_seat(page)
    dashboard.locator("#projector-toggle").click()  # the hall's projector view
    expect(dashboard.locator("body")).to_have_class(re.compile(r"\bprojector\b"))
    expect(first.locator(".seat-tag")).to_have_text("first player")
    _says_no_seat(dashboard)


def _table_now(event: Any, table: dict[str, Any]) -> dict[str, Any]:
    eid = event.created["id"]
    tables = event.http.get(f"/api/events/{eid}/tables", headers=event.eo).json()
    (now,) = (t for t in tables if t["id"] == table["id"])
    found: dict[str, Any] = now
    return found


def _pauses(event: Any, table: dict[str, Any]) -> int:
    watch = table["links"]["watch"].split("#k=", 1)[1]
    log = event.http.get(f"/api/tables/{table['id']}/log", headers={"X-Table-Token": watch})
    return sum(1 for e in log.json()["entries"] if e.get("c") == "pause")


def test_the_first_pause_of_a_table_in_a_round_asks_what_it_means_for_the_round_end__DC8(
    browser: Any, live_server: str
) -> None:
    """A table the EO paused in the round plays on past the round's end instead of being
    declared a tie (SR2019): the first Pause asks, naming the table and both players;
    Cancel sends nothing; later pauses of that table in the round ask no more."""
    from playwright.sync_api import expect

    event = started_round(live_server, {"name": "Pause Asks", "points": 75}, ("Ann", "Bob"))
    (table,) = event.tables
    first_seat_goes_first(live_server, table)
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(event.created["dashboard_url"])
    card = page.locator(f'[data-table-id="{table["id"]}"]')
    expect(card).to_have_class(re.compile(r"\brunning-p1\b"))
    pause, dialog = card.locator(".pause-btn"), page.locator("#confirm-dialog")

    pause.click()
    expect(dialog).to_contain_text(f"Pause table {table['table_no']}?")
    expect(dialog).to_contain_text(
        f"{table['links']['p1']['name']} v {table['links']['p2']['name']}"
    )
    expect(dialog).to_contain_text("is not declared a tie at the round's end")
    expect(dialog).to_contain_text("plays on to the end of its game")
    page.screenshot(path=str(ARTIFACTS / "dashboard-first-pause-asks.png"))
    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    now = _table_now(event, table)
    assert not now["paused"] and not now["paused_by_eo"], now
    expect(card.locator(".status")).not_to_have_text("paused")

    pause.click()
    dialog.locator("#confirm-yes").click()
    expect(card.locator(".status")).to_have_text("paused")
    assert _table_now(event, table)["paused_by_eo"]
    pause.click()  # Resume: no question
    expect(card.locator(".status")).not_to_have_text("paused")
    expect(pause).to_have_text("Pause")
    pause.click()  # paused before in this round: no question
    expect(card.locator(".status")).to_have_text("paused")
    expect(dialog).to_have_count(0)
    assert _pauses(event, table) == 2  # the cancelled one never went


def test_a_pause_asks_nothing_where_it_does_not_change_the_round_end__DC8_IG2014(
    browser: Any, live_server: str
) -> None:
    """IG2014 declares a draw at the round's end, paused or not: its Pause asks nothing."""
    from playwright.sync_api import expect

    event = started_round(
        live_server,
        {"name": "Gauntlet Pause", "format": "ig2014", "points": 50},
        round_body={"scenario": "outflank"},
    )
    (table,) = event.tables
    first_seat_goes_first(live_server, table)
    # Pre-deployment (IG2014's own) passes to deployment, where the EO may pause.
    seat_sends(live_server, table, "p1", "pre-1", {"c": "pass_turn", "expect": "p1"})
    seat_sends(live_server, table, "p2", "pre-2", {"c": "pass_turn", "expect": "p2"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(event.created["dashboard_url"])
    card = page.locator(f'[data-table-id="{table["id"]}"]')
    expect(card.locator(".phase")).to_contain_text("Deploying")
    card.locator(".pause-btn").click()
    expect(card.locator(".status")).to_have_text("paused")
    expect(page.locator("#confirm-dialog")).to_have_count(0)
