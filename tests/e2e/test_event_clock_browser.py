"""The event's own clock on the EO's pages, in Chromium: an event whose EO set its
player clock (90 minutes at 75 points, where the chart says 60) shows that clock in
the admin page's header, names the round it makes (DC4: both player clocks, 180
minutes) in the start hint and dialog, and bounds the dashboard's clock adjustment by
it, as the server does. Under Classic Turn Timing (DC10) the pages name the round
time instead, and with No Time Limits no expected end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.events import first_seat_goes_first, started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
SCREEN = {"width": 1366, "height": 768}
MIN = 60_000


def _drafted(live_server: str, event: dict[str, Any]) -> tuple[httpx.Client, dict[str, Any]]:
    """An event created with two players and its round 1 paired, not started."""
    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json=event).json()
    eo = {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        assert http.post(f"/api/events/{created['id']}/players", json={"name": name}, headers=eo)
    assert http.post(f"/api/events/{created['id']}/rounds", json={}, headers=eo).is_success
    return http, created


def _admin_view(http: httpx.Client, created: dict[str, Any]) -> dict[str, Any]:
    eo = {"X-EO-Token": created["admin_token"]}
    view: dict[str, Any] = http.get(f"/api/events/{created['id']}/admin", headers=eo).json()
    return view


def test_the_admin_page_names_the_events_own_clock_and_its_round__DC4(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    http, created = _drafted(
        live_server, {"name": "Long Clocks", "points": 75, "clock_minutes": 90}
    )
    event = _admin_view(http, created)["event"]
    assert (event["timing"], event["player_clock_minutes"], event["round_minutes"]) == (
        "clock",
        90,
        180,
    )

    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    page.goto(created["admin_url"])
    meta = page.locator("#event-meta")
    expect(meta).to_contain_text("75 pts · 90 min per player")
    expect(meta).not_to_contain_text("60 min")
    hint = page.locator("#start-hint")
    expect(hint).to_contain_text(
        "The round ends 180 minutes (both player clocks, 90 min each) after the last "
        "table begins deployment."
    )
    expect(hint).not_to_contain_text("2:00:00")
    page.screenshot(path=str(ARTIFACTS / "eo-event-clock-header.png"))

    page.locator("#start-round").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text(
        "The round ends 180 minutes (both player clocks, 90 min each) after the last "
        "table begins deployment: about"
    )
    expect(dialog).not_to_contain_text("120 minutes")
    page.screenshot(path=str(ARTIFACTS / "eo-event-clock-start-dialog.png"))
    dialog.locator("#confirm-yes").click()
    expect(page.locator("#end-round")).to_be_visible()

    # The round the pages named is the round the server keeps: once the table begins
    # deployment, its end is 180 minutes on.
    eo = {"X-EO-Token": created["admin_token"]}
    (table,) = http.get(f"/api/events/{created['id']}/tables", headers=eo).json()
    assert table["remaining_ms"] == [90 * MIN, 90 * MIN]
    first_seat_goes_first(live_server, table)
    expect(page.locator("#round-times")).to_contain_text("expected end")
    current = _admin_view(http, created)["rounds"][-1]
    assert 180 * MIN <= current["expected_end_ms"] - current["started_ms"] < 181 * MIN
    context.close()


def test_the_dashboard_adjusts_a_clock_up_to_the_events_own_clock__DC4_DC5(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(live_server, {"name": "Long Adjust", "points": 75, "clock_minutes": 90})
    (table,) = event.tables
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    page.goto(event.created["dashboard_url"])
    card = page.locator(f'[data-table-id="{table["id"]}"]')
    card.locator(".adjust-btn").click()
    expect(card.locator(".adj-hint")).to_have_text("0:00 to 90:00 (the player clock).")

    card.locator(".adj-time").fill("91:00")  # past the event's clock: refused here
    card.locator(".adjust-form button[type=submit]").click()
    expect(card.locator(".card-error")).to_contain_text("from 0:00 to 90:00")
    expect(page.locator("#confirm-dialog")).to_have_count(0)

    card.locator(".adj-side").select_option("p1")
    card.locator(".adj-time").fill("75:00")  # over the chart's 60, within the event's 90
    card.locator(".adjust-form button[type=submit]").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text(f"Set {table['names'][0]}'s clock to 75:00?")
    expect(dialog).to_contain_text("has 90:00 left now")
    dialog.locator("#confirm-yes").click()
    expect(card.locator(".clock-p1")).to_have_text("75:00")
    expect(card.locator(".card-error")).to_be_hidden()
    eid = event.created["id"]
    (after,) = event.http.get(f"/api/events/{eid}/tables", headers=event.eo).json()
    assert after["remaining_ms"] == [75 * MIN, 90 * MIN]  # the server took it
    context.close()


@pytest.mark.parametrize(
    ("variant", "head", "round_words"),
    [
        (
            "classic_turn_timing",
            "100 min round timer",
            "The round ends 100 minutes (the round time under Classic Turn Timing) after "
            "the last table begins deployment",
        ),
        (
            "no_time_limits",
            "No Time Limits",
            "No Time Limits: the round has no expected end; each game is played to its finish.",
        ),
    ],
)
def test_a_round_timer_or_no_time_limit_is_named_not_the_player_clocks__DC10(
    browser: Any, live_server: str, variant: str, head: str, round_words: str
) -> None:
    from playwright.sync_api import expect

    http, created = _drafted(
        live_server, {"name": "Classic " + variant, "points": 75, "variants": [variant]}
    )
    event = _admin_view(http, created)["event"]
    assert event["player_clock_minutes"] is None  # no chess clock at these tables

    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    page.goto(created["admin_url"])
    meta = page.locator("#event-meta")
    expect(meta).to_contain_text(head)
    expect(meta).not_to_contain_text("per player")
    hint = page.locator("#start-hint")
    expect(hint).to_contain_text(round_words)
    expect(hint).not_to_contain_text("player clocks")
    page.locator("#start-round").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text(round_words)
    expect(dialog).not_to_contain_text("both player clocks")
    expect(dialog).not_to_contain_text("120 minutes")
    page.screenshot(path=str(ARTIFACTS / f"eo-event-clock-{variant}.png"))
    dialog.locator("#confirm-no").click()
    context.close()
