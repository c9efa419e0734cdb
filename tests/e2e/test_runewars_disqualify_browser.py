"""The organiser disqualifies a Runewars player on the event's page in Chromium (1366×768):
"The organizer, at his or her sole discretion, may remove players from the tournament for
unsporting conduct"; "Disqualified players are removed from the tournament, and cannot
rejoin" (runewars-tournament-regulations-2017.txt; RP7). The page asks first, naming the
player, saying it cannot be undone and that they cannot rejoin, with the reason to give;
then it shows the player disqualified, with no Rejoin button."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.dialogs import dialog_fits

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_the_organiser_disqualifies_a_player_after_being_asked__RP7(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    ARTIFACTS.mkdir(exist_ok=True)
    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events", json={"name": "Conduct Night", "format": "runewars2017", "fixed_rounds": 3}
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    ids = {}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        added = http.post(f"{base}/players", json={"name": name, "army_value": 190}, headers=eo)
        ids[name] = added.json()["id"]
    assert http.post(f"{base}/players/{ids['Bob']}/drop", headers=eo).is_success

    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["admin_url"])
    dee = page.locator("#players tbody tr", has_text="Dee")
    bob = page.locator("#players tbody tr", has_text="Bob")
    expect(bob.locator("[data-rejoin]")).to_have_count(1)  # a dropped player may rejoin

    # Cancelled: nothing happens.
    dee.locator("[data-disqualify]").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    page.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    expect(dee).not_to_contain_text("disqualified")

    dee.locator("[data-disqualify]").click()
    expect(dialog).to_contain_text("Disqualify Dee?")
    expect(dialog).to_contain_text("removed from the tournament")
    expect(dialog).to_contain_text("cannot be undone: Dee cannot rejoin the event")
    expect(dialog).to_contain_text("Why is Dee disqualified?")
    yes = page.locator("#confirm-yes")
    expect(yes).to_have_text("Disqualify Dee")
    expect(yes).to_be_disabled()  # the reason comes first
    page.locator("#confirm-reason").fill("Threw dice at his opponent")
    expect(yes).to_be_enabled()
    dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "rw-disqualify-asks.png"))
    yes.click()
    expect(dialog).to_have_count(0)

    expect(dee.locator("[data-status=disqualified]")).to_have_text("disqualified")
    expect(dee.locator("[data-rejoin]")).to_have_count(0)
    expect(dee.locator("[data-disqualify]")).to_have_count(0)
    expect(dee.get_by_role("button")).to_have_count(0)
    expect(page.locator("#standings tbody tr", has_text="Dee")).to_contain_text("(disqualified)")
    expect(bob.locator("[data-rejoin]")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "rw-disqualified.png"))

    actions = http.get(f"/api/events/{eid}/actions", headers=eo).json()
    assert any(
        a["action"] == "disqualify" and a["reason"] == "Threw dice at his opponent" for a in actions
    )
    # The player's own page says so, in the player's words.
    links = http.get(f"/api/events/{eid}/player-links", headers=eo).json()
    mine = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    mine.goto(next(row["url"] for row in links if row["name"] == "Dee"))
    expect(mine.locator("#my-table-text")).to_have_text(
        "The organiser has disqualified you: you are removed from the event."
    )
    assert errors == []
