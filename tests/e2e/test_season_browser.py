"""A season's page in Chromium: the keeper adds two Iron Gauntlet qualifiers by their EO
links, confirms a player who played both, sees the QPs and who qualified, opens a
qualifier's top-three report (printable, and its CSV) and makes the world final; the
public page on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
LONG = "Alexandra Konstantinopoulou-Whitfield"


def _played(http: httpx.Client, name: str, players: list[str], fmt: str) -> dict[str, Any]:
    """An event played to its end over the API, the EO entering every result: the player
    named earlier wins, with more control points the earlier they are named (so the final
    standings follow the order given)."""
    body: dict[str, Any] = {"name": name, "format": fmt}
    if fmt == "masters2019":
        body["lists"] = 2
    created = http.post("/api/events", json=body).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for player in players:
        assert http.post(f"/api/events/{eid}/players", json={"name": player}, headers=eo)
    while not http.get(f"/api/events/{eid}").json()["event"]["over"]:
        drafted = http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).json()
        assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
        for game in drafted["pairings"]:
            if game["p2"] is None:
                continue
            first, second = (players.index(game[s]["name"]) for s in ("p1", "p2"))
            cp = 20 - min(first, second)
            result = {
                "winner": "p1" if first < second else "p2",
                "control_points": [cp, 0] if first < second else [0, cp],
                "army_points_destroyed": [40, 9] if first < second else [9, 40],
            }
            path = f"/api/events/{eid}/tables/{game['table_id']}/result"
            entered = http.put(path, json=result, headers=eo)
            assert entered.is_success, entered.text
    return created


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def test_a_season_page_and_its_top_three_report__ST4(
    browser: Any, live_server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server, timeout=60)
    season = http.post("/api/seasons", json={"name": "Iron Gauntlet 2019–2020"}).json()
    spring = _played(http, "Spring Masters", [LONG, "Bob", "Cara", "Dan"], "masters2019")
    summer = _played(http, "Summer Champions", [LONG, "Eve", "Finn", "Gus"], "champions2019")
    spring_top = [(1, LONG, 10), (2, "Bob", 7), (3, "Cara", 4)]

    desk = browser.new_context(viewport=DESKTOP).new_page()
    desk.goto(season["keeper_url"])
    expect(desk.locator("#keeper-card")).to_be_visible()
    for event in (spring, summer):
        desk.locator("#hold-input").fill(event["admin_url"])
        desk.locator("#hold-form button").click()
        expect(desk.locator("#confirm-dialog")).to_contain_text("can be taken out again")
        desk.locator("#confirm-yes").click()
        expect(desk.locator("#events-list")).to_contain_text(
            "Spring Masters" if event is spring else "Summer Champions"
        )
    # Each event's entry counts on its own line until the keeper says it is one player.
    expect(desk.locator("#players-body tr")).to_have_count(6)
    match = desk.locator(".match").filter(has_text=LONG)
    expect(match).to_contain_text("Spring Masters")
    expect(match).to_contain_text("Summer Champions")
    desk.screenshot(path="/tmp/season-matches-1366.png", full_page=True)
    match.get_by_role("button", name="Same player").click()
    desk.locator("#confirm-yes").click()  # asked first: it moves QPs between lines
    expect(desk.locator("#players-body tr")).to_have_count(5)
    # An event added by mistake comes out, asked first; the keeper's matches stay.
    summer_item = desk.locator(".season-event").filter(has_text="Summer Champions")
    summer_item.get_by_role("button", name="Take out of the season").click()
    expect(desk.locator("#confirm-dialog")).to_contain_text(
        "Take Summer Champions out of the season?"
    )
    desk.screenshot(path="/tmp/season-take-out-1366.png")
    desk.locator("#confirm-no").click()  # thought better of it: nothing moves
    expect(desk.locator(".season-event")).to_have_count(2)
    summer_item.get_by_role("button", name="Take out of the season").click()
    desk.locator("#confirm-yes").click()
    expect(desk.locator(".season-event")).to_have_count(1)
    expect(desk.locator("#players-body tr")).to_have_count(3)  # Spring's top three
    expect(desk.locator("#players-body tr").first.locator("td.qp")).to_have_text("10")
    desk.locator("#hold-input").fill(summer["admin_url"])
    desk.locator("#hold-form button").click()
    desk.locator("#confirm-yes").click()
    expect(desk.locator(".season-event")).to_have_count(2)
    expect(desk.locator("#players-body tr")).to_have_count(5)
    view = http.get(f"/api/seasons/{season['id']}").json()
    leader = view["players"][0]
    assert (leader["name"], leader["qp"], leader["confirmed"]) == (LONG, 20, True)
    first = desk.locator("#players-body tr").first
    expect(first).to_contain_text(LONG)
    expect(first).to_contain_text("Spring Masters: 1st, 10 QPs; Summer Champions: 1st, 10 QPs")
    expect(first.locator("td.qp")).to_have_text("20")
    expect(first).to_contain_text("Qualified")
    expect(desk.locator("#players-body tr").nth(1)).not_to_contain_text("Qualified")  # Bob, 7
    expect(desk.locator("#qualified-count")).to_have_text("1 qualified (10 or more QPs qualifies)")
    # ST4: the keeper records Spring's top three as sent, asked first, within 14 days.
    spring_item = desk.locator(".season-event").filter(has_text="Spring Masters")
    expect(spring_item.locator(".due")).to_contain_text("Top three due by")
    spring_item.get_by_role("button", name="Record the report as sent").click()
    expect(desk.locator("#confirm-dialog")).to_contain_text("its top three's QPs count")
    desk.locator("#confirm-yes").click()
    expect(spring_item.locator(".due")).to_contain_text(", on time")
    expect(spring_item.get_by_role("button", name="Record the report as sent")).to_have_count(0)
    desk.screenshot(path="/tmp/season-keeper-1366.png", full_page=True)
    _no_sideways_scroll(desk)

    # The top-three report: the names and final standings, and the day it is due.
    desk.locator(".season-event").filter(has_text="Spring Masters").get_by_role(
        "link", name="Top-three report"
    ).click()
    expect(desk.locator("#report-event")).to_have_text("Spring Masters")
    rows = desk.locator("#report-table tbody tr")
    expect(rows).to_have_count(3)
    for index, (rank, name, qp) in enumerate(spring_top):
        expect(rows.nth(index).locator("td")).to_have_text([str(rank), name, str(qp)])
    expect(desk.locator("#report-due")).to_contain_text("within 14 days of the event's end")
    expect(desk.locator("#report-standing")).to_contain_text("on time: its players' QPs count")
    desk.screenshot(path="/tmp/season-report-1366.png", full_page=True)
    with desk.expect_download() as download:
        desk.get_by_role("link", name="CSV").click()
    csv_text = Path(download.value.path()).read_text()
    lines = csv_text.splitlines()
    assert lines[0].startswith("event,final standing,name,qualifier points")
    assert lines[0].endswith(",report sent,report") and lines[1].endswith(",on time")
    assert [line.split(",")[1:4] for line in lines[1:]] == [
        [str(rank), name, str(qp)] for rank, name, qp in spring_top
    ]

    # The world final: the qualified players and a pasted QP list, seeded by their QPs.
    desk.goto(season["keeper_url"])
    desk.locator("#final-qp").fill("Ivy, 25\nJon, 12")
    desk.locator("#final-button").click()
    expect(desk.locator("#confirm-dialog")).to_contain_text("cannot be made again")
    desk.locator("#confirm-yes").click()
    expect(desk.locator("#final-done")).to_contain_text("The final is made")
    desk.reload()  # the final is made from the season's events: none comes out any more
    expect(desk.locator(".season-event")).to_have_count(2)
    expect(desk.get_by_role("button", name="Take out of the season")).to_have_count(0)
    final_id = http.get(f"/api/seasons/{season['id']}").json()["final_event_id"]
    names = {p["name"] for p in http.get(f"/api/events/{final_id}").json()["players"]}
    assert names == {"Ivy", "Jon", LONG}

    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(f"{live_server}/s/{season['id']}")
    expect(phone.locator("#players-body tr").first).to_contain_text(LONG)
    expect(phone.locator("#keeper-card")).to_be_hidden()
    expect(phone.get_by_role("link", name="the final")).to_have_attribute("href", f"/e/{final_id}")
    phone.screenshot(path="/tmp/season-public-390.png", full_page=True)
    _no_sideways_scroll(phone)
    phone.goto(f"{live_server}/s/{season['id']}/report/{spring['id']}")
    expect(phone.locator("#report-table tbody tr")).to_have_count(3)
    phone.screenshot(path="/tmp/season-report-390.png", full_page=True)
    _no_sideways_scroll(phone)


def test_a_masters_final_s_qualifiers_count_their_distinct_players(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server, timeout=60)
    season = http.post(
        "/api/seasons", json={"name": "Convention Masters", "kind": "masters qualifiers"}
    ).json()
    keeper = {"X-Keeper-Token": season["keeper_token"]}
    qualifier = _played(http, "Qualifier A", ["Ann", "Bob", "Cy", "Di"], "masters2019")
    held = {"event_id": qualifier["id"], "event_key": qualifier["admin_token"]}
    assert http.post(f"/api/seasons/{season['id']}/events", json=held, headers=keeper)

    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    phone.goto(season["keeper_url"])
    expect(phone.locator("#field-count")).to_have_text("4 distinct players (32 needed)")
    expect(phone.locator("#field-problem")).to_contain_text("these qualifiers had 4")
    expect(phone.locator("#players-card")).to_be_hidden()
    expect(phone.locator("#events-list")).not_to_contain_text("participants")
    phone.locator("#final-button").click()
    phone.locator("#confirm-yes").click()
    expect(phone.locator("#page-error")).to_contain_text(
        "needs at least 32 distinct players in the qualifiers; these qualifiers had 4."
    )
    phone.screenshot(path="/tmp/season-masters-390.png", full_page=True)
    _no_sideways_scroll(phone)
