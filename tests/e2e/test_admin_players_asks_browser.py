"""On the event admin page, adding a player, importing players and swapping two players
while a round is paired and not started ask first, in the page's own dialog: a player
added or imported pairs the draft again (its table cards and seat links stop working), a
swap opens both tables again and is kept in the round's notes. Cancel changes nothing;
with no draft, adding a player asks nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.dialogs import dialog_fits

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}
NAMES = ("Ann Archer", "Bob Boulder", "Cal Cutter", "Dee Dagger")


class Event:
    """An event made over the API: its players registered, round 1 paired (a draft)."""

    def __init__(self, live_server: str, name: str, *, draft: bool = True) -> None:
        self.http = httpx.Client(base_url=live_server)
        self.created = self.http.post("/api/events", json={"name": name, "points": 75}).json()
        self.id = self.created["id"]
        self.eo = {"X-EO-Token": self.created["admin_token"]}
        for player in NAMES:
            added = self.http.post(
                f"/api/events/{self.id}/players", json={"name": player}, headers=self.eo
            )
            assert added.is_success, added.text
        if draft:
            paired = self.http.post(f"/api/events/{self.id}/rounds", json={}, headers=self.eo)
            assert paired.is_success, paired.text

    def admin(self) -> dict[str, Any]:
        view: dict[str, Any] = self.http.get(f"/api/events/{self.id}/admin", headers=self.eo).json()
        return view

    def players(self) -> list[str]:
        return [p["name"] for p in self.admin()["players"]]

    def draft(self) -> dict[str, Any]:
        """The draft's tables (who sits where, each table's id), its notes and every
        table's seat links: what a table card carries."""
        (entry,) = self.admin()["rounds"]
        assert entry["started_ms"] is None
        tables = self.http.get(f"/api/events/{self.id}/tables", headers=self.eo).json()
        return {
            "pairings": [
                (g["table"], g["p1"]["id"], g["p2"]["id"] if g["p2"] else None, g["table_id"])
                for g in entry["pairings"]
            ],
            "notes": entry["notes"],
            "links": sorted(
                (t["id"], t["links"]["p1"]["url"], t["links"]["p2"]["url"]) for t in tables
            ),
        }

    def page(self, browser: Any) -> Any:
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.goto(self.created["admin_url"])
        return page


def _draft_words(who: str) -> str:
    return (
        f"Round 1 is paired but not started: it is paired again with {who}. Table cards and"
        " seat links already handed out for round 1 stop working: print its cards again."
    )


def test_adding_a_player_while_a_round_is_a_draft_asks_first(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Add To A Draft")
    before = event.draft()
    page = event.page(browser)
    dialog = page.locator("#confirm-dialog")
    expect(page.locator("#draft-controls")).to_be_visible()

    page.locator("#new-name").fill("Eve Ember")
    page.locator("#add-player-btn").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Add Eve Ember?")
    expect(dialog).to_contain_text(_draft_words("Eve Ember"))
    expect(dialog.locator("#confirm-yes")).to_have_text("Add Eve Ember")
    dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-add-player-draft.png"))

    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert event.draft() == before  # the same tables, the same links
    assert "Eve Ember" not in event.players()
    expect(page.locator("#new-name")).to_have_value("Eve Ember")  # kept: ask again later

    page.locator("#add-player-btn").click()
    dialog.locator("#confirm-yes").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#toast")).to_contain_text("Added Eve Ember · round 1 paired again")
    assert "Eve Ember" in event.players()
    eve = next(p["id"] for p in event.admin()["players"] if p["name"] == "Eve Ember")
    after = event.draft()
    assert any(eve in (p1, p2) for _, p1, p2, _ in after["pairings"])
    expect(page.locator("#new-name")).to_have_value("")


def test_importing_players_while_a_round_is_a_draft_asks_first(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Import Into A Draft")
    before = event.draft()
    page = event.page(browser)
    dialog = page.locator("#confirm-dialog")
    expect(page.locator("#draft-controls")).to_be_visible()

    page.locator("#import summary").click()
    page.locator("#import-text").fill("name,faction\nFay Frost,Cygnar\nGil Glade,Khador\n")
    page.locator("#import-btn").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Import the players in this CSV?")
    expect(dialog).to_contain_text(_draft_words("the players imported"))
    expect(dialog.locator("#confirm-yes")).to_have_text("Import")
    dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-import-players-draft.png"))

    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert event.draft() == before
    assert len(event.players()) == len(NAMES)
    expect(page.locator("#import-result")).to_be_hidden()

    page.locator("#import-btn").click()
    dialog.locator("#confirm-yes").click()
    expect(page.locator("#import-added")).to_have_text("2")
    expect(page.locator("#toast")).to_contain_text("2 players added · round 1 paired again")
    assert {"Fay Frost", "Gil Glade"} <= set(event.players())


def test_adding_a_player_with_no_draft_asks_nothing(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Add With No Draft", draft=False)
    page = event.page(browser)
    expect(page.locator("#pair-controls")).to_be_visible()
    page.locator("#new-name").fill("Hal Haze")
    page.locator("#add-player-btn").click()
    expect(page.locator("#toast")).to_contain_text("Added Hal Haze")
    expect(page.locator("#confirm-dialog")).to_have_count(0)
    assert "Hal Haze" in event.players()


def test_a_swap_asks_first_naming_both_players_and_their_tables(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Swap Asks")
    before = event.draft()
    admin = event.admin()
    names = {p["id"]: p["name"] for p in admin["players"]}
    first, second = sorted(admin["rounds"][0]["pairings"], key=lambda g: g["table"])
    a, b = first["p1"]["id"], second["p2"]["id"]  # at different tables
    ta, tb = first["table"], second["table"]
    # Each moves to the other's table and plays the other's opponent.
    against_a, against_b = names[second["p1"]["id"]], names[first["p2"]["id"]]

    page = event.page(browser)
    dialog = page.locator("#confirm-dialog")
    expect(page.locator("#draft-controls")).to_be_visible()
    page.locator("#swap-a").select_option(a)
    page.locator("#swap-b").select_option(b)
    page.locator("#swap").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text(f"Swap {names[a]} and {names[b]}?")
    expect(dialog).to_contain_text(
        f"{names[a]} (now table {ta}) moves to table {tb}, against {against_a}."
    )
    expect(dialog).to_contain_text(
        f"{names[b]} (now table {tb}) moves to table {ta}, against {against_b}."
    )
    expect(dialog).to_contain_text(
        f"Tables {ta} and {tb} get new seat links: the table cards and seat links already"
        " handed out for them stop working. Print their table cards again."
    )
    expect(dialog).to_contain_text(f"{names[a]} and {names[b]} were swapped by the EO")
    expect(dialog).not_to_contain_text(re.compile(r"\bP[12]\b|\bseat [12]\b", re.IGNORECASE))
    expect(dialog.locator("#confirm-yes")).to_have_text("Swap them")
    dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-swap-players.png"))

    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert event.draft() == before  # the same pairing, tables and links; no note

    page.locator("#swap").click()
    dialog.locator("#confirm-yes").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#toast")).to_contain_text(f"Swapped {names[a]} and {names[b]}")
    after = event.draft()
    seats = {t: (p1, p2, tid) for t, p1, p2, tid in after["pairings"]}
    assert b in seats[ta][:2] and a in seats[tb][:2]
    old_ids = {tid for _, _, _, tid in before["pairings"]}
    assert seats[ta][2] not in old_ids and seats[tb][2] not in old_ids  # new links
    assert after["links"] != before["links"]
    assert any(f"{names[a]} and {names[b]} were swapped by the EO" in n for n in after["notes"])
