"""Two phones in Chromium lose the network: taps are queued, kept over a reload, merged."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.offline import serve_saved_copy
from tests.e2e.servertime import MovableTime
from tests.e2e.shown_time import tapped, wait_until_counted_on

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}
RUNNING = re.compile(r"\brunning\b")
BACK_ONLINE_MS = 15_000  # the reconnect backoff is 10 s at most
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)
STORED_QUEUES = (
    "() => Object.keys(localStorage).filter((k) => k.startsWith('deathclock.offline.')).length"
)


def _seat_pages(
    browser: Any, live_server: str, clocks: bool = False
) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """Both seats' pages of a new table (`clocks`: with clocks a test can move ahead)."""
    links = httpx.post(
        f"{live_server}/api/tables",
        json={"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"},
    ).json()
    contexts, pages = [], []
    for seat in ("p1", "p2"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        if clocks:
            context.clock.install()
        page = context.new_page()
        page.goto(links[seat]["url"])
        contexts.append(context)
        pages.append(page)
    return contexts, pages, links


def _what_each_side_had(live_server: str, links: dict[str, Any], pages: tuple[Any, ...]) -> str:
    """When phones did not converge: what each page shows and keeps, and the table's log
    as the server wrote it (its times, who sent what), to say which side went astray."""
    lines = []
    for name, page in zip(("Ann", "Bob"), pages, strict=True):
        shown = {
            key: page.locator(key).all_inner_texts()
            for key in ("#phase", "#offline", "#merge-refused", "#toast")
        }
        queues = page.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.startsWith('deathclock.offline.'))"
            ".map((k) => localStorage.getItem(k))"
        )
        lines.append(f"{name}'s page: {shown}; queued: {queues}")
    token = links["p1"]["url"].rpartition("#k=")[2]
    log = httpx.get(f"{live_server}/api/tables/{links['id']}/log", headers={"X-Table-Token": token})
    lines.append(f"the table's log: {log.text}")
    return "\n".join(lines)


