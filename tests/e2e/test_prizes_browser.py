"""Prizes in Chromium (ST3): players vote on their phones, the EO closes the vote and
sees the winner; nobody sees a count before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
PHONE = {"width": 390, "height": 844}


def _asks_first(
    page: Any,
    button: Any,
    said: tuple[str, ...],
    unchanged: Any,
    shot: str = "",
    reason: str = "",
) -> None:
    """`button` starts a step that cannot be undone: the page's own dialog says `said`
    first (`shot`: its screenshot); Cancel leaves it `unchanged()` (which asserts so);
    then the EO confirms (giving the `reason` first, when the step needs one: its
    confirm button waits for it)."""
    from playwright.sync_api import expect

    dialog = page.locator("#confirm-dialog")
    button.click()
    for words in said:
        expect(dialog).to_contain_text(words)
    if shot:
        page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    unchanged()
    button.click()
    if reason:
        expect(dialog.locator("#confirm-yes")).to_be_disabled()
        dialog.locator("#confirm-reason").fill("   ")
        expect(dialog.locator("#confirm-yes")).to_be_disabled()
        dialog.locator("#confirm-reason").fill(reason)
        expect(dialog.locator("#confirm-yes")).to_be_enabled()
    dialog.locator("#confirm-yes").click()


def test_players_vote_on_their_phones_and_the_eo_closes_the_vote__ST3(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events", json={"name": "Vote night", "painting_category": "Best Army"}
    ).json()
    eid, token = created["id"], created["admin_token"]
    eo = {"X-EO-Token": token}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    seats = {}
    for table in http.get(f"/api/events/{eid}/tables", headers=eo).json():
        for side, name in zip(("p1", "p2"), table["names"], strict=True):
            seats[name] = table["links"][side]["url"].split("#k=", 1)[1]

    admin = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    admin.goto(f"{live_server}/e/{eid}/prizes#k={token}")
    sport = admin.locator("#prize-best_sport")
    expect(sport.locator("#vote-best_sport")).to_be_visible()
    expect(admin.locator("#prize-best_painted")).to_contain_text("Best Army")
    sport.locator("#vote-best_sport").click()
    expect(sport).to_have_attribute("data-status", "open")
    expect(sport).to_contain_text("count stays hidden")
    expect(sport.locator(".vote-turnout")).to_have_text("0 of 4 have voted")

    phones = []
    for voter, choice in (("Ann", "Dee"), ("Bob", "Dee"), ("Cal", "Ann")):
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        phone.goto(f"{live_server}/e/{eid}/vote#k={seats[voter]}")
        expect(phone.locator("#voter")).to_have_text(f"Voting as {voter}")
        assert "#k=" in phone.url  # the key stays the link's, kept nowhere else on the phone
        ballot = phone.locator("#ballot-best_sport")
        ballot.locator(".choice", has_text=choice).tap()
        expect(ballot.locator(".choice.mine")).to_have_text(choice)
        phones.append(phone)
    phones[0].screenshot(path=str(ARTIFACTS / "prizes-phone-ballot.png"), full_page=True)

    # Ann changes her mind and back: the last vote counts, once.
    ann = phones[0].locator("#ballot-best_sport")
    ann.locator(".choice", has_text="Bob").tap()
    expect(ann.locator(".choice.mine")).to_have_text("Bob")
    ann.locator(".choice", has_text="Dee").tap()
    expect(ann.locator(".choice.mine")).to_have_text("Dee")

    admin.reload()
    sport = admin.locator("#prize-best_sport")
    expect(sport).to_have_attribute("data-status", "open")
    expect(sport.locator(".prize-count")).to_have_count(0)  # no count before the close
    # The EO sees how many have voted (Ann's change of mind counts once), never for whom.
    expect(sport.locator(".vote-turnout")).to_have_text("3 of 4 have voted")
    assert "Dee" not in sport.locator(".vote-turnout").inner_text()
    admin.screenshot(path=str(ARTIFACTS / "prizes-eo-vote-open.png"), full_page=True)

    _asks_first(  # closing cannot be undone: the page asks first
        admin,
        sport.locator("#close-best_sport"),
        ("Close the Best Sport vote?", "3 of 4 have voted"),
        lambda: expect(sport).to_have_attribute("data-status", "open"),
    )
    expect(sport).to_have_attribute("data-status", "awarded")
    expect(sport.locator(".prize-winner")).to_contain_text("Dee")
    expect(sport.locator(".prize-counts")).to_contain_text("Dee: 2")
    admin.screenshot(path=str(ARTIFACTS / "prizes-eo-closed.png"), full_page=True)

    public = browser.new_context(viewport=PHONE).new_page()
    public.goto(f"{live_server}/e/{eid}/prizes")
    expect(public.locator("#prize-best_sport .prize-winner")).to_contain_text("Dee")
    expect(public.locator("#eo-players")).to_be_hidden()
    public.emulate_media(media="print")
    public.screenshot(path=str(ARTIFACTS / "prizes-print.png"), full_page=True)


def test_the_public_standings_show_the_variant_and_assassination_wins__ST2(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Assassins", "standings": "assassin"}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server}/e/{eid}")
    expect(page.locator("#standings-order")).to_have_text("TP, assassination wins, CP, SoS")
    expect(page.locator("#standings thead")).to_contain_text("AV")
    expect(page.locator("#standings-body tr").first.locator("td")).to_have_count(8)
    page.screenshot(path=str(ARTIFACTS / "standings-assassin.png"), full_page=True)


def test_a_player_votes_by_pasting_their_seat_link__ST3(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Paste night"}).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    table = http.get(f"/api/events/{eid}/tables", headers=eo).json()[0]
    assert http.post(f"/api/events/{eid}/prizes/best_sport/vote", json={}, headers=eo).is_success
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_server}/e/{eid}/vote")
    phone.locator("#seat-input").fill("https://example.invalid/t/x#k=nope-nope-nope")
    phone.locator("#seat-form button").tap()
    expect(phone.locator("#page-error")).to_contain_text("seat link")
    phone.locator("#seat-input").fill(table["links"]["p2"]["url"])
    phone.locator("#seat-form button").tap()
    expect(phone.locator("#voter")).to_have_text(f"Voting as {table['names'][1]}")
    phone.locator("#ballot-best_sport .choice").first.tap()
    expect(phone.locator("#ballot-best_sport .choice.mine")).to_have_count(1)


def test_the_eo_is_asked_before_a_disqualification_or_an_award__ST3(
    browser: Any, live_server: str
) -> None:
    """Disqualifying a player takes their prizes and votes, and an awarded prize stays
    awarded: the page asks first, in its own dialog naming the player; Cancel changes
    nothing."""
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Asked first"}).json()
    eid, token = created["id"], created["admin_token"]
    eo = {"X-EO-Token": token}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    bob = next(p for p in http.get(f"/api/events/{eid}").json()["players"] if p["name"] == "Bob")

    admin = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    admin.goto(f"{live_server}/e/{eid}/prizes#k={token}")
    button = admin.locator(f'button[data-player="{bob["id"]}"]')

    def bob_disqualified() -> bool:
        players = http.get(f"/api/events/{eid}").json()["players"]
        return bool(next(p for p in players if p["name"] == "Bob").get("disqualified"))

    def not_disqualified() -> None:
        expect(button).to_have_text("Disqualify")
        assert not bob_disqualified()

    said = ("Disqualify Bob?", "Bob wins no prize", "Why is Bob disqualified?")
    _asks_first(
        admin,
        button,
        said,
        not_disqualified,
        shot="prizes-disqualify-asks",
        reason="Abusive conduct",
    )
    expect(button).to_have_text("Lift disqualification")
    assert bob_disqualified()
    # The same penalty record as the admin page's Warnings and penalties, with the reason.
    record = http.get(f"/api/events/{eid}/penalties", headers=eo).json()["penalties"]
    assert [(p["player"]["name"], p["what"], p["reason"]) for p in record] == [
        ("Bob", "Disqualification", "Abusive conduct")
    ]

    sport = admin.locator("#prize-best_sport")
    sport.locator("#award-best_sport").select_option(label="Ann")
    _asks_first(
        admin,
        sport.locator("#award-btn-best_sport"),
        ("Award Best Sport to Ann?",),
        lambda: expect(sport).not_to_have_attribute("data-status", "awarded"),
    )
    expect(sport).to_have_attribute("data-status", "awarded")
    expect(sport.locator(".prize-winner")).to_contain_text("Ann")

    # Lifting it asks too, with the reason: the record is withdrawn, not erased.
    _asks_first(
        admin,
        button,
        ("Lift Bob's disqualification?", "Why is it lifted?"),
        lambda: expect(button).to_have_text("Lift disqualification"),
        reason="It was another player",
    )
    expect(button).to_have_text("Disqualify")
    assert not bob_disqualified()
    [penalty] = http.get(f"/api/events/{eid}/penalties", headers=eo).json()["penalties"]
    assert penalty["withdrawn"]["reason"] == "It was another player"


def test_a_second_eo_tab_cannot_award_an_awarded_prize_again__ST3(
    browser: Any, live_server: str
) -> None:
    """An awarded prize stays awarded: a second EO tab that still shows the Award button
    is told who holds it, and the prize stays theirs."""
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Two tabs"}).json()
    eid, token = created["id"], created["admin_token"]
    eo = {"X-EO-Token": token}
    ids = {}
    for name in ("Ann", "Bob"):
        added = http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        ids[name] = added.json()["id"]
    admin = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    admin.goto(f"{live_server}/e/{eid}/prizes#k={token}")
    sport = admin.locator("#prize-best_sport")
    expect(sport.locator("#award-btn-best_sport")).to_be_visible()

    # The other tab awards it to Ann first.
    given = http.post(
        f"/api/events/{eid}/prizes/best_sport/award", json={"player": ids["Ann"]}, headers=eo
    )
    assert given.is_success, given.text

    sport.locator("#award-best_sport").select_option(label="Bob")
    sport.locator("#award-btn-best_sport").click()
    admin.locator("#confirm-dialog #confirm-yes").click()
    expect(sport.locator(".form-error")).to_contain_text("already awarded to Ann")
    prizes = http.get(f"/api/events/{eid}/prizes").json()["prizes"]
    held = next(p for p in prizes if p["id"] == "best_sport")
    assert held["winner"] == {"id": ids["Ann"], "name": "Ann"}
