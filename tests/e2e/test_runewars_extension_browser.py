"""The regulations' "Lost and Damaged Components" in Chromium (DC11): on the organiser's
page (1366×768) a table of the running round has "More time"; it asks first, with the
minutes and the reason, then the table's row says how many more minutes, until when and
why; that table's phone (390×844) and its dashboard card say so too, the phone's timer
counting to the later end; the other table's phone says nothing of it."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser


def test_the_organiser_gives_one_table_more_time__DC11(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    http = httpx.Client(base_url=live_server)
    created = http.post(
        "/api/events", json={"name": "Ext Night", "format": "runewars2017", "fixed_rounds": 2}
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    base = f"/api/events/{eid}/tournament"
    for name in ("Ann", "Bob", "Cal", "Dee"):
        assert http.post(f"{base}/players", json={"name": name, "army_value": 190}, headers=eo)
    assert http.post(f"{base}/rounds", headers=eo).status_code == 201
    assert http.post(f"{base}/rounds/current/start", headers=eo).is_success
    tables = {t["table_no"]: t for t in http.get(f"/api/events/{eid}/tables", headers=eo).json()}

    errors: list[str] = []
    admin = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    admin.on("pageerror", lambda e: errors.append(str(e)))
    admin.goto(created["admin_url"])
    row = admin.locator('#rounds .tournament-round:first-child tr[data-table="1"]')
    expect(row.locator(".extend-btn")).to_be_visible()
    row.locator(".extend-btn").click()
    dialog = admin.locator("#confirm-dialog")
    expect(dialog).to_contain_text("More time for table 1?")
    expect(dialog).to_contain_text("every other table keeps the round's time")
    dialog.locator("#extend-minutes").fill("10")
    dialog.locator("#extend-reason").fill("Ann looks for her range ruler")
    dialog.locator("#confirm-yes").click()
    expect(dialog).to_have_count(0)
    expect(row).to_contain_text(
        re.compile(r"10 more min, ends \d\d?:\d\d.*: Ann looks for her range ruler")
    )
    other = admin.locator('#rounds .tournament-round:first-child tr[data-table="2"]')
    expect(other).not_to_contain_text("more min")

    phones = []
    for n in (1, 2):
        page = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True
        ).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(tables[n]["links"]["p1"]["url"])
        phones.append(page)
    expect(phones[0].locator("#rw-extension")).to_have_text(
        "The organiser gave this table 10 more minutes: Ann looks for her range ruler"
    )
    expect(phones[0].locator("#rw-timer")).to_have_text(re.compile(r"^1:(39|40):"))
    expect(phones[1].locator("#rw-timer")).to_have_text(re.compile(r"^1:(29|30):"))
    expect(phones[1].locator("#rw-extension")).to_be_hidden()

    dash = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    dash.on("pageerror", lambda e: errors.append(str(e)))
    dash.goto(created["dashboard_url"])
    card = dash.locator(f'[data-table-id="{tables[1]["id"]}"]')
    expect(card.locator(".round-timer-extension")).to_have_text(
        "+10 min: Ann looks for her range ruler"
    )
    expect(
        dash.locator(f'[data-table-id="{tables[2]["id"]}"] .round-timer-extension')
    ).to_be_hidden()
    assert errors == []