def test_offline_tap_is_queued_kept_over_a_reload_and_merged(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    (c1, c2), (p1, p2), links = _seat_pages(browser, live_server)
    try:
        expect(p1.locator("#role")).to_have_text("Ann · first player")
        expect(p2.locator("#role")).to_have_text("Bob · second player")
        p1.locator("#start").click()
        expect(p1.locator("#side-p1")).to_have_class(RUNNING)
        expect(p2.locator("#side-p1")).to_have_class(RUNNING)

        # The venue network goes down for both phones.
        c1.set_offline(True)
        c2.set_offline(True)
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_visible()
            expect(page.locator("#offline")).to_contain_text("Offline")

        # P1 ends deployment: queued, and P1's phone shows P2's clock running at once.
        tap = tapped(p1, p1.locator("#tap"), seconds=60 * 60, text="60:00")
        expect(p1.locator("#offline")).to_have_text("Offline — 1 tap queued")
        expect(p1.locator("#side-p2")).to_have_class(RUNNING)
        expect(p1.locator("#side-p1")).not_to_have_class(RUNNING)
        expect(p1.locator("#phase")).to_have_text("Deployment — Bob")
        # P2's clock runs on from the tap on P1's phone.
        wait_until_counted_on(p1, "#clock-p2", tap)
        # P2's phone cannot know yet.
        expect(p2.locator("#side-p1")).to_have_class(RUNNING)

        # P1 reloads while offline: the queue is kept (localStorage) and shown again.
        serve_saved_copy(c1, live_server, links["id"])
        p1.reload()
        expect(p1.locator("#role")).to_have_text("Ann · first player")
        expect(p1.locator("#offline")).to_have_text("Offline — 1 tap queued")
        expect(p1.locator("#side-p2")).to_have_class(RUNNING)
        expect(p1.locator("#phase")).to_have_text("Deployment — Bob")
        wait_until_counted_on(p1, "#clock-p2", tap)
        assert p1.evaluate(STORED_QUEUES) == 1

        # The network is back: the queue is sent and both phones converge.
        c1.unroute("**/*")
        for context in (c1, c2):
            context.set_offline(False)
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
        expect(p2.locator("#side-p2")).to_have_class(RUNNING, timeout=BACK_ONLINE_MS)
        expect(p2.locator("#side-p1")).not_to_have_class(RUNNING)
        for page in (p1, p2):
            expect(page.locator("#phase")).to_have_text("Deployment — Bob")
            expect(page.locator("#side-p2")).to_have_class(RUNNING)
        p1.wait_for_function(f"({STORED_QUEUES})() === 0")
        expect(p1.locator("#merge-refused")).to_have_count(0)
        assert [e["c"] for e in _log(live_server, links)] == ["start", "merge"]

        # Online again, play goes on as usual: P2 ends deployment.
        p2.locator("#tap").click()
        for page in (p1, p2):
            expect(page.locator("#phase")).to_have_text("Advance deployment — Ann")
            expect(page.locator("#side-p1")).to_have_class(RUNNING)

        # The table log tells the merge in words, with the turn each command ended.
        log = c2.new_page()
        log.goto(f"{live_server}/t/{links['id']}/log#k={links['watch'].split('#k=', 1)[1]}")
        rows = log.locator("#log-body tr")
        expect(rows).to_have_count(4)
        expect(rows.nth(1)).to_contain_text("Ann's phone back online: 1 offline command merged")
        expect(rows.nth(2)).to_contain_text("offline tap")
        expect(rows.nth(2)).to_contain_text("in Ann's deployment")
        expect(rows.nth(3)).to_contain_text("Tap: end of Bob's deployment")
        assert "{" not in log.locator("#log-body").inner_text()  # no raw JSON
        log.screenshot(path=str(ARTIFACTS / "log-after-merge.png"), full_page=True)
    finally:
        c1.close()
        c2.close()


def test_both_phones_tap_offline_and_converge_on_the_merged_clock(
    browser: Any, live_server: str, server_time: MovableTime
) -> None:
    from playwright.sync_api import expect

    (c1, c2), (p1, p2), links = _seat_pages(browser, live_server, clocks=True)
    try:
        p1.locator("#start").click()
        expect(p2.locator("#side-p1")).to_have_class(RUNNING)
        c1.set_offline(True)
        c2.set_offline(True)
        # Both phones know they are offline before either taps: a tap sent on a socket the
        # phone still took for open goes out once the network is back, as an ordinary tap
        # at that moment (this test is of the queued taps' merge).
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_visible()

        p1.locator("#tap").click()
        expect(p1.locator("#side-p2")).to_have_class(RUNNING)
        # Two seconds pass, for the server and both phones alike: each phone stamps its
        # tap with its own estimate of the server's time, and P1's came first.
        server_time.ahead_ms += 2_000
        for page in (p1, p2):
            page.clock.fast_forward(2_000)
        # P2's phone did not see P1's tap; P2 ends deployment all the same.
        expect(p2.locator("#tap-hint")).to_contain_text("Offline")
        p2.locator("#tap").click()
        expect(p2.locator("#offline")).to_have_text("Offline — 1 tap queued")
        expect(p2.locator("#phase")).to_have_text("Advance deployment — Ann")
        expect(p2.locator("#side-p1")).to_have_class(RUNNING)

        for context in (c1, c2):
            context.set_offline(False)
        try:
            for page in (p1, p2):  # each phone back, in whichever order and time it takes
                expect(page.locator("#offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
            for page in (p1, p2):  # then both merged, whichever came first
                expect(page.locator("#phase")).to_have_text(
                    "Advance deployment — Ann", timeout=BACK_ONLINE_MS
                )
                expect(page.locator("#side-p1")).to_have_class(RUNNING)
                expect(page.locator("#merge-refused")).to_have_count(0)
        except AssertionError as failed:
            what = _what_each_side_had(live_server, links, (p1, p2))
            raise AssertionError(f"{failed}\n{what}") from failed
        expect(p1.locator("#clock-p2")).to_have_text(p2.locator("#clock-p2").inner_text())
    finally:
        c1.close()
        c2.close()


def test_refused_merge_shows_a_banner_until_the_state_changes(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    (c1, c2), (p1, p2), _ = _seat_pages(browser, live_server)
    try:
        p1.locator("#start").click()
        expect(p2.locator("#side-p1")).to_have_class(RUNNING)
        c1.set_offline(True)
        c2.set_offline(True)
        # Both players concede on their phones: only the first can stand.
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_visible()
            page.locator("#concede").click()
            page.locator("#confirm-yes").click()
            # P1's start may still wait for its ack (a sender hears of its own tap once it
            # is durable): then it is queued too, and merged once (a repeat by its seq).
            queued = re.compile(r"^Offline — (1 tap, )?1 command queued$")
            if page is p2:
                queued = re.compile(r"^Offline — 1 command queued$")
            expect(page.locator("#offline")).to_have_text(queued)
            expect(page.locator("#toast")).to_contain_text("will be sent when back online")

        c1.set_offline(False)
        expect(p1.locator("#offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
        expect(p1.locator("#result")).to_contain_text("Bob wins", timeout=BACK_ONLINE_MS)
        c2.set_offline(False)
        banner = p2.locator("#merge-refused")
        expect(banner).to_be_visible(timeout=BACK_ONLINE_MS)
        expect(banner).to_contain_text("EO decides")
        expect(p2.locator("#offline")).to_be_hidden()
        expect(p2.locator("#result")).to_contain_text("Bob wins")
        p2.wait_for_function(f"({STORED_QUEUES})() === 0")

        # The next change of the game ends the banner.
        p2.locator("#report-apd").fill("20")
        p2.locator("#report-submit").click()
        expect(banner).to_be_hidden()
        expect(p1.locator("#merge-refused")).to_have_count(0)
    finally:
        c1.close()
        c2.close()


def _log(live_server: str, links: dict[str, Any]) -> list[dict[str, Any]]:
    watch = links["watch"].split("#k=", 1)[1]
    response = httpx.get(
        f"{live_server}/api/tables/{links['id']}/log", headers={"X-Table-Token": watch}
    )
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


def test_a_reload_while_offline_shows_the_table_from_the_service_worker(
    browser: Any, live_server: str
) -> None:
    """No saved copy this time: the service worker keeps the page and its modules."""
    from playwright.sync_api import expect

    links = httpx.post(
        f"{live_server}/api/tables",
        json={"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"},
    ).json()
    context = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        page = context.new_page()
        page.goto(links["p1"]["url"])
        expect(page.locator("#role")).to_have_text("Ann · first player")
        page.locator("#start").click()
        expect(page.locator("#side-p1")).to_have_class(RUNNING)
        # The worker is active and has kept this table's page.
        page.wait_for_function(
            "navigator.serviceWorker.ready.then(() => caches.keys())"
            ".then((names) => Promise.all(names.map((n) => caches.open(n))))"
            f".then((all) => Promise.all(all.map((c) => c.match('/t/{links['id']}'))))"
            ".then((hits) => hits.some(Boolean))",
            timeout=30_000,
        )

        context.set_offline(True)
        expect(page.locator("#offline")).to_be_visible()
        page.locator("#tap").click()
        expect(page.locator("#offline")).to_have_text("Offline — 1 tap queued")
        page.reload()
        expect(page.locator("#role")).to_have_text("Ann · first player")
        expect(page.locator("#offline")).to_have_text("Offline — 1 tap queued")
        expect(page.locator("#phase")).to_have_text("Deployment — Bob")
        expect(page.locator("#side-p2")).to_have_class(RUNNING)

        context.set_offline(False)
        expect(page.locator("#offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
        expect(page.locator("#phase")).to_have_text("Deployment — Bob")
    finally:
        context.close()
