"""The result editor on the EO's admin page asks before it saves (TS9), in the page's own
dialog, in Chromium: it names the table and both players, the result before and after,
and, for a game still being played, that the game ends now on both phones. Cancel
changes nothing: the game plays on and its log has no result in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.dialogs import dialog_fits
from tests.e2e.events import StartedRound, first_seat_goes_first, seat_sends, started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
LAPTOP = {"width": 1366, "height": 768}


def _row(event: StartedRound, table: dict[str, Any]) -> dict[str, Any]:
    eid = event.created["id"]
    tables = event.http.get(f"/api/events/{eid}/tables", headers=event.eo).json()
    (row,) = (t for t in tables if t["id"] == table["id"])
    found: dict[str, Any] = row
    return found


def _logged(event: StartedRound, table: dict[str, Any]) -> list[str]:
    watch = table["links"]["watch"].split("#k=", 1)[1]
    log = event.http.get(f"/api/tables/{table['id']}/log", headers={"X-Table-Token": watch})
    return [e.get("c") for e in log.json()["entries"]]


def _actions(event: StartedRound) -> list[str]:
    """The event's action log, by action."""
    eid = event.created["id"]
    logged = event.http.get(f"/api/events/{eid}/actions", headers=event.eo).json()
    return [a["action"] for a in logged]


def _playing(live_server: str, event: StartedRound, table: dict[str, Any]) -> None:
    """The table's game past deployment, its first turn's clock running."""
    first_seat_goes_first(live_server, table)
    for step in range(8):
        row = _row(event, table)
        if row["status"] == "playing":
            return
        seat = row["active"]
        seat_sends(live_server, table, seat, f"deploy-{step}", {"c": "pass_turn", "expect": seat})
    raise AssertionError(f"still deploying: {_row(event, table)}")


def test_saving_a_result_for_a_game_being_played_asks_first__TS9(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server, {"name": "Asks Before Saving", "points": 75}, ("Ann Archer", "Bob Boulder")
    )
    (table,) = event.tables
    tid, number = table["id"], table["table_no"]
    first, second = table["names"]
    _playing(live_server, event, table)

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(event.created["admin_url"])
    row = page.locator(f'tr.pairing[data-table-id="{tid}"]')
    expect(row.locator(".status-cell .badge")).to_have_text("playing")
    row.locator(f"#result-btn-{tid}").click()
    page.locator(f"label[for='res-winner-p1-{tid}']").click()
    page.locator(f"#res-cp1-{tid}").fill("3")
    page.locator(f"#res-apd1-{tid}").fill("38")
    page.locator(f"#res-save-{tid}").click()

    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#confirm-title")).to_have_text(f"Enter the result of table {number}?")
    expect(dialog).to_contain_text(f"{first} v {second}.")
    expect(dialog).to_contain_text("Now: no result yet; the game is still being played.")
    expect(dialog).to_contain_text(f"After: {first} wins · 3–0 CP · 38–0 APD.")
    expect(dialog).to_contain_text(
        f"The game at table {number} ends now on both phones, {first}'s and {second}'s"
    )
    expect(dialog.locator("#confirm-yes")).to_have_text("End the game and save")
    expect(dialog.locator("#confirm-no")).to_be_focused()  # a stray Enter cancels
    dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "eo-result-editor-asks-live.png"))

    dialog.locator("#confirm-no").click()
    expect(page.locator("#confirm-dialog")).to_have_count(0)
    expect(page.locator(f"#res-save-{tid}")).to_be_enabled()
    assert _row(event, table)["status"] == "playing"
    assert "record_result" not in _logged(event, table)
    expect(row.locator(".status-cell .badge")).to_have_text("playing")

    page.locator(f"#res-save-{tid}").click()
    page.locator("#confirm-dialog #confirm-yes").click()
    expect(row.locator(".result-cell")).to_contain_text(f"{first} wins · 3–0 CP · 38–0 APD")
    assert _logged(event, table).count("record_result") == 1
    assert _row(event, table)["phase"] == "over"


def test_a_correction_asks_with_the_result_before_and_after__TS9(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server, {"name": "Asks Before Correcting", "points": 75}, ("Cal Cutter", "Dee Dagger")
    )
    (table,) = event.tables
    tid, number = table["id"], table["table_no"]
    first, second = table["names"]
    first_seat_goes_first(live_server, table)
    seat_sends(live_server, table, "p2", "p2-end", {"c": "concede"})
    seat_sends(live_server, table, "p1", "p1-end", {"c": "report", "army_points_destroyed": 20})
    seat_sends(live_server, table, "p1", "p1-ok", {"c": "confirm"})
    seat_sends(live_server, table, "p2", "p2-ok", {"c": "confirm"})

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(event.created["admin_url"])
    row = page.locator(f'tr.pairing[data-table-id="{tid}"]')
    expect(row.locator(".result-cell")).to_contain_text(f"{first} wins")
    was = row.locator(".result-cell").evaluate("cell => cell.firstChild.textContent")
    assert was.startswith(f"{first} wins · ")

    row.locator(f"#result-btn-{tid}").click()
    page.locator(f"label[for='res-winner-p2-{tid}']").click()
    page.locator(f"#res-reason-{tid}").fill("the concession was the other way round")
    page.locator(f"#res-save-{tid}").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog.locator("#confirm-title")).to_have_text(f"Correct the result of table {number}?")
    expect(dialog).to_contain_text(f"{first} v {second}.")
    expect(dialog).to_contain_text(f"Now: {was}.")
    expect(dialog).to_contain_text(f"After: {second} wins")
    expect(dialog).to_contain_text("Reason: the concession was the other way round")
    expect(dialog).not_to_contain_text("ends now")
    expect(dialog.locator("#confirm-yes")).to_have_text("Correct the result")
    dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "eo-result-correction-asks.png"))
    dialog.locator("#confirm-yes").click()
    expect(row.locator(".result-cell")).to_contain_text(f"{second} wins")
    expect(row.locator(".result-cell .tag.corrected")).to_be_visible()
    assert _actions(event).count("correct_result") == 1

    # The same correction again: the page says so and sends nothing.
    actions = _actions(event)
    row.locator(f"#result-btn-{tid}").click()
    page.locator(f"#res-reason-{tid}").fill("the concession was the other way round")
    page.locator(f"#res-save-{tid}").click()
    expect(page.locator("#toast")).to_contain_text(
        f"Table {number} already has this result: nothing changed."
    )
    expect(page.locator("#confirm-dialog")).to_have_count(0)
    assert _logged(event, table).count("record_result") == 1
    assert _actions(event) == actions
