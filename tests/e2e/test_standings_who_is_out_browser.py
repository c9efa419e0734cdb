"""Who is out, and why, on the standings in Chromium: the EO's admin page and the public
event page say "dropped after round 1" for the player who left (RP7), "disqualified" for
the one the EO disqualified (steamroller-2019.txt: "barred from further participation in
the event") and "not in the cut" for those a Cut to Top left out (RP1), never one word
for all of them.

Screenshots go to /tmp/standings-out-*.png."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.events import started_round

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = tuple(f"Player {n}" for n in range(1, 9))
WON = {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [30, 10]}


def test_the_standings_say_who_dropped_who_was_disqualified_and_who_was_cut__RP1_RP7_ST3(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    started = started_round(live_server, {"name": "Who Is Out", "cut_to_top": 4}, NAMES)
    http, eo = started.http, started.eo
    eid, token = started.created["id"], started.created["admin_token"]
    pairings = http.get(f"/api/events/{eid}").json()["rounds"][0]["pairings"]
    for table in pairings:
        entered = http.put(
            f"/api/events/{eid}/tables/{table['table_id']}/result", json=WON, headers=eo
        )
        assert entered.is_success, entered.text
    leaver = pairings[0]["p2"]
    dropped = http.post(
        f"/api/events/{eid}/players/{leaver['id']}/drop", json={"dropped": True}, headers=eo
    )
    assert dropped.is_success, dropped.text
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success  # the cut
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    cheat = pairings[0]["p1"]
    given = http.post(
        f"/api/events/{eid}/penalties",
        json={"player": cheat["id"], "kind": "disqualification", "reason": "Loaded dice"},
        headers=eo,
    )
    assert given.is_success, given.text
    cut = {t["p2"]["id"] for t in pairings} - {leaver["id"]}
    playing = {t["p1"]["id"] for t in pairings} - {cheat["id"]}

    admin = browser.new_context(viewport=LAPTOP).new_page()
    admin.goto(f"{live_server}/e/{eid}/admin#k={token}")
    public = browser.new_context(viewport=PHONE).new_page()
    public.goto(f"{live_server}/e/{eid}")
    # The header counts the players still in the event: none dropped, disqualified or cut.
    expect(public.locator("#event-meta")).to_contain_text(" 3 players ")
    # DC4: round 2 has started, its tables are in their pre-game: its time has not begun.
    expect(public.locator("#round-sub")).to_contain_text("Started ")
    expect(public.locator("#round-clock")).to_have_text("soon")
    expect(public.locator("#round-clock-label")).to_have_text(
        "Round time starts when every table deploys"
    )
    for page, name in ((admin, "admin"), (public, "public")):
        rows = page.locator("#standings-body tr[data-player-id]")
        expect(rows).to_have_count(8)
        row = page.locator(f'#standings-body tr[data-player-id="{leaver["id"]}"]')
        expect(row.locator(".tag")).to_have_text("dropped after round 1")
        row = page.locator(f'#standings-body tr[data-player-id="{cheat["id"]}"]')
        expect(row.locator(".tag")).to_have_text("disqualified")
        for pid in cut:
            row = page.locator(f'#standings-body tr[data-player-id="{pid}"]')
            expect(row.locator(".tag")).to_have_text("not in the cut")
            expect(row).to_have_class("out")
        for pid in playing:
            row = page.locator(f'#standings-body tr[data-player-id="{pid}"]')
            expect(row.locator(".tag")).to_have_count(0)
        expect(page.locator("#standings-body")).not_to_contain_text("out", ignore_case=False)
        page.screenshot(path=f"/tmp/standings-out-{name}.png", full_page=True)
    # On the phone the standings fit their card, long names and tags wrapped: no column
    # of points is hidden beyond its edge.
    wrap = public.locator("#standings-card .table-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "standings wider than card"
    # The EO's players list says the same, and offers no rejoin to a disqualified player.
    row = admin.locator(f'#players-body tr.player[data-player-id="{cheat["id"]}"]')
    expect(row.locator(".tag")).to_have_text("disqualified")
    expect(row.locator(f'[id="drop-{cheat["id"]}"]')).to_have_count(0)
    row = admin.locator(f'#players-body tr.player[data-player-id="{leaver["id"]}"]')
    expect(row.locator(".tag")).to_have_text("dropped")
    for pid in cut:
        row = admin.locator(f'#players-body tr.player[data-player-id="{pid}"]')
        expect(row.locator(".tag")).to_have_text("not in the cut")


def test_runewars_standings_say_after_which_round_a_player_dropped__RP7(
    browser: Any, live_server: str
) -> None:
    """Dee drops during round 1 (her game is conceded for her): the standings say
    "dropped after round 1", the players who play on nothing."""
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events", json={"name": "Leaving Night", "format": "runewars2017", "fixed_rounds": 2}
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    ids = {}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        added = http.post(f"{base}/players", json={"name": name, "army_value": 190}, headers=eo)
        ids[name] = added.json()["id"]
    assert http.post(f"{base}/rounds", headers=eo).status_code == 201
    assert http.post(f"{base}/rounds/current/start", headers=eo).is_success
    assert http.post(f"{base}/players/{ids['Dee']}/drop", headers=eo).is_success

    for url in (created["admin_url"], f"{live_server}/e/{eid}"):
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.goto(url)
        rows = page.locator("#standings tbody tr")
        expect(rows).to_have_count(4)
        dee = rows.filter(has_text="Dee")
        expect(dee.locator("td").nth(1)).to_have_text("Dee (dropped after round 1)")
        expect(dee).to_have_attribute("data-status", "dropped")
        for name in ("Ann", "Bob", "Cal"):
            expect(rows.filter(has_text=name).locator("td").nth(1)).to_have_text(name)
