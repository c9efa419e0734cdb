"""An Iron Gauntlet 2014 game that ends level is a draw on every page a person reads, as
on the phones, the dashboard and the CSVs: the public and the admin pairings, and the
player's record sheet, whose total counts it (W–L–D) (DC8, ST1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.events import started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}


def test_a_draw_is_a_draw_on_the_pairings_and_the_record_sheet__DC8_ST1_IG2014(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server,
        {"name": "Gauntlet Draws", "format": "ig2014", "points": 50},
        ("Ann Archer", "Bob Boulder"),
        round_body={"scenario": "outflank"},
    )
    (table,) = event.tables
    eid, token = event.created["id"], event.created["admin_token"]
    level = {"winner": None, "control_points": [2, 2], "army_points_destroyed": [20, 20]}
    saved = event.http.put(
        f"/api/events/{eid}/tables/{table['id']}/result", json=level, headers=event.eo
    )
    assert saved.status_code == 200, saved.text
    page = browser.new_context(viewport=LAPTOP).new_page()

    page.goto(f"{live_server}/e/{eid}")
    expect(page.locator("#pairings-body")).to_contain_text("Draw · 2–2 CP · 20–20 APD")
    expect(page.locator("#pairings-body")).not_to_contain_text("Tie")

    page.goto(f"{live_server}/e/{eid}/admin#k={token}")
    expect(page.locator("#pairings-body")).to_contain_text("Draw · 2–2 CP · 20–20 APD")
    expect(page.locator("#pairings-body")).not_to_contain_text("Tie")

    players = event.http.get(f"/api/events/{eid}").json()["players"]
    ann = next(p for p in players if p["name"] == "Ann Archer")
    page.goto(f"{live_server}/e/{eid}/players/{ann['id']}/sheet")
    expect(page.locator("#sheet-foot")).to_contain_text("0–0–1 (W–L–D)")
    page.screenshot(path=str(ARTIFACTS / "record-sheet-draw.png"))


def test_a_draw_is_a_draw_in_the_result_editor_and_the_table_log__DC8_IG2014(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(
        live_server,
        {"name": "Gauntlet Words", "format": "ig2014", "points": 50},
        ("Ann Archer", "Bob Boulder"),
        round_body={"scenario": "outflank"},
    )
    (table,) = event.tables
    eid, token, tid = event.created["id"], event.created["admin_token"], table["id"]
    level = {"winner": None, "control_points": [2, 2], "army_points_destroyed": [20, 20]}
    saved = event.http.put(f"/api/events/{eid}/tables/{tid}/result", json=level, headers=event.eo)
    assert saved.status_code == 200, saved.text
    page = browser.new_context(viewport=LAPTOP).new_page()

    page.goto(f"{live_server}/e/{eid}/admin#k={token}")
    page.locator(f"#result-btn-{tid}").click()
    expect(page.locator(f"label[for='res-winner-tie-{tid}']")).to_have_text("Draw")

    eo = table["links"]["eo"]
    eo_link = eo["url"] if isinstance(eo, dict) else eo
    page.goto(eo_link.replace("#", "/log#"))
    expect(page.locator("main")).to_contain_text("Result entered by the EO")
    expect(page.locator("main")).to_contain_text("draw; ")
    assert "tie" not in page.locator("main").inner_text().lower()
