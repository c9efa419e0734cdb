"""The new event form offers Steamroller's round and standings variants only where the
format takes them: an Iron Gauntlet 2014 qualifier runs by its own document (its round
counts and Final Standings), so the fields go, and the event is created without them
(RP1, ST1)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}


def test_an_iron_gauntlet_qualifier_is_offered_no_steamroller_variants__RP1_ST1(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{live_server}/events/new")
    page.locator("#format").select_option("sr2019")
    for field in ("#fixed_rounds", "#cut_to_top", "#standings"):
        expect(page.locator(field)).to_be_visible()
    page.locator("#cut_to_top").fill("4")  # chosen, then the format changes
    page.locator("#format").select_option("ig2014")
    for field in ("#fixed_rounds", "#cut_to_top", "#standings"):
        expect(page.locator(field)).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "new-event-gauntlet.png"), full_page=True)
    page.locator("#name").fill("Gauntlet Qualifier")
    page.locator("#create-event").click()
    expect(page).to_have_url(re.compile(r"/e/[^/]+/admin"))
    eid = page.url.split("/e/", 1)[1].split("/", 1)[0]
    event = httpx.get(f"{live_server}/api/events/{eid}").json()["event"]
    assert event["format"] == "ig2014"
    assert (event["cut_to_top"], event["fixed_rounds"], event["standings"]) == (
        None,
        None,
        "baseline",
    )
    page.context.close()
