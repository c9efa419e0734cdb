"""Iron Gauntlet 2014 on two phones in Chromium: dominate on the scoring sheet, the
server's Incursion roll, pause reports and warnings, and a draw at the round's end."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import first_seat_goes_first, started_round

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RUNNING = re.compile(r"\brunning\b")


def _pages(browser: Any, live_server: str, scenario: str, *roles: str) -> list[Any]:
    links = httpx.post(
        f"{live_server}/api/tables",
        json={
            "format": "ig2014",
            "points": 50,
            "scenario": scenario,
            "p1_name": "Ann",
            "p2_name": "Bob",
        },
    ).json()
    assert links["format"] == "ig2014"
    pages = []
    for role in roles:
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        url = links[role] if isinstance(links[role], str) else links[role]["url"]
        page.goto(url)
        pages.append(page)
    return pages


def _tap(page: Any, running_next: str) -> None:
    from playwright.sync_api import expect

    page.locator("#tap").click()
    expect(page.locator(f"#side-{running_next}")).to_have_class(RUNNING)


def _shot(page: Any, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"))


def test_dominate_and_the_incursion_roll_on_two_phones__TS5_DC3(
    browser: Any, live_server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    p1, p2 = _pages(browser, live_server, "incursion", "p1", "p2")
    p1.locator("#start").click()
    expect(p1.locator("#phase")).to_contain_text("Pre-deployment")  # DC3
    expect(p2.locator("#phase")).to_contain_text("Pre-deployment")
    # Pre-deployment, deployment and advance deployment, each P1 then P2, then turn 1.
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 3:
        _tap(page, nxt)
    expect(p1.locator("#phase")).to_contain_text("Turn 1")
    _tap(p1, "p2")
    _tap(p2, "p1")  # the end of P2's turn 1: the server removes an outer flag
    for page in (p1, p2):
        removed = page.locator("#scenario-elements li", has_text="removed (the server's roll)")
        expect(removed).to_have_count(1)
        expect(page.locator("#rule-note")).to_contain_text("Removed from the table")
    gone = p1.locator("#scenario-elements li", has_text="removed").text_content()
    assert gone and gone == p2.locator("#scenario-elements li", has_text="removed").text_content()
    _shot(p1, tmp_path, "incursion-roll-p1")
    p1.locator("#scenario summary").click()
    p1.locator("#scenario-elements").scroll_into_view_if_needed()
    _shot(p1, tmp_path, "incursion-scenario-p1")
    outer = "flag-left" if "Left" in gone else "flag-right"
    kept = "flag-right" if outer == "flag-left" else "flag-left"

    _tap(p1, "p2")  # P1's turn 2 is not scored yet; Incursion has no kill box
    p2.locator("#tap").click()  # the end of P2's turn 2 is scored
    expect(p2.locator("#sheet")).to_be_visible()
    expect(p2.locator(f'[id="score-{outer}-none"]')).to_have_count(0)  # off the table
    expect(p2.locator('[id="score-flag-centre-dom:p2"]')).to_contain_text("dominate")
    p2.locator(f'[id="score-{kept}-dom:p2"]').click()
    p2.locator('[id="score-flag-centre-p1"]').click()
    expect(p2.locator("#sheet-preview")).to_contain_text("Ann 1 – Bob 2")
    _shot(p2, tmp_path, "dominate-sheet-p2")
    p2.locator("#end-turn").click()
    expect(p1.locator("#cp-p2")).to_have_text("2")  # dominate: 2 CP
    expect(p1.locator("#cp-p1")).to_have_text("1")  # control: 1 CP
    _shot(p1, tmp_path, "after-dominate-p1")


def _event_pages(browser: Any, live_server: str, scenario: str) -> list[Any]:
    """An Iron Gauntlet event's table (a round has an end time): P1, P2 and the EO's
    table page; the round's start started the clock."""
    event = {"name": "Gauntlet Qualifier", "format": "ig2014", "points": 50}
    table = started_round(live_server, event, round_body={"scenario": scenario}).tables[0]
    first_seat_goes_first(live_server, table)
    pages = []
    for url in (table["links"]["p1"]["url"], table["links"]["p2"]["url"], table["links"]["eo"]):
        page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
        page.goto(url)
        pages.append(page)
    return pages


