"""ST3 with ST1 on the prizes page, in Chromium: two players equal on every total of the
final standings share first place, and the documents break the tie no further. The public
page names both as tied for first and for second, never one of them by the alphabet; the
EO's page offers only the tied players, asks first, and the other takes the place left.
The standings still show them equal; the EO's log keeps the choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.dialogs import dialog_fits
from tests.e2e.events import started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
PHONE = {"width": 390, "height": 844}
EO = {"width": 1366, "height": 768}
#: Both tables end alike: the winners are equal on TP, SoS, CP and APD, and so the losers.
WON = {"winner": "p1", "control_points": [5, 0], "army_points_destroyed": [40, 10]}


def test_a_tie_on_every_total_is_named_and_the_eo_breaks_it__ST3_ST1(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    names = ("Zoe Zane", "Amy Ash", "Bo Birch", "Cy Cole")
    run = started_round(live_server, {"name": "Tie day", "fixed_rounds": 1}, names)
    eid, token = run.created["id"], run.created["admin_token"]
    for table in run.tables:
        path = f"/api/events/{eid}/tables/{table['id']}/result"
        assert run.http.put(path, json=WON, headers=run.eo).is_success
    standings = run.http.get(f"/api/events/{eid}/standings").json()
    tied = [row["name"] for row in standings if row["rank"] == 1]
    assert len(tied) == 2

    public = browser.new_context(viewport=PHONE).new_page()
    public.goto(f"{live_server}/e/{eid}/prizes")
    for place in ("#prize-first", "#prize-second"):
        card = public.locator(place)
        expect(card).to_have_attribute("data-status", "tied")
        expect(card.locator(".prize-winner")).to_contain_text("Tied on every total")
        for name in tied:
            expect(card.locator(".prize-winner")).to_contain_text(name)
    expect(public.locator("#award-btn-first")).to_have_count(0)  # the public has no tools
    public.screenshot(path=str(ARTIFACTS / "prizes-tied-phone.png"), full_page=True)
    fits = "el => el.scrollWidth <= el.clientWidth"
    assert public.locator("#prize-first").evaluate(fits), "the card is wider than the page"

    admin = browser.new_context(viewport=EO).new_page()
    admin.goto(f"{live_server}/e/{eid}/prizes#k={token}")
    first = admin.locator("#prize-first")
    expect(first.locator("#award-btn-first")).to_be_visible()
    options = first.locator("#award-first option").all_inner_texts()
    assert sorted(options[1:]) == sorted(tied)  # only the tied players are offered
    chosen, other = tied[1], tied[0]
    first.locator("#award-first").select_option(label=chosen)
    first.locator("#award-btn-first").click()
    dialog = admin.locator("#confirm-dialog")
    expect(dialog).to_contain_text("equal on every total")
    dialog_fits(admin)
    admin.screenshot(path=str(ARTIFACTS / "prizes-tie-ask-eo.png"))
    dialog.locator("#confirm-no").click()
    expect(first).to_have_attribute("data-status", "tied")  # nothing changed
    first.locator("#award-btn-first").click()
    dialog.locator("#confirm-yes").click()
    expect(first.locator(".prize-winner")).to_contain_text(chosen)
    expect(first.locator(".prize-winner")).to_contain_text("tied on every total")
    second = admin.locator("#prize-second .prize-winner")
    expect(second).to_contain_text(other)
    expect(second).to_contain_text("shares 1st on the standings: tied on every total")
    expect(second).not_to_contain_text("disqualified")
    admin.screenshot(path=str(ARTIFACTS / "prizes-tie-broken-eo.png"), full_page=True)

    public.reload()
    expect(public.locator("#prize-first .prize-winner")).to_contain_text(chosen)
    expect(public.locator("#prize-second .prize-winner")).to_contain_text(other)
    log = run.http.get(f"/api/events/{eid}/actions", headers=run.eo).json()
    [row] = [a for a in log if a["action"] == "award"]
    players = run.http.get(f"/api/events/{eid}").json()["players"]
    assert row["player"] == next(p["id"] for p in players if p["name"] == chosen)
    assert sorted(row["tied"]) == sorted(tied)
