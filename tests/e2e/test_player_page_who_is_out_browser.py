"""A player's own page on a phone (390×844) in Chromium says, instead of "not paired
yet", why the event goes on without the player: they dropped (and may ask to rejoin),
the EO disqualified them (steamroller-2019.txt: "not eligible for any awards or prizes
and are barred from further participation in the event", with the EO's reason), or a
Cut to Top left them out (RP1: "the remaining tournament rounds are only played by the
top X players"); a Runewars player not in the cut reads the same (RP6). The standings
on the page tag who is out and why, as the public page does.

Screenshots go to test-artifacts/player-out-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
NAMES = tuple(f"Player {n}" for n in range(1, 9))
WON = {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [30, 10]}


def _links(http: httpx.Client, eid: str, eo: dict[str, str]) -> dict[str, str]:
    rows = http.get(f"/api/events/{eid}/player-links", headers=eo).json()
    return {row["id"]: row["url"] for row in rows}


def _fits(page: Any) -> None:
    """The page's words stay inside their cards: no card nor table wider than its box,
    no standings tag beyond its cell."""
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.card, .table-wrap, #my-table-text')]
            .filter((el) => el.scrollWidth > el.clientWidth + 1)
            .map((el) => el.id || el.className)"""
    )
    assert wide == [], wide
    spill = page.evaluate(
        """() => [...document.querySelectorAll('td .tag')].filter((tag) => {
            const cell = tag.closest('td').getBoundingClientRect();
            const box = tag.getBoundingClientRect();
            return box.left < cell.left || box.right > cell.right;
        }).map((tag) => tag.textContent)"""
    )
    assert spill == [], spill
    broken = page.evaluate(
        """() => [...document.querySelectorAll('th.num, td.num')].filter((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return lines.size > 1 || cell.scrollWidth > cell.clientWidth + 1;
        }).map((cell) => cell.textContent)"""
    )
    assert broken == [], f"numbers or headings split or spilling: {broken}"


