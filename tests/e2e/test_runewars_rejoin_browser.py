"""RP7 on the organiser's page in Chromium (1366×768), the regulations' "Pairings": a
dropped player has a Rejoin button; it asks first, saying the player is paired again
and gets a loss for each round paired without them (0 TP, no MoV: ST5); once done the
player is no longer dropped on the page, in the standings, nor on their own page."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser


def test_the_organiser_lets_a_dropped_player_rejoin__RP7_ST5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events", json={"name": "Rejoin Night", "format": "runewars2017", "fixed_rounds": 3}
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    ids = {}
    for name in ("Ann", "Bob", "Cal", "Dee", "Eve"):
        added = http.post(f"{base}/players", json={"name": name, "army_value": 190}, headers=eo)
        ids[name] = added.json()["id"]
    assert http.post(f"{base}/players/{ids['Dee']}/drop", headers=eo).is_success
    assert http.post(f"{base}/rounds", headers=eo).status_code == 201  # paired without Dee

    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["admin_url"])
    dee = page.locator("#players tbody tr", has_text="Dee")
    expect(dee).to_contain_text("dropped")
    expect(page.locator("#players [data-rejoin]")).to_have_count(1)

    dee.locator("[data-rejoin]").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Let Dee rejoin?")
    expect(dialog).to_contain_text("paired again from the next round")
    expect(dialog).to_contain_text("a loss for the round missed: 0 tournament points")
    dialog.locator("#confirm-yes").click()
    expect(dialog).to_have_count(0)
    expect(dee).not_to_contain_text("dropped")
    expect(page.locator("#players [data-rejoin]")).to_have_count(0)
    expect(page.locator("#standings tbody tr", has_text="Dee")).not_to_contain_text("(dropped)")
    view = http.get(base, headers=eo).json()
    assert not next(p for p in view["players"] if p["name"] == "Dee")["dropped"]
    assert errors == []
