"""A 4-player Runewars event run from the organiser's page in Chromium (admin 1366×768,
phones 390×844): the table cards and player slips printed, both players of each table
in by the seat links on the cards (their QR codes carry them), one table played to a
Final Flurry both players confirm, one to a dispute the organiser settles, one the
organiser enters after calling time, then the standings (DC11, TS11, RP6, ST5).
Screenshots go to test-artifacts/runewars-event/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.api.rest import qr_svg

pytestmark = pytest.mark.browser

ADMIN = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "runewars-event"
PLAYERS = (("Ann", 200), ("Bob", 196), ("Cal", 190), ("Dee", 184))

PAGE_ERRORS: list[str] = []


@pytest.fixture(autouse=True)
def _no_page_errors() -> Any:
    """Every page of these tests runs without an uncaught script error."""
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == []


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _page(browser: Any, viewport: dict[str, int], url: str) -> Any:
    context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)
    page = context.new_page()
    page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    page.goto(url)
    return page


def _yes(page: Any, *words: str) -> None:
    """The page asks first: the dialog says what will happen; the answer is yes."""
    from playwright.sync_api import expect

    dialog = page.locator("#confirm-dialog")
    for said in words:
        expect(dialog).to_contain_text(said)
    dialog.locator("#confirm-yes").click()
    expect(dialog).to_have_count(0)


def _row(admin: Any, table: int) -> Any:
    return admin.locator(f'#rounds .tournament-round:first-child tr[data-table="{table}"]')


def _seat_links(admin: Any, table: int) -> dict[str, str]:
    """The seat links of a table as the organiser's page shows them, by player."""
    from playwright.sync_api import expect

    row = _row(admin, table)
    row.locator(".links-btn").click()
    panel = admin.locator(".links-row .table-links")
    expect(panel.locator(".seat-link")).to_have_count(2)
    links = {}
    for seat in panel.locator(".seat-link").all():
        name = seat.locator(".seat-link-name strong").inner_text()
        links[name] = seat.locator("input.link-input").input_value()
    row.locator(".links-btn").click()  # closed again
    expect(admin.locator(".links-row")).to_have_count(0)
    return links


def _links_on_cards(cards: Any, links: dict[str, str]) -> dict[str, str]:
    """Each player's seat link whose QR code is on their table's card (the QR code on the
    card is the very link: drawn again from it, it is the same picture)."""
    found = {}
    for seat in cards.locator(".pc-seat").all():
        name = seat.locator(".pc-name").inner_text()
        if name in links:
            assert seat.locator("img.pc-qr").get_attribute("src") == qr_svg(links[name]), name
            found[name] = links[name]
    return found


def _table_phones(browser: Any, links: dict[str, str]) -> dict[str, Any]:
    from playwright.sync_api import expect

    phones = {name: _page(browser, PHONE, url) for name, url in links.items()}
    for name, phone in phones.items():
        expect(phone.locator("#role")).to_have_text(name)  # the player's name, no seat label
    return phones


def _set_up(phones: dict[str, Any]) -> tuple[str, str]:
    """The chooser makes themselves first player; the other player takes red. Returns
    (first player, second player)."""
    from playwright.sync_api import expect

    for phone in phones.values():
        expect(phone.locator("#rw-prompt")).to_contain_text("chooses the first player")
    chooser = next(n for n, p in phones.items() if p.locator("#rw-first").is_visible())
    second = next(n for n in phones if n != chooser)
    phones[chooser].locator("#rw-first button", has_text=chooser).click()
    expect(phones[second].locator("#rw-area")).to_be_visible()
    phones[second].locator("[data-area=red]").click()
    expect(phones[chooser].locator("#rw-end-round")).to_be_visible()
    return chooser, second


def _score(phone: Any, destroyed: int, objectives: int) -> None:
    from playwright.sync_api import expect

    expect(phone.locator("#rw-score")).to_be_visible()
    phone.fill("#rw-destroyed", str(destroyed))
    phone.fill("#rw-objectives", str(objectives))
    phone.locator("#rw-score-send").click()


