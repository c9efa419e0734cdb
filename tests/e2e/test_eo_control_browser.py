"""The EO keeps control, in Chromium: the admin page from a bookmark, a new tab and a
second device; irreversible actions ask first and say what they will do; a dispute
shows its reasons and reports; a draft is paired again, discarded and follows the field;
a table's seat links and card come back; a stale seat link says whom to ask."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import seat_sends

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
MIN = 60_000


class Event:
    """An event made over the API, as the EO's admin page would."""

    def __init__(self, base: str, name: str, players: list[str]) -> None:
        self.http = httpx.Client(base_url=base)
        self.created = self.http.post("/api/events", json={"name": name, "points": 75}).json()
        self.id = self.created["id"]
        self.token = self.created["admin_token"]
        self.eo = {"X-EO-Token": self.token}
        self.players = {
            n: self.http.post(
                f"/api/events/{self.id}/players", json={"name": n}, headers=self.eo
            ).json()["id"]
            for n in players
        }

    def pair(self) -> None:
        assert self.http.post(f"/api/events/{self.id}/rounds", json={}, headers=self.eo).is_success

    def start(self) -> None:
        started = self.http.post(f"/api/events/{self.id}/rounds/current/start", headers=self.eo)
        assert started.is_success

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.http.get(f"/api/events/{self.id}/admin", headers=self.eo).json()
        return view

    def current(self) -> dict[str, Any] | None:
        rounds = self.view()["rounds"]
        return rounds[-1] if rounds else None

    def tables(self) -> list[dict[str, Any]]:
        tables = self.http.get(f"/api/events/{self.id}/tables", headers=self.eo).json()
        current = self.current()
        number = current["number"] if current else None
        return sorted((t for t in tables if t["round"] == number), key=lambda t: int(t["table_no"]))

    def command(self, table_id: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(
            f"/api/events/{self.id}/tables/{table_id}/command", json=body, headers=self.eo
        )


def _admin(browser: Any, url: str, viewport: dict[str, int] = DESKTOP) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    return page


def test_the_admin_page_opens_from_a_bookmark_a_new_tab_and_another_device(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Bookmark Open", ["Ann", "Bob"])
    context = browser.new_context(viewport=DESKTOP)
    seen: list[str] = []
    context.on("request", lambda request: seen.append(request.url))
    page = context.new_page()
    page.goto(event.created["admin_url"])
    expect(page.locator("#players-body tr")).to_have_count(2)
    # The address bar keeps the full admin link: that is what a bookmark saves.
    assert page.url == event.created["admin_url"]

    # A new tab of the same browser, from the address (a bookmark opens the same).
    tab = context.new_page()
    tab.goto(page.url)
    expect(tab.locator("#players-body tr")).to_have_count(2)
    expect(tab.locator("#auth")).to_be_hidden()
    # A reload keeps it too.
    tab.reload()
    expect(tab.locator("#players-body tr")).to_have_count(2)
    assert tab.url == event.created["admin_url"]

    # The link and its QR code, to open the page on another device.
    page.locator("#keep-link summary").click()
    expect(page.locator("#admin-qr")).to_be_visible()
    assert (page.locator("#admin-qr").get_attribute("src") or "").startswith("data:image/svg")
    expect(page.locator("#admin-link")).to_have_value(event.created["admin_url"])
    page.screenshot(path=str(ARTIFACTS / "eo-admin-link-and-qr.png"), full_page=True)

    # Another device: a browser with nothing stored, given the link.
    other = _admin(browser, page.locator("#admin-link").input_value(), PHONE)
    expect(other.locator("#players-body tr")).to_have_count(2)
    expect(other.locator("#auth")).to_be_hidden()
    other.screenshot(path=str(ARTIFACTS / "eo-admin-phone.png"), full_page=True)

    # Without the key, the page asks for the link; pasted, the address bar gets it.
    bare = _admin(browser, f"{live_server}/e/{event.id}/admin")
    expect(bare.locator("#auth")).to_be_visible()
    expect(bare.locator("#auth-message")).to_have_text("This page needs the EO link.")
    bare.locator("#auth-input").fill(event.created["admin_url"])
    bare.locator("#auth-form button[type=submit]").click()
    expect(bare.locator("#players-body tr")).to_have_count(2)
    assert bare.url.endswith(f"#k={event.token}")

    # The key never reached the server in a URL (a fragment is never sent).
    assert seen and not [url for url in seen if event.token in url.split("#", 1)[0]]


def test_start_round_and_the_round_end_ask_first_and_say_what_they_do__DC4_DC8(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Ask First", ["Ann", "Bob", "Cal", "Dee"])
    event.pair()
    page = _admin(browser, event.created["admin_url"])
    expect(page.locator("#start-round")).to_be_visible()

    page.locator("#start-round").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(
        "Each of the 2 tables first settles who goes first, off the clock: the starting roll"
    )
    expect(dialog).to_contain_text("its winner chooses to go first or second")
    expect(dialog).to_contain_text("the round's end is set once every table has begun")
    expect(dialog).not_to_contain_text("P1")
    expect(dialog.locator("#confirm-items li")).to_have_count(2)
    expect(dialog).to_contain_text("cannot be undone")
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-start-round.png"))
    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert event.current()["started_ms"] is None  # type: ignore[index]  # nothing started

    page.locator("#start-round").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#end-round")).to_be_visible()
    assert event.current()["started_ms"] is not None  # type: ignore[index]

    first, second = event.tables()
    for table in (first, second):  # the first seat wins the roll at the table, goes first
        settle = ({"c": "roll", "at_table": [6, 1]}, {"c": "choose_order", "first": True})
        seat_sends(live_server, table, "p1", "p1-phone", *settle, {"c": "start"})
    for side in ("p1", "p2"):  # table 2 is near its end: it plays on
        assert event.command(
            second["id"], {"c": "adjust_clock", "side": side, "remaining_ms": 2 * MIN}
        ).is_success
    page.locator("#end-round").click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("1 table is declared a tie now")
    items = dialog.locator("#confirm-items li")
    expect(items.nth(0)).to_contain_text(f"Table {first['table_no']}")
    expect(items.nth(0)).to_contain_text("declared a tie")
    expect(items.nth(1)).to_contain_text("plays on")
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-round-end.png"))
    dialog.locator("#confirm-no").click()
    assert event.current()["end_calls"] is None  # type: ignore[index]

    page.locator("#end-round").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#end-calls")).to_contain_text("1 table declared a tie")
    calls = event.current()["end_calls"]  # type: ignore[index]
    assert calls == {first["id"]: "tie", second["id"]: "play_on"}


def test_a_clock_adjust_is_bounded_by_the_player_clock_and_asks_first__DC5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Adjust Bound", ["Ann", "Bob"])
    event.pair()
    event.start()
    (table,) = event.tables()

    refused = event.command(
        table["id"], {"c": "adjust_clock", "side": "p1", "remaining_ms": 119 * MIN}
    )
    assert refused.status_code == 400
    assert "0:00 to 60:00" in refused.json()["detail"]

    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(event.created["dashboard_url"])
    card = page.locator(f'[data-table-id="{table["id"]}"]')
    card.locator(".adjust-btn").click()
    expect(card.locator(".adj-hint")).to_have_text("0:00 to 60:00 (the player clock).")
    card.locator(".adj-time").fill("119:00")
    card.locator(".adjust-form button[type=submit]").click()
    expect(card.locator(".card-error")).to_contain_text("from 0:00 to 60:00")
    expect(page.locator("#confirm-dialog")).to_have_count(0)

    card.locator(".adj-side").select_option("p2")
    card.locator(".adj-time").fill("45:00")
    card.locator(".adjust-form button[type=submit]").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text(f"Set {table['names'][1]}'s clock to 45:00?")
    expect(dialog).to_contain_text("has 60:00 left now")
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-adjust.png"))
    dialog.locator("#confirm-yes").click()
    expect(card.locator(".clock-p2")).to_have_text("45:00")
    (after,) = event.tables()
    assert after["remaining_ms"][1] == 45 * MIN
    page.goto(event.created["admin_url"])  # the EO's log names whose clock it was
    expect(page.locator("#actions")).to_contain_text(f"Set {table['names'][1]}'s clock on")
    expect(page.locator("#actions")).not_to_contain_text("P2")


def test_a_disputed_table_shows_reasons_and_reports_and_the_editor_is_prefilled(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Dispute Check", ["Ann", "Bob"])
    event.pair()
    event.start()
    (table,) = event.tables()
    p1, p2 = table["names"]
    seat_sends(
        live_server,
        table,
        "p1",
        "phone-1",
        {"c": "concede"},
        {"c": "report", "army_points_destroyed": 12, "list_played": "Haley 2"},
    )
    report = {"c": "report", "army_points_destroyed": 40, "list_played": "Butcher 3"}
    seat_sends(live_server, table, "p2", "phone-2", report)
    dispute = {"c": "dispute", "reason": "I never conceded, the clock was paused"}
    seat_sends(live_server, table, "p1", "phone-1b", dispute)

    page = _admin(browser, event.created["admin_url"])
    row = page.locator(f'tr.pairing[data-table-id="{table["id"]}"]')
    expect(row.locator(".dispute-reason")).to_contain_text(f"{p1}: I never conceded")
    reports = row.locator(f"#reports-{table['id']}")
    expect(reports).to_contain_text(f"{p1} (went first): 12 APD · list: Haley 2")
    expect(reports).to_contain_text(f"{p2} (went second): 40 APD · list: Butcher 3")
    page.screenshot(path=str(ARTIFACTS / "eo-disputed-table.png"), full_page=True)

    row.locator(f"#result-btn-{table['id']}").click()
    tid = table["id"]
    # The result as the phones show it (TS8): the conceder 0 CP and 0 APD, the winner at
    # least 3 CP and its own 40 APD (over half of a 75-point army); the reports above
    # keep what each player reported.
    expect(page.locator(f"#res-apd1-{tid}")).to_have_value("0")
    expect(page.locator(f"#res-apd2-{tid}")).to_have_value("40")
    expect(page.locator(f"#res-cp1-{tid}")).to_have_value("0")
    expect(page.locator(f"#res-cp2-{tid}")).to_have_value("3")
    expect(page.locator(f"#res-winner-p2-{tid}")).to_be_checked()  # P1 conceded
    editor = page.locator(f'[data-editor-for="{tid}"]')
    expect(editor.locator(".dispute-reason")).to_contain_text("I never conceded")
    page.screenshot(path=str(ARTIFACTS / "eo-result-editor-prefilled.png"), full_page=True)

    # From the dashboard's "Result" link, the editor opens pre-filled too.
    linked = _admin(browser, f"{live_server}/e/{event.id}/admin?result={tid}#k={event.token}")
    expect(linked.locator(f"#res-apd1-{tid}")).to_have_value("0")
    expect(linked.locator(f"#res-apd2-{tid}")).to_have_value("40")


def test_a_draft_is_paired_again_discarded_and_follows_the_field__RP7(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Draft Control", ["Ann", "Bob", "Cal", "Dee", "Eve"])
    event.pair()
    before = {t["id"] for t in event.tables()}
    page = _admin(browser, event.created["admin_url"])
    expect(page.locator("#repair-round")).to_be_visible()

    page.locator("#repair-round").click()
    expect(page.locator("#confirm-dialog")).to_contain_text("Swaps you made are undone")
    page.locator("#confirm-yes").click()
    expect(page.locator("#toast")).to_contain_text("paired again")
    assert not before & {t["id"] for t in event.tables()}

    def paired() -> set[str]:
        current = event.current()
        assert current is not None
        return {x["id"] for p in current["pairings"] for x in (p["p1"], p["p2"]) if x is not None}

    # A player dropped now leaves the draft, asked first (RP7): Cancel changes nothing.
    dialog = page.locator("#confirm-dialog")
    page.locator(f"#drop-{event.players['Ann']}").click()
    expect(dialog).to_contain_text("Drop Ann?")
    expect(dialog).to_contain_text("seat links already handed out for round 1 stop working")
    page.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    assert event.players["Ann"] in paired()
    page.locator(f"#drop-{event.players['Ann']}").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#toast")).to_contain_text("round 1 paired again")
    # One added late joins it.
    assert event.players["Ann"] not in paired()
    page.locator("#new-name").fill("Fay Latecomer")
    page.locator("#add-player-btn").click()
    expect(dialog).to_contain_text("Add Fay Latecomer?")  # the draft's cards stop working
    page.locator("#confirm-yes").click()
    expect(page.locator("tr.player", has_text="Fay Latecomer")).to_have_count(1)
    expect(page.locator("#toast")).to_contain_text("round 1 paired again")
    fay = next(p["id"] for p in event.view()["players"] if p["name"] == "Fay Latecomer")
    assert fay in paired()

    # A player added by mistake is deleted (asked first).
    page.locator("#new-name").fill("Typo Nmae")
    page.locator("#add-player-btn").click()
    expect(dialog).to_contain_text("Add Typo Nmae?")
    page.locator("#confirm-yes").click()
    typo = page.locator("tr.player", has_text="Typo Nmae")
    expect(typo).to_have_count(1)
    typo.locator("button", has_text="Delete").click()
    expect(page.locator("#confirm-dialog")).to_contain_text("Delete Typo Nmae?")
    page.screenshot(path=str(ARTIFACTS / "eo-confirm-delete-player.png"))
    page.locator("#confirm-yes").click()
    expect(typo).to_have_count(0)
    assert "Typo Nmae" not in {p["name"] for p in event.view()["players"]}

    # The draft is discarded: the round can be paired anew.
    page.locator("#discard-round").click()
    expect(page.locator("#confirm-dialog")).to_contain_text("Discard round 1?")
    page.locator("#confirm-yes").click()
    expect(page.locator("#pair-controls")).to_be_visible()
    assert event.current() is None
    page.screenshot(path=str(ARTIFACTS / "eo-after-discard.png"), full_page=True)

    # Once a player has played, deleting them is refused, in words.
    event.pair()
    event.start()
    bob = event.players["Bob"]
    refused = event.http.delete(f"/api/events/{event.id}/players/{bob}", headers=event.eo)
    assert refused.status_code == 409 or refused.status_code == 400, refused.text
    assert "has played in round 1" in refused.json()["detail"]
    assert "Drop them instead" in refused.json()["detail"]
    page.reload()
    expect(page.locator(f"#drop-{bob}")).to_be_visible()
    expect(page.locator(f"#delete-{bob}")).to_have_count(0)


def test_seat_links_and_one_card_come_back_and_a_stale_link_says_whom_to_ask(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Links Again", ["Ann", "Bob", "Cal", "Dee"])
    event.pair()
    first, second = event.tables()
    page = _admin(browser, event.created["admin_url"])
    page.locator(f"#links-btn-{first['id']}").click()
    links = page.locator(f"#table-links-{first['id']}")
    expect(links.locator(f"#seat-link-p1-{first['id']}")).to_have_value(first["links"]["p1"]["url"])
    expect(links.locator(f"#seat-link-p2-{first['id']}")).to_have_value(first["links"]["p2"]["url"])
    expect(links.locator("img.seat-qr")).to_have_count(2)
    page.screenshot(path=str(ARTIFACTS / "eo-table-links.png"), full_page=True)

    with page.expect_popup() as popup:
        page.locator(f"#print-card-{first['id']}").click()
    cards = popup.value
    expect(cards.locator(".print-card")).to_have_count(1)
    expect(cards.locator(".print-card")).to_have_attribute("data-table-id", first["id"])
    expect(cards.locator("#cards-meta")).to_contain_text(f"Table {first['table_no']} only")
    cards.screenshot(path=str(ARTIFACTS / "eo-one-table-card.png"), full_page=True)

    # A swap replaces both tables: the old seat link now says so, and whom to ask.
    a, b = event.players[first["names"][0]], event.players[second["names"][0]]
    swapped = event.http.post(
        f"/api/events/{event.id}/rounds/current/swap", json={"a": a, "b": b}, headers=event.eo
    )
    assert swapped.is_success, swapped.text
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    response = phone.goto(first["links"]["p1"]["url"])
    assert response is not None and response.status == 404
    assert "text/html" in response.headers["content-type"]
    expect(phone.locator("h1")).to_have_text("This link no longer opens a table")
    message = phone.locator("#stale-message")
    expect(message).to_contain_text("the players of its table were swapped")
    expect(message).to_contain_text("event organiser (EO)")
    expect(phone.locator("header")).to_contain_text("Links Again · Round 1")
    expect(phone.locator("#stale-event")).to_have_attribute("href", f"/e/{event.id}")
    assert not re.search(r'"detail"', phone.content())
    phone.screenshot(path=str(ARTIFACTS / "phone-stale-seat-link.png"), full_page=True)
    # No horizontal scroll on the phone.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_eo_picks_a_legacy_scenario_for_a_steamroller_round_on_the_admin_page__TS10(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = Event(live_server, "Old Guard Night", ["Ann", "Bob"])
    page = _admin(browser, event.created["admin_url"])
    select = page.locator("#scenario")
    expect(select.locator("option", has_text="Legacy")).not_to_have_count(0)
    legacy = select.locator("option", has_text="Transverse Assault")
    select.select_option(value=legacy.get_attribute("value"))
    page.locator("#pair-round").click()
    expect(page.locator("#round-badge")).to_contain_text("Transverse Assault")
    page.screenshot(path=str(ARTIFACTS / "eo-legacy-round-picked.png"))
    current = event.current()
    assert current is not None and current["scenario"]["name"] == "Transverse Assault"
