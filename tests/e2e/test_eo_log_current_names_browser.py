"""The EO's log on the admin page, in Chromium, after the EO corrected a player's name:
the rows written before (the table's clock, the result, the warning, the award, the
drop) name the player by the corrected name; only the rename's own row names the old
one, beside the new."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.events import first_seat_goes_first, started_round

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 768}
OLD, NEW = "Bbo Baker", "Bob Baker"


def test_the_eo_log_names_the_player_by_the_corrected_name(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    run = started_round(live_server, {"name": "Log day", "format": "sr2019"}, (OLD, "Ann Abbot"))
    api, eo = f"/api/events/{run.created['id']}", run.eo
    [table] = run.tables
    seat = "p1" if table["names"][0] == OLD else "p2"
    first_seat_goes_first(live_server, table)
    adjust = {"c": "adjust_clock", "side": seat, "remaining_ms": 30 * 60_000}
    command = run.http.post(f"{api}/tables/{table['id']}/command", json=adjust, headers=eo)
    assert command.is_success, command.text
    players = run.http.get(api, headers=eo).json()["players"]
    pid = next(p["id"] for p in players if p["name"] == OLD)
    # The player drops during round 1 (once the event is over nobody drops), and plays
    # the game already started to its end.
    assert run.http.post(f"{api}/players/{pid}/drop", json={}, headers=eo).is_success
    result = {"winner": seat, "control_points": [3, 1], "army_points_destroyed": [40, 20]}
    entered = run.http.put(f"{api}/tables/{table['id']}/result", json=result, headers=eo)
    assert entered.is_success, entered.text
    warning = {"player": pid, "kind": "warning", "reason": "slow play", "round": 1}
    assert run.http.post(f"{api}/penalties", json=warning, headers=eo).is_success
    award = {"player": pid}
    assert run.http.post(f"{api}/prizes/best_sport/award", json=award, headers=eo).is_success
    renamed = run.http.put(f"{api}/players/{pid}", json={"name": NEW}, headers=eo)
    assert renamed.status_code == 200, renamed.text

    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(run.created["admin_url"])
    rows = page.locator("#actions li")
    expect(rows.first).to_contain_text(f"Renamed {OLD} to {NEW}")
    said = rows.all_inner_texts()
    assert [row for row in said if OLD in row] == [said[0]], said
    for words in (
        f"Dropped {NEW}",
        f"Awarded Best Sport to {NEW}",
        f"Warning for {NEW} (round 1): slow play",
        f"{NEW} wins",
        f"Set {NEW}'s clock on table 1 (round 1) to 30:00",
        f"Added {NEW}",
    ):
        assert any(words in row for row in said), (words, said)
    page.context.close()