def _admin_event(browser: Any, live_server: str) -> tuple[Any, str]:
    """A new Runewars event made on the form (Runewars fields only; its Swiss rounds by
    attendance, RP6), its 4 players registered on its page."""
    from playwright.sync_api import expect

    admin = _page(browser, ADMIN, f"{live_server}/events/new")
    expect(admin.locator("#points")).to_be_visible()
    admin.select_option("#format", "runewars2017")
    for field in ("#points", "#clock_minutes", "#lists", "#pregame", "#timing", "#standings"):
        expect(admin.locator(field)).to_be_hidden()
    expect(admin.locator("#structure")).to_be_visible()
    expect(admin.locator("#rw_fixed_rounds")).to_have_value("")  # never required
    admin.fill("#name", "Runewars Open")
    _shot(admin, "0-new-event")
    with admin.expect_navigation():
        admin.click("#create-event")
    expect(admin.locator("#event-meta")).to_contain_text(
        "Swiss rounds by attendance (Basic structure)"
    )
    eid = admin.url.split("/e/", 1)[1].split("/", 1)[0]
    for n, (name, army) in enumerate(PLAYERS, start=1):
        admin.fill("#add-name", name)
        admin.fill("#add-army", str(army))
        admin.click("#add-form button[type=submit]")
        expect(admin.locator("#players tbody tr")).to_have_count(n)
    return admin, eid


