"""The Content-Security-Policy in Chromium: every page works under it (its scripts, styles,
QR images and sockets), and a script injected inline does not run."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser


def _watch(page: Any) -> list[str]:
    """Console messages about the policy, and uncaught page errors."""
    problems: list[str] = []
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text
            else None
        ),
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    return problems


def test_csp_lets_every_page_work_and_blocks_inline_script(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    quick = httpx.post(f"{live_server}/api/tables", json={"clock_minutes": 30}).json()
    created = httpx.post(f"{live_server}/api/events", json={"name": "CSP Open"}).json()
    eid, token = created["id"], created["admin_token"]
    eo = {"X-EO-Token": token}
    players = [
        httpx.post(f"{live_server}/api/events/{eid}/players", json={"name": n}, headers=eo).json()
        for n in ("Ann", "Bob")
    ]
    assert httpx.post(f"{live_server}/api/events/{eid}/rounds", json={}, headers=eo).is_success

    context = browser.new_context()
    page = context.new_page()
    problems = _watch(page)

    # The quick-game form posts, and the links page shows both QR codes (data: images).
    response = page.goto(f"{live_server}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator("#quick-form button[type=submit]").click()
    expect(page.locator("#qr-p1")).to_be_visible()
    assert page.evaluate("document.getElementById('qr-p1').naturalWidth") > 0
    # Its script runs: a copy button answers (copied, or how to copy by hand).
    page.locator("[data-copy]").first.click()
    expect(page.locator("#toast")).to_be_visible()

    # The phone's table page: its socket connects under connect-src 'self'.
    page.goto(quick["p1"]["url"])
    expect(page.locator("#role")).to_contain_text("first player")
    page.goto(quick["eo"].replace("#", "/log#"))
    expect(page.locator("#log-status")).to_contain_text("entries")  # its fetch

    for path in (
        "/events/new",
        f"/e/{eid}",
        f"/e/{eid}/admin#k={token}",
        f"/e/{eid}/cards#k={token}",
        f"/e/{eid}/players/{players[0]['id']}/sheet",
    ):
        page.goto(f"{live_server}{path}")
        page.wait_for_load_state("networkidle")
    page.goto(f"{live_server}/e/{eid}/dashboard#k={token}")
    expect(page.locator("#round-label")).not_to_have_text("Connecting…")  # its socket
    assert problems == []

    # An injected inline script (the XSS a policy is for) is refused and does not run.
    page.evaluate(
        """() => {
            const s = document.createElement("script");
            s.textContent = "window.__injected = true";
            document.body.append(s);
        }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.__injected === undefined")
    assert any("Content Security Policy" in p for p in problems)
    context.close()
