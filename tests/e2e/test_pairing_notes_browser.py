"""The EO's page in Chromium: a player's club on the add form, the players list and the
editor; round 1's notes say which clubmates meet and why (RP2)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}


def test_clubs_on_the_admin_page_and_the_round_notes__RP2(browser: Any, live_server: str) -> None:
    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json={"name": "Club Night", "points": 75}).json()
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["admin_url"])
    for name, club in (("Ann", "Iron Kings"), ("Bob", "Iron Kings"), ("Cid", "Iron Kings")):
        page.fill("#new-name", name)
        page.fill("#new-club", club)
        page.click("#add-player-btn")
        page.locator("#players-body tr.player", has_text=name).wait_for()
        assert page.input_value("#new-club") == ""
    page.fill("#new-name", "Dee")
    page.click("#add-player-btn")
    page.locator("#players-body tr.player", has_text="Dee").wait_for()
    ann = page.locator("#players-body tr.player", has_text="Ann")
    assert "Club: Iron Kings" in ann.inner_text()
    assert "Club" not in page.locator("#players-body tr.player", has_text="Dee").inner_text()

    # The editor keeps the club, and a correction moves it.
    page.locator("#players-body tr.player", has_text="Dee").get_by_role(
        "button", name="Edit"
    ).click()
    assert page.input_value("#edit-club") == ""
    page.fill("#edit-club", "Black Ships")
    page.click("#edit-save")
    page.locator("#players-body tr.player", has_text="Dee").filter(
        has_text="Club: Black Ships"
    ).wait_for()

    assert page.locator("#round-notes").is_hidden()
    page.click("#pair-round")
    notes = page.locator("#round-notes")
    notes.wait_for()
    assert notes.get_attribute("open") is not None  # a draft's notes are open
    assert "How round 1 was paired (1 note)" in notes.inner_text()
    (note,) = page.locator("#round-notes-list li").all_inner_texts()
    assert re.fullmatch(
        r"(Ann|Bob|Cid) and (Ann|Bob|Cid) are both of Iron Kings: "
        r"no other pairing kept every club apart",
        note,
    )
    assert errors == []
