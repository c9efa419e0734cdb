"""A player's name corrected after their game, in Chromium: every page a person reads
renders the new name and none the old one (the EO's log row of the correction itself
names both).

Round 1 of a Steamroller 2019 event is played out at both tables; the EO warns a player,
then corrects that player's name with a reason. The public event page (pairings and
standings), the EO's page (tables, standings, penalties, the EO's log), the dashboard,
the table cards, the prizes page, the printed lists, the player's record sheet, the
player's phone and the table's log are opened as a person opens them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.events import StartedRound, seat_sends, started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ("Ann Abbot", "Bob Bryce", "Cara Cole", "Dan Drake")
OLD, NEW = "Bob Bryce", "Robert Bryce"


def _play_round_one(live_server: str, run: StartedRound) -> None:
    """Both tables: the first seat goes first; the second seat concedes (TS8)."""
    for table in run.tables:
        tid = table["id"]
        first = [
            {"c": "roll", "at_table": [6, 1]},
            {"c": "choose_order", "first": True},
            {"c": "start"},
        ]
        seat_sends(live_server, table, "p1", f"{tid}-a", *first)
        seat_sends(live_server, table, "p2", f"{tid}-b", {"c": "concede"})
        report = {"c": "report", "army_points_destroyed": 40}
        seat_sends(live_server, table, "p1", f"{tid}-c", report, {"c": "confirm"})
        seat_sends(live_server, table, "p2", f"{tid}-d", {"c": "confirm"})


def _corrected(live_server: str) -> tuple[StartedRound, str, dict[str, Any]]:
    """The event after round 1, the player warned and renamed: the run, the player's id
    and their table."""
    run = started_round(live_server, {"name": "Names day", "format": "sr2019"}, NAMES)
    _play_round_one(live_server, run)
    eid = run.created["id"]
    players = run.http.get(f"/api/events/{eid}", headers=run.eo).json()["players"]
    pid = next(p["id"] for p in players if p["name"] == OLD)
    warned = run.http.post(
        f"/api/events/{eid}/penalties",
        json={"player": pid, "kind": "warning", "reason": "slow play in turn 2", "round": 1},
        headers=run.eo,
    )
    assert warned.is_success, warned.text
    renamed = run.http.put(
        f"/api/events/{eid}/players/{pid}",
        json={"name": NEW, "reason": "misspelt at registration"},
        headers=run.eo,
    )
    assert renamed.status_code == 200, renamed.text
    table = next(
        t for t in run.tables if OLD in (t["links"]["p1"]["name"], t["links"]["p2"]["name"])
    )
    return run, pid, table


def test_a_corrected_name_is_the_only_name_every_page_renders(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    run, pid, table = _corrected(live_server)
    created, eid = run.created, run.created["id"]
    seat = "p1" if table["links"]["p1"]["name"] == OLD else "p2"
    fragment = table["links"][seat]["url"].split("#", 1)[1]
    pages = {
        "event page": (created["public_url"], DESKTOP),
        "EO page": (created["admin_url"], DESKTOP),
        "dashboard": (created["dashboard_url"], DESKTOP),
        "table cards": (
            f"{live_server}/e/{eid}/cards#{created['admin_url'].split('#', 1)[1]}",
            DESKTOP,
        ),
        "prizes": (f"{live_server}/e/{eid}/prizes", DESKTOP),
        "record sheet": (f"{live_server}/e/{eid}/players/{pid}/sheet", DESKTOP),
        "phone": (table["links"][seat]["url"], PHONE),
        "table log": (f"{live_server}/t/{table['id']}/log#{fragment}", PHONE),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    for surface, (url, viewport) in pages.items():
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(url)
        # Every page names the player, but the prizes page, which names only its places'
        # winners (read once it shows them).
        ready = "First-Place Finish" if surface == "prizes" else NEW
        expect(page.locator("body"), surface).to_contain_text(ready)
        said = page.evaluate("document.body.innerText")
        if surface == "EO page":  # the games are over: each table's first player went first
            tags = page.locator("tr.pairing .tag.first")
            expect(tags).to_have_count(2)
            expect(tags).to_have_text(["went first", "went first"])
        if surface == "EO page":  # the log's row of the correction names both names
            rows = page.locator("#actions li, #actions tr").all_inner_texts()
            naming_old = [row for row in rows if OLD in row]
            assert len(naming_old) == 1 and NEW in naming_old[0], naming_old
            said = said.replace(naming_old[0], "")
        if surface == "phone":  # the badge says the whole name and the seat's word
            word = "first" if seat == "p1" else "second"  # the first seat went first
            expect(page.locator("#role")).to_have_text(f"{NEW} · {word} player")
            assert page.locator("#role").evaluate("el => el.scrollWidth <= el.clientWidth")
        assert OLD not in said, (surface, said)
        assert not re.search(r"\bP[12]\b", said), (surface, said)
        shot = re.sub(r"\W+", "-", surface)
        page.screenshot(path=str(ARTIFACTS / f"name-corrected-{shot}.png"), full_page=True)
        page.context.close()