def test_a_draw_at_the_round_end_and_pause_warnings_on_two_phones__DC8_DC5(
    browser: Any, live_server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    p1, p2, eo = _event_pages(browser, live_server, "outflank")
    expect(p1.locator("#name-p2")).not_to_be_empty()
    first, second = (p1.locator(f"#name-{side}").inner_text() for side in ("p1", "p2"))
    _tap(p1, "p2")
    expect(p1.locator("#pause")).to_have_count(1)
    expect(p1.locator("#pause")).to_be_hidden()  # players never pause
    # Bob says Ann paused the clock: the EO sees it and warns her.
    p2.locator("#report-pause").click()
    p2.locator("#confirm-yes").click()
    expect(eo.locator("#pause-note")).to_contain_text(f"{second} reported that {first} paused")
    _shot(eo, tmp_path, "pause-reported-eo")
    eo.locator("#warn-p1").click()
    eo.locator("#confirm-yes").click()
    warned = f"Warnings for pausing: {first} 1, {second} 0."
    expect(p1.locator("#pause-note")).to_contain_text(warned)

    # The round's time is up with far more than 5 minutes left: a draw (DC8).
    expect(eo.locator("#call-tie")).to_contain_text("declare a draw")
    eo.locator("#call-tie").click()
    eo.locator("#confirm-yes").click()
    for page, apd in ((p1, "7"), (p2, "9")):
        page.locator("#report-apd").fill(apd)
        page.locator("#report-submit").click()
    for page in (p1, p2):
        expect(page.locator("#result")).to_contain_text("Draw")
    _shot(p1, tmp_path, "draw-p1")
    _shot(p2, tmp_path, "draw-p2")


def test_a_qualifier_gives_no_qualifier_points_before_its_final_standings__ST4(
    browser: Any, live_server: str, tmp_path: Path
) -> None:
    """QPs are given by the final standings: an event not over shows none (the points
    once it is over: tests/service/test_qualifier_points_when_final.py)."""
    from playwright.sync_api import expect

    created = httpx.post(
        f"{live_server}/api/events", json={"name": "IG qualifier", "format": "ig2014", "points": 50}
    ).json()
    eo = {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cid"):
        reply = httpx.post(
            f"{live_server}/api/events/{created['id']}/players",
            json={"name": name, "faction": "Cygnar", "lists": "Caine; Stryker", "painted": True},
            headers=eo,
        )
        assert reply.status_code == 201, reply.text
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(created["public_url"])
    expect(page.locator("#standings-body tr")).to_have_count(3)
    expect(page.locator("#standings thead th.qp")).to_have_count(0)
    expect(page.locator("#standings-body td.qp")).to_have_count(0)
    _shot(page, tmp_path, "standings-no-qp-yet")
    rows = list(
        csv.DictReader(
            io.StringIO(httpx.get(f"{live_server}/api/events/{created['id']}/standings.csv").text)
        )
    )
    assert len(rows) == 3 and all(not row["qualifier_points"] for row in rows)


def test_the_dashboard_shows_a_reported_pause_to_the_eo__DC5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = {"name": "Gauntlet Qualifier", "format": "ig2014", "points": 50}
    started = started_round(live_server, event, round_body={"scenario": "outflank"})
    table = started.tables[0]
    first_seat_goes_first(live_server, table)
    p2 = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    p2.goto(table["links"]["p2"]["url"])
    board = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    board.goto(started.created["dashboard_url"])
    card = board.locator(".dash-card").first
    expect(card).to_be_visible()
    expect(card).not_to_have_class(re.compile(r"\bpause-reported\b"))
    p2.locator("#report-pause").click()
    p2.locator("#confirm-yes").click()
    expect(card).to_have_class(re.compile(r"\bpause-reported\b"))
    expect(card.locator(".dflag").first).to_contain_text("pause reported")
    expect(board.locator("#summary")).to_contain_text("1 pause reported")
    artifacts = Path(__file__).resolve().parents[2] / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    board.screenshot(path=str(artifacts / "ig-dashboard-pause-reported.png"))