def test_my_page_says_i_dropped_was_disqualified_or_cut__RP1_RP7_ST3(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    started = started_round(live_server, {"name": "Out Night", "cut_to_top": 4}, NAMES)
    http, eo = started.http, started.eo
    eid = started.created["id"]
    pairings = http.get(f"/api/events/{eid}").json()["rounds"][0]["pairings"]
    for table in pairings:
        entered = http.put(
            f"/api/events/{eid}/tables/{table['table_id']}/result", json=WON, headers=eo
        )
        assert entered.is_success, entered.text
    leaver, cheat, cut = pairings[0]["p2"], pairings[0]["p1"], pairings[1]["p2"]
    dropped = http.post(
        f"/api/events/{eid}/players/{leaver['id']}/drop", json={"dropped": True}, headers=eo
    )
    assert dropped.is_success, dropped.text
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success  # the cut
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    given = http.post(
        f"/api/events/{eid}/penalties",
        json={"player": cheat["id"], "kind": "disqualification", "reason": "Loaded dice"},
        headers=eo,
    )
    assert given.is_success, given.text
    links = _links(http, eid, eo)

    errors: list[str] = []
    said = {
        "disqualified": (
            cheat,
            "The EO disqualified you: you are not paired again and not eligible for any "
            "award or prize. Reason: Loaded dice",
        ),
        "cut": (
            cut,
            "You did not make the cut to the top 4: the remaining rounds are played by "
            "the top 4 players only.",
        ),
        "dropped": (
            leaver,
            "You dropped after round 1: you are not paired again. To play on, ask the EO "
            "to let you rejoin.",
        ),
    }
    for kind, (who, words) in said.items():
        page = browser.new_context(viewport=PHONE).new_page()  # each player's own phone
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(links[who["id"]])
        expect(page.locator("#player-name")).to_have_text(who["name"])
        expect(page.locator("#my-table-text")).to_have_text(words)
        expect(page.locator("#my-table-title")).to_have_text("This round")  # the event runs
        expect(page.locator("#my-seat")).to_be_hidden()
        mine = page.locator(f'#standings-body tr[data-player-id="{who["id"]}"]')
        expect(mine).to_have_class("me out")
        rows = page.locator("#standings-body tr[data-player-id]")
        expect(rows).to_have_count(8)
        _fits(page)
        page.screenshot(path=str(ARTIFACTS / f"player-out-{kind}.png"), full_page=True)
    body = page.locator("#standings-body")
    expect(body.locator(f'tr[data-player-id="{leaver["id"]}"] .tag')).to_have_text(
        "dropped after round 1"
    )
    expect(body.locator(f'tr[data-player-id="{cheat["id"]}"] .tag')).to_have_text("disqualified")
    expect(body.locator(f'tr[data-player-id="{cut["id"]}"] .tag')).to_have_text("not in the cut")
    expect(body.locator("tr.out")).to_have_count(5)  # one left, one disqualified, three cut
    expect(body.locator(".tag")).to_have_count(5)
    assert errors == []


def test_runewars_my_page_says_i_did_not_make_the_cut__RP6(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events",
        json={"name": "Cut Night", "format": "runewars2017", "fixed_rounds": 1, "cut_to_top": 2},
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    for name in ("Ann", "Bob", "Cal", "Dee"):
        added = http.post(f"{base}/players", json={"name": name, "army_value": 190}, headers=eo)
        assert added.is_success, added.text
    paired = http.post(f"{base}/rounds", headers=eo)
    assert paired.status_code == 201, paired.text
    assert http.post(f"{base}/rounds/current/start", headers=eo).is_success
    for p in paired.json()["pairings"]:
        body = {"entries": [[120, 10], [40, 0]], "reason": "scores from the sheet"}
        put = http.put(f"/api/events/{eid}/tables/{p['table_id']}/result", json=body, headers=eo)
        assert put.is_success, put.text
    assert http.post(f"{base}/rounds", headers=eo).status_code == 201  # the cut: the final
    cut = [s for s in http.get(base).json()["standings"] if s["status"] == "cut"]
    assert len(cut) == 2
    links = _links(http, eid, eo)

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(links[cut[0]["player_id"]])
    expect(page.locator("#player-name")).to_have_text(cut[0]["name"])
    expect(page.locator("#my-table-text")).to_have_text(
        "You did not make the cut to the top 2: the remaining rounds are played by the top 2 "
        "players only."
    )
    expect(page.locator("#my-seat")).to_be_hidden()
    body = page.locator("#standings-body")
    for s in cut:
        row = body.locator(f'tr[data-player-id="{s["player_id"]}"]')
        expect(row.locator(".tag")).to_have_text("not in the cut")
        expect(row).to_have_attribute("data-status", "cut")
    expect(body.locator(".tag")).to_have_count(2)
    _fits(page)
    page.screenshot(path=str(ARTIFACTS / "player-out-runewars-cut.png"), full_page=True)


def test_my_page_names_who_shares_my_final_place__ST1_RP1(browser: Any, live_server: str) -> None:
    """ST1: players equal on TP, SoS, CP and APD share a rank. Once the event is over, a
    player's page says their place and, when it is shared, with whom, by name; a place
    of one's own names nobody."""
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Tied", "fixed_rounds": 1}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    tables = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    for table in tables:  # both winners alike on every total: they share first
        saved = http.put(f"/api/events/{eid}/tables/{table['id']}/result", json=WON, headers=eo)
        assert saved.is_success, saved.text
    rows = http.get(f"/api/events/{eid}/standings").json()
    assert [r["rank"] for r in rows] == [1, 1, 3, 3]
    first, second = rows[0]["name"], rows[1]["name"]
    links = {
        r["name"]: r["url"] for r in http.get(f"/api/events/{eid}/player-links", headers=eo).json()
    }

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(links[first])
    expect(page.locator("#my-table-text")).to_have_text(
        f"The event is over: you finished 1st of 4, tied with {second}."
    )
    expect(page.locator("#my-table-title")).to_have_text("Final standing")  # no round's
    _fits(page)
    page.screenshot(path=str(ARTIFACTS / "player-over-tied.png"))
    page = page.context.new_page()  # another player's link: the same page, another key
    page.goto(links[rows[2]["name"]])
    expect(page.locator("#my-table-text")).to_have_text(
        f"The event is over: you finished 3rd of 4, tied with {rows[3]['name']}."
    )
    page.context.close()