def test_an_organiser_runs_a_four_player_runewars_event_from_the_admin_page__DC11_TS11_RP6_ST5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    admin, _eid = _admin_event(browser, live_server)

    # The player slips: each player's own link as a QR code, and the page it opens.
    with admin.expect_popup() as popup:
        admin.click("#link-slips")
    slips = popup.value
    expect(slips.locator(".slip")).to_have_count(4)
    expect(slips.locator(".slip", has_text="Cal")).to_contain_text("Army value 190")
    own = {
        s.locator("h2").inner_text(): s.locator("a.plain").get_attribute("href")
        for s in slips.locator(".slip").all()
    }
    _shot(slips, "1-slips")
    cal = _page(browser, PHONE, own["Cal"])
    expect(cal.locator("#player-name")).to_have_text("Cal")
    expect(cal.locator("#my-table-text")).to_contain_text("not paired yet")

    # Round 1: paired (asked first), then the cards printed. RP6: 4 players, 2 rounds.
    admin.click("#do-pair")
    _yes(admin, "Pair round 1?", "cannot be taken back")
    expect(admin.locator("#rounds")).to_contain_text("Round 1 · Swiss")
    expect(admin.locator("#event-meta")).to_contain_text("Runewars 2017 · 2 Swiss rounds")
    expect(_row(admin, 2)).to_be_visible()
    with admin.expect_popup() as popup:
        admin.click("#link-cards")
    cards = popup.value
    expect(cards.locator(".print-card")).to_have_count(2)
    expect(cards.locator(".print-card").first).to_contain_text("round timer")
    expect(cards.locator(".print-card").first).not_to_contain_text("each player's clock")
    _shot(cards, "2-cards")
    seats = {t: _links_on_cards(cards, _seat_links(admin, t)) for t in (1, 2)}
    assert all(len(found) == 2 for found in seats.values())

    # Started (asked first): the round timer counts down on the admin page.
    admin.click("#do-start")
    _yes(admin, "Start round 1?", "90-minute round timer", "Table 1:", "Table 2:")
    expect(admin.locator("#round-timer")).to_be_visible()
    expect(admin.locator("#round-timer-clock")).to_have_text(re.compile(r"^1:(29|30):"))
    expect(admin.locator("#round-timer-label")).to_have_text("Round 1 time left")
    _shot(admin, "3-round-started")

    # Table 1: both players in by their cards' links, the table numbered.
    one = _table_phones(browser, seats[1])
    for phone in one.values():
        expect(phone.locator("#table-label")).to_contain_text("Table 1 · Round 1")
    first, second = _set_up(one)
    # The counter stepped back by agreement: one asks, the other agrees.
    for n in (1, 2):
        expect(one[first].locator("#rw-round")).to_have_text(str(n))
        one[first].locator("#rw-end-round").click()
    expect(one[second].locator("#rw-round")).to_have_text("3")
    one[second].locator("#rw-back-ask").click()
    expect(one[first].locator("#rw-back-text")).to_contain_text(
        f"{second} asks to step the round counter back to game round 2"
    )
    expect(one[second].locator("#rw-back-text")).to_contain_text("You asked")
    expect(one[first].locator("#rw-round")).to_have_text("3")  # not before they agree
    one[first].locator("#rw-back-ask").click()
    for phone in one.values():
        expect(phone.locator("#rw-round")).to_have_text("2")
    # Both armies destroyed together: asked first, then each enters their own score.
    one[first].locator(".rw-more summary").click()
    one[first].locator("#rw-destroyed-both").click()
    _yes(one[first], "Both armies destroyed?", "the game ends now")
    _score(one[first], 0, 10)
    expect(one[first].locator("#rw-score-wait")).to_be_visible()
    _score(one[second], 0, 10)
    # Equal scores: each phone enters its own player's Final Flurry hits.
    for phone in one.values():
        expect(phone.locator("#rw-flurry")).to_be_visible()
        expect(phone.locator("#rw-hits")).to_have_count(1)
    one[first].fill("#rw-hits", "3")
    one[first].locator("#rw-flurry-send").click()
    expect(one[first].locator("#rw-flurry-wait")).to_contain_text(f"Waiting for {second}'s hits")
    one[second].fill("#rw-hits", "5")
    one[second].locator("#rw-flurry-send").click()
    for phone in one.values():
        expect(phone.locator("#rw-result-title")).to_have_text(f"{second} wins")
        expect(phone.locator("#rw-result-detail")).to_contain_text("Final Flurry")
    expect(_row(admin, 1)).to_contain_text("Awaiting confirmation")  # not before both agree
    one[first].locator("#rw-confirm").click()
    expect(one[second].locator("#rw-agree-state")).to_contain_text(f"{first} confirmed it")
    one[second].locator("#rw-confirm").click()
    expect(one[first].locator("#rw-agree-state")).to_contain_text("Both players confirmed")
    expect(_row(admin, 1)).to_contain_text(re.compile(f"{second} wins · TP (6–5|5–6) · MoV 0–0"))
    _shot(one[first], "4-flurry-confirmed")

    # Table 2: one player's army destroyed (asked first); the scores disputed.
    two = _table_phones(browser, seats[2])
    lead, other = _set_up(two)
    two[other].locator(".rw-more summary").click()
    two[other].locator("#rw-play button[data-side]:visible", has_text="All my units").click()
    _yes(two[other], "All your units destroyed?")
    _score(two[lead], 150, 20)
    _score(two[other], 60, 0)
    expect(two[other].locator("#rw-result-title")).to_have_text(f"{lead} wins")
    two[other].locator("#rw-dispute-open").click()
    two[other].fill("#rw-dispute-reason", "the objective was never scored")
    two[other].locator("#rw-dispute-send").click()
    expect(two[lead].locator("#rw-agree-state")).to_contain_text(
        f"{other} disputes it: the objective was never scored"
    )
    expect(two[lead].locator("#rw-confirm")).to_be_hidden()
    expect(_row(admin, 2)).to_contain_text("Disputed")
    with admin.expect_popup() as popup:
        admin.click("#link-dashboard")
    board = popup.value
    board.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    expect(board.locator('.dash-card[data-table-no="2"]')).to_contain_text(
        "Disputed: the organiser decides"
    )
    expect(board.locator('.dash-card[data-table-no="1"]')).to_contain_text(f"{second} wins")
    _shot(board, "5-dashboard")
    board.close()
    _row(admin, 2).locator(".judge-open", has_text="Settle dispute").click()
    reports = admin.locator("#judge-report-list")
    expect(reports).to_contain_text(f"{lead}: 150 army value destroyed + 20 objective points")
    expect(reports).to_contain_text(f"{other}: 60 army value destroyed")
    expect(reports).to_contain_text("disputes it: the objective was never scored")
    lead_row = "p1" if admin.locator("#judge-name-p1").inner_text() == lead else "p2"
    expect(admin.locator(f"#judge-{lead_row}-objectives")).to_have_value("20")
    admin.fill(f"#judge-{lead_row}-objectives", "0")
    admin.click("#judge-send")
    expect(admin.locator("#judge-error")).to_contain_text("Give the reason")
    admin.fill("#judge-reason", "no objective token was held at the end")
    _shot(admin, "5-dispute")
    admin.click("#judge-send")
    _yes(admin, "Settle the dispute at table 2?", "Reason: no objective token")
    # All of the army destroyed counts 200: 200 against 60 is MoV 140, 9 TP to 2.
    settled = _row(admin, 2)
    expect(settled).to_contain_text(f"{lead} wins · TP ")
    expect(settled).to_contain_text(re.compile(r"TP (9–2|2–9) · MoV (140–0|0–140)"))
    expect(settled).to_contain_text("the organiser's decision: no objective token")
    for phone in two.values():
        expect(phone.locator("#rw-result-title")).to_have_text(
            f"{lead} wins by the organiser's decision"
        )
        expect(phone.locator("#rw-result-why")).to_contain_text("no objective token")
    _shot(two[other], "6-dispute-settled")

    # Round 2: Cal finds the table on the player's page; the organiser calls time
    # (asked first) and enters the table that never reached scoring.
    admin.click("#do-pair")
    _yes(admin, "Pair round 2?")
    expect(admin.locator("#rounds .tournament-round").first).to_contain_text("Round 2")
    admin.click("#do-start")
    _yes(admin, "Start round 2?")
    cal.reload()
    expect(cal.locator("#my-table-text")).to_contain_text("Round 2 · Table")
    with cal.expect_navigation():
        cal.locator("#my-seat").click()
    expect(cal.locator("#role")).to_have_text("Cal")
    expect(cal.locator("#table-label")).to_contain_text("Round 2")
    admin.click("#do-time")
    _yes(admin, "Call time on round 2?", "cannot be taken back")
    expect(admin.locator("#round-timer-label")).to_have_text("Time called")
    expect(cal.locator("#rw-time-called")).to_be_visible()
    for table in (1, 2):
        row = _row(admin, table)
        row.locator(".judge-open", has_text="Enter result").click()
        expect(admin.locator("#judge-reports")).to_contain_text("time called")
        admin.fill("#judge-p1-destroyed", "100")
        admin.fill("#judge-p1-objectives", "0")
        admin.fill("#judge-p2-destroyed", "40" if table == 1 else "150")
        admin.fill("#judge-p2-objectives", "0")
        admin.fill("#judge-reason", "time was called before the players scored")
        admin.click("#judge-send")
        _yes(admin, f"Enter the result of table {table}?", "The table's game ends now")
        expect(row).to_contain_text("wins · TP")
    expect(cal.locator("#rw-result-title")).to_contain_text("by the organiser's decision")

    # The standings: TP, then MoV (ST5); the event is over after its two rounds.
    expect(admin.locator("#event-meta")).to_contain_text("Winner:")
    expect(admin.locator("#standings tbody tr")).to_have_count(4)
    _shot(admin, "7-standings")
    cal.goto(own["Cal"])
    expect(cal.locator("#record-body tr")).to_have_count(2)
    expect(cal.locator("#standings-body tr.me")).to_contain_text("Cal (me)")
