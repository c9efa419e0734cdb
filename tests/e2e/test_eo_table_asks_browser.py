"""The EO's questions on an event table's page, on a phone in Chromium, name the table and
both players, in the format's own words: the round-time draw of Iron Gauntlet 2014 (DC8)
and the dice down of Classic Turn Timing (DC10). Cancel changes nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.events import first_seat_goes_first, started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
OVER = re.compile(r"\bover\b")


def _eo_phone(browser: Any, table: dict[str, Any]) -> Any:
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    page.goto(table["links"]["eo"])
    return page


def _names(table: dict[str, Any]) -> str:
    return f"{table['links']['p1']['name']} v {table['links']['p2']['name']}"


def _still_playing(event: Any, table: dict[str, Any]) -> None:
    eid = event.created["id"]
    tables = event.http.get(f"/api/events/{eid}/tables", headers=event.eo).json()
    (now,) = (t for t in tables if t["id"] == table["id"])
    assert now["phase"] != "over", now


def test_the_round_time_draw_names_the_table_and_both_players__DC8_IG2014(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server,
        {"name": "Gauntlet Asks", "format": "ig2014", "points": 50},
        ("Ann Archer", "Bob Boulder"),
        round_body={"scenario": "outflank"},
    )
    (table,) = event.tables
    first_seat_goes_first(live_server, table)
    eo = _eo_phone(browser, table)
    expect(eo.locator("#call-tie")).to_contain_text("declare a draw")
    eo.locator("#call-tie").click()
    expect(eo.locator("#confirm")).to_be_visible()
    expect(eo.locator("#confirm-text")).to_have_text(
        f"Declare a draw at table {table['table_no']}? {_names(table)}: the round's time is"
        " up, and the game ends now as a draw."
    )
    expect(eo.locator("#confirm-yes")).to_have_text("Declare a draw")
    eo.screenshot(path=str(ARTIFACTS / "eo-table-draw-asks.png"))
    eo.locator("#confirm-no").click()
    expect(eo.locator("#confirm")).to_be_hidden()
    _still_playing(event, table)
    eo.locator("#call-tie").click()
    eo.locator("#confirm-yes").click()
    expect(eo.locator("#app")).to_have_class(OVER)


def test_dice_down_names_the_table_and_both_players__DC10(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server,
        {"name": "Classic Asks", "points": 75, "variants": ["classic_turn_timing"]},
        ("Cal Cutter", "Dee Dagger"),
    )
    (table,) = event.tables
    first_seat_goes_first(live_server, table)
    eo = _eo_phone(browser, table)
    eo.locator("#dice-down").click()
    expect(eo.locator("#confirm-text")).to_have_text(
        f"Dice down at table {table['table_no']}? {_names(table)}: the game ends now, with"
        " one last scenario scoring. It cannot be undone."
    )
    eo.screenshot(path=str(ARTIFACTS / "eo-table-dice-down-asks.png"))
    eo.locator("#confirm-no").click()
    expect(eo.locator("#confirm")).to_be_hidden()
    _still_playing(event, table)
    eo.locator("#dice-down").click()
    eo.locator("#confirm-yes").click()
    expect(eo.locator("#app")).to_have_class(OVER)


def _pause_question(table: dict[str, Any]) -> str:
    return (
        f"Pause table {table['table_no']}? {_names(table)}: the clocks stop until you resume"
        " them. A table you pause in this round is not declared a tie at the round's end: if"
        " more than 5 minutes are left on both clocks together, it plays on to the end of its"
        " game instead. Resuming does not undo this for the round."
    )


def _paused(event: Any, table: dict[str, Any]) -> bool:
    eid = event.created["id"]
    tables = event.http.get(f"/api/events/{eid}/tables", headers=event.eo).json()
    (now,) = (t for t in tables if t["id"] == table["id"])
    return bool(now["paused"])


def test_the_eos_first_pause_on_the_table_page_asks_as_the_dashboards_does__DC8(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server, {"name": "Pause Asks", "points": 75}, ("Eve Ember", "Fay Frost")
    )
    (table,) = event.tables
    first_seat_goes_first(live_server, table)
    eo = _eo_phone(browser, table)
    eo.locator("#pause").click()
    expect(eo.locator("#confirm")).to_be_visible()
    expect(eo.locator("#confirm-text")).to_have_text(_pause_question(table))
    expect(eo.locator("#confirm-yes")).to_have_text("Pause the table")
    eo.screenshot(path=str(ARTIFACTS / "eo-table-pause-asks.png"))
    eo.locator("#confirm-no").click()
    expect(eo.locator("#confirm")).to_be_hidden()
    expect(eo.locator("#pause")).to_be_visible()
    assert not _paused(event, table)
    eo.locator("#pause").click()
    eo.locator("#confirm-yes").click()
    expect(eo.locator("#resume")).to_be_visible()
    assert _paused(event, table)
    eo.locator("#resume").click()
    expect(eo.locator("#pause")).to_be_visible()
    eo.locator("#pause").click()  # paused by the EO this round already: nothing to ask
    expect(eo.locator("#resume")).to_be_visible()
    expect(eo.locator("#confirm")).to_be_hidden()


def test_a_pause_that_changes_nothing_at_the_rounds_end_asks_nothing__DC8_IG2014(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server,
        {"name": "Gauntlet Pause", "format": "ig2014", "points": 50},
        ("Gil Glade", "Hal Haze"),
        round_body={"scenario": "outflank"},
    )
    (table,) = event.tables
    first_seat_goes_first(live_server, table)
    eo = _eo_phone(browser, table)
    eo.locator("#pause").click()
    expect(eo.locator("#resume")).to_be_visible()
    expect(eo.locator("#confirm")).to_be_hidden()
    assert _paused(event, table)
