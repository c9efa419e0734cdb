"""Classic Turn Timing (DC10) on two phones in Chromium: the turn timer started by the
active player, a turn extension the opponent starts once the turn time is up, and the
EO's dice down. The server's game clock is moved forward by the test, never slept."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from app.cli import socket_options
from app.main import create_app
from app.settings import Settings
from app.tables.timesource import SystemTime
from tests.e2e.events import first_seat_goes_first
from tests.e2e.offline import serve_saved_copy
from tests.e2e.shown_time import (
    SLACK_S,
    assert_counted_down_since,
    shown,
    tapped,
    wait_until_counted_on,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RUNNING = re.compile(r"\brunning\b")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
MINUTE = 60_000


class JumpTime(SystemTime):
    """The wall clock, moved forward at once when the test says so."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def now_ms(self) -> int:
        return super().now_ms() + self.offset_ms

    def jump(self, ms: int) -> None:
        self.offset_ms += ms


@pytest.fixture(scope="module")
def timed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, JumpTime]]:
    db = tmp_path_factory.mktemp("e2e-classic") / "deathclock.db"
    clock = JumpTime()
    app = create_app(Settings(database_url=f"sqlite:///{db}"), time=clock)
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", lifespan="on", **socket_options()
        )
    )
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    assert server.started, "server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", clock
    server.should_exit = True
    thread.join(timeout=10)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _classic_table(browser: Any, base: str) -> tuple[dict[str, Any], list[Any], list[Any]]:
    """A Classic Turn Timing table (75 points, King of the Hill) opened on Ann's, Bob's
    and the EO's phones: its links, the browser contexts and the pages."""
    links = httpx.post(
        f"{base}/api/tables",
        json={
            "format": "sr2019",
            "points": 75,
            "scenario": "king-of-the-hill",
            "p1_name": "Ann",
            "p2_name": "Bob",
            "variants": ["classic_turn_timing"],
        },
    ).json()
    contexts, pages = [], []
    for role in ("p1", "p2", "eo"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(links[role] if isinstance(links[role], str) else links[role]["url"])
        contexts.append(context)
        pages.append(page)
    return links, contexts, pages


def _tap(page: Any, running_next: str, flag: str = "running") -> None:
    from playwright.sync_api import expect

    page.locator("#tap").click()
    expect(page.locator(f"#side-{running_next}")).to_have_class(RUNNING)
    expect(page.locator(f"#flags-{running_next}")).to_have_text(flag)


def _confirm(page: Any) -> None:
    page.locator("#confirm-yes").click()


def test_classic_turn_timing_with_an_extension_and_dice_down_on_two_phones__DC10(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    from playwright.sync_api import expect

    base, clock = timed_server
    _, _, pages = _classic_table(browser, base)
    p1, p2, eo = pages

    p1.locator("#start").click()
    for page in (p1, p2):  # the round clock runs from the start: 100 minutes at 75 points
        expect(page.locator("#round-clock")).to_contain_text(re.compile(r"^(99|100):"))
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 2:  # deployment, advance deployment
        _tap(page, nxt, "active turn")  # DC10: no chess clock runs
    expect(p1.locator("#phase")).to_contain_text("Turn 1")

    # The turn time begins when the active player starts it.
    expect(p1.locator("#turn-clock")).to_have_text("10:00")
    expect(p2.locator("#timer-start")).to_be_hidden()
    p1.locator("#timer-start").click()
    expect(p2.locator("#turn-clock")).to_have_class(RUNNING)
    expect(p1.locator("#timer-stop")).to_be_visible()
    _shot(p1, "classic-turn-timer-p1")

    # Ann takes her one extension; Bob starts it once her turn time is up.
    p1.locator("#take-extension").click()
    _confirm(p1)
    expect(p2.locator("#turn-timer-note")).to_contain_text("takes a turn extension")
    expect(p1.locator("#take-extension")).to_be_hidden()
    clock.jump(10 * MINUTE + 1_000)
    for page in (p1, p2):
        page.reload()
    expect(p1.locator("#turn-clock")).to_have_text("0:00.0")
    expect(p2.locator("#start-extension")).to_be_visible()
    expect(p1.locator("#start-extension")).to_be_hidden()
    expect(p1.locator("#timer-start")).to_be_hidden()  # the turn time is up
    _shot(p2, "classic-extension-due-p2")
    started = tapped(p2, p2.locator("#start-extension"), seconds=5 * 60, text="5:00")
    expect(p1.locator("#turn-timer-note")).to_contain_text("turn extension")
    wait_until_counted_on(p1, "#turn-clock", started)  # five minutes, running from the start
    _shot(p1, "classic-extension-running-p1")

    # Round time: the EO calls dice down, asked first by the players' names (a quick
    # game has no table number); the game is over on both phones.
    eo.locator("#dice-down").click()
    expect(eo.locator("#confirm-text")).to_have_text(
        "Dice down? Ann v Bob: the game ends now, with one last scenario scoring."
        " It cannot be undone."
    )
    _shot(eo, "classic-dice-down-asks-eo")
    _confirm(eo)
    for page in (p1, p2):
        expect(page.locator("#app")).to_have_class(re.compile(r"\bover\b"))
        expect(page.locator("#timer-start")).to_be_hidden()
        expect(page.locator("#turn-clock")).to_have_text("Dice down")
    _shot(p1, "classic-dice-down-p1")
    _shot(eo, "classic-dice-down-eo")


def test_no_assassination_victory_plays_on_until_no_models_are_left__no_assassination(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    from playwright.sync_api import expect

    base, _ = timed_server
    links = httpx.post(
        f"{base}/api/tables",
        json={"format": "sr2019", "scenario": "king-of-the-hill", "variants": ["no_assassination"]},
    ).json()
    p1, p2 = (browser.new_context(viewport=PHONE, has_touch=True).new_page() for _ in range(2))
    p1.goto(links["p1"]["url"])
    p2.goto(links["p2"]["url"])
    p1.locator("#start").click()
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 2:
        _tap(page, nxt)
    expect(p1.locator("#turn-timer")).to_have_count(0)  # chess clocks, as ever
    expect(p1.locator("#scenario")).to_contain_text("No Assassination Victory")
    p1.locator("#caster-destroyed").click()
    _confirm(p1)
    expect(p2.locator("#phase")).to_contain_text("Turn 1")  # the game goes on
    p1.locator("#no-models").click()
    _confirm(p1)
    for page in (p1, p2):
        expect(page.locator("#app")).to_have_class(re.compile(r"\bover\b"))
    _shot(p2, "no-assassination-no-models-p2")


def test_dashboard_shows_the_round_clock_and_each_tables_turn_timer__DC10(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    from playwright.sync_api import expect

    base, _ = timed_server
    http = httpx.Client(base_url=base)
    created = http.post(
        "/api/events",
        json={"name": "Classic night", "points": 75, "variants": ["classic_turn_timing"]},
    ).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds", json={}, headers=eo).is_success
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    tables = sorted(
        http.get(f"/api/events/{eid}/tables", headers=eo).json(), key=lambda t: t["table_no"]
    )
    for table in tables:  # the round clock starts once every table has begun deployment
        first_seat_goes_first(base, table)
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(created["dashboard_url"])
    expect(page.locator("#round-clock")).to_contain_text(re.compile(r"^1:(39|40):"))
    card = page.locator(f'[data-table-id="{tables[0]["id"]}"]')
    expect(card.locator(".clock-p1")).to_have_text("10:00")  # P1 deploys; the timer waits
    expect(card.locator(".clock-p2")).to_have_text("")
    expect(card).to_contain_text("not started")
    _shot(page, "classic-dashboard")
    # The EO calls dice down at one table from the dashboard: it cannot be undone, so the
    # page asks first, in its own dialog naming the players; Cancel changes nothing.
    dialog = page.locator("#confirm-dialog")
    card.locator(".dice-btn").click()
    expect(dialog).to_contain_text(f"Dice down at table {tables[0]['table_no']}?")
    expect(dialog).to_contain_text(" v ".join(tables[0]["names"]))
    _shot(page, "classic-dashboard-dice-down-asks")
    dialog.locator("#confirm-no").click()
    expect(dialog).to_have_count(0)
    expect(card).not_to_have_class(re.compile(r"\bover\b"))
    assert "dice_down" not in {e.get("c") for e in _log(base, tables[0]["links"])}
    card.locator(".dice-btn").click()
    dialog.locator("#confirm-yes").click()
    expect(card).to_have_class(re.compile(r"\bover\b"))
    other = page.locator(f'[data-table-id="{tables[1]["id"]}"]')
    expect(other).not_to_have_class(re.compile(r"\bover\b"))
    _shot(page, "classic-dashboard-dice-down")


def _log(base: str, links: dict[str, Any]) -> list[dict[str, Any]]:
    watch = links["watch"].split("#k=", 1)[1]
    response = httpx.get(f"{base}/api/tables/{links['id']}/log", headers={"X-Table-Token": watch})
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


def _turn_one_timer_running(
    browser: Any, base: str
) -> tuple[dict[str, Any], list[Any], tuple[Any, Any, Any]]:
    """A Classic Turn Timing table (75 points) on Ann's, Bob's and the EO's screens, in
    Ann's turn 1 with her turn timer running: the links, the contexts and the pages."""
    from playwright.sync_api import expect

    links, contexts, pages = _classic_table(browser, base)
    p1, p2, eo = pages
    p1.locator("#start").click()
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 2:  # deployment, advance deployment
        _tap(page, nxt, "active turn")
    p1.locator("#timer-start").click()
    for page in pages:
        expect(page.locator("#turn-clock")).to_have_class(RUNNING)
    return links, contexts, (p1, p2, eo)


def test_offline_phone_keeps_the_turn_timer_and_queues_its_stop__DC10(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    """The hall Wi-Fi drops: the phones go on showing the round clock and the running
    turn timer as a physical timer would; the active player's stop is shown at once,
    marked as not yet confirmed, and merged on the way back."""
    from playwright.sync_api import expect

    base, _ = timed_server
    links, contexts, (p1, p2, eo) = _turn_one_timer_running(browser, base)
    c1, c2, _ = contexts
    try:
        # What each phone's turn timer showed online, at the page's own time: the offline
        # phones must count on from it, second for second of that time.
        online = {page: shown(page, "#turn-clock") for page in (p1, p2)}
        # The hall Wi-Fi goes down for both players' phones.
        for context in (c1, c2):
            context.set_offline(True)
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_visible()
            # The turn timer and the round clock count on from the last server state.
            expect(page.locator("#turn-clock")).to_have_class(RUNNING)
            wait_until_counted_on(page, "#turn-clock", online[page])
        round_then = p1.locator("#round-clock").inner_text()
        expect(p1.locator("#round-clock")).not_to_have_text(round_then)

        # Ann's phone reloads with nothing queued: its last server view is kept.
        serve_saved_copy(c1, base, links["id"])
        p1.reload()
        expect(p1.locator("#offline")).to_have_text("Offline — reconnecting")
        expect(p1.locator("#phase")).to_have_text("Turn 1 — Ann")
        expect(p1.locator("#turn-clock")).to_have_class(RUNNING)
        # The reloaded page counts on from where the timer was, not from a fresh turn.
        wait_until_counted_on(p1, "#turn-clock", online[p1])

        # Ann stops the turn timer while Bob rolls: shown at once, not yet confirmed.
        running = shown(p1, "#turn-clock")
        p1.locator("#timer-stop").click()
        expect(p1.locator("#offline")).to_have_text("Offline — 1 tap queued")
        expect(p1.locator("#turn-clock")).not_to_have_class(RUNNING)
        expect(p1.locator("#timer-start")).to_be_visible()
        expect(p1.locator("#timer-stop")).to_be_hidden()
        expect(p1.locator("#turn-timer")).to_have_class(re.compile(r"\bunconfirmed\b"))
        expect(p1.locator("#turn-timer-note")).to_contain_text("not yet confirmed")
        stopped = shown(p1, "#turn-clock")
        stopped_at = stopped.text
        # It stopped where the running timer had got to by then (by the page's own time).
        elapsed_s = (stopped.at_ms - running.at_ms) / 1000
        assert running.seconds - elapsed_s - SLACK_S <= stopped.seconds <= running.seconds
        expect(p1.locator("#round-clock")).not_to_have_text(
            p1.locator("#round-clock").inner_text()
        )  # the round clock never stops
        expect(p1.locator("#turn-clock")).to_have_text(stopped_at)
        expect(p2.locator("#turn-clock")).to_have_class(RUNNING)  # Bob's phone cannot know
        _shot(p1, "classic-offline-timer-p1")

        # The network is back: the stop is merged and every screen shows the server's timer.
        c1.unroute("**/*")
        for context in (c1, c2):
            context.set_offline(False)
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_hidden(timeout=15_000)
        for page in (p1, p2, eo):
            expect(page.locator("#turn-clock")).not_to_have_class(RUNNING, timeout=15_000)
            expect(page.locator("#merge-refused")).to_have_count(0)
        texts = {page.locator("#turn-clock").inner_text() for page in (p1, p2, eo)}
        assert len(texts) == 1, texts
        expect(p1.locator("#turn-timer")).not_to_have_class(re.compile(r"\bunconfirmed\b"))
        expect(p1.locator("#timer-start")).to_be_visible()
        expect(p2.locator("#timer-start")).to_be_hidden()
        merged = [e for e in _log(base, links) if e["c"] == "merge"]
        offline = [sub["cmd"]["c"] for sub in merged[-1]["entries"] if sub["offline"]]
        assert offline == ["stop_timer"]
    finally:
        for context in contexts:
            context.close()


def test_offline_opponent_starts_their_turn_timer_after_an_unseen_end_of_turn__DC10(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    """Both phones offline: Ann ends her turn on her phone; Bob's phone cannot see it, so
    Bob's start of his turn timer says it. Back online, in either order, the server
    puts them together."""
    from playwright.sync_api import expect

    base, _ = timed_server
    _, contexts, (p1, p2, eo) = _turn_one_timer_running(browser, base)
    c1, c2, _ = contexts
    try:
        for context in (c1, c2):
            context.set_offline(True)
        for page in (p1, p2):
            expect(page.locator("#offline")).to_be_visible()

        p1.locator("#tap").click()  # Ann ends her turn
        expect(p1.locator("#phase")).to_have_text("Turn 1 — Bob")
        expect(p1.locator("#turn-clock")).to_have_text("10:00")
        # Nor can Ann's phone see Bob's taps now: her start would say his turn is over.
        expect(p1.locator("#timer-start")).to_have_text("My turn: start my turn timer")
        start = p2.locator("#timer-start")
        expect(start).to_have_text("My turn: start my turn timer")
        expect(p2.locator("#turn-timer-note")).to_contain_text("not seen here")
        clicked = tapped(p2, start, seconds=600, text="10:00")
        expect(p2.locator("#phase")).to_have_text("Turn 1 — Bob")
        expect(p2.locator("#turn-clock")).to_have_class(RUNNING)
        expect(p2.locator("#turn-timer")).to_have_class(re.compile(r"\bunconfirmed\b"))
        expect(p2.locator("#offline")).to_have_text("Offline — 1 tap queued")

        # Bob's phone is back first: alone, his start waits for Ann's end of turn.
        c2.set_offline(False)
        expect(p2.locator("#offline")).to_be_hidden(timeout=15_000)
        expect(p2.locator("#phase")).to_have_text("Turn 1 — Ann")
        c1.set_offline(False)
        # Every screen, a phone's as the EO's, names the player whose turn it is.
        for page in (p1, p2, eo):
            expect(page.locator("#phase")).to_have_text("Turn 1 — Bob", timeout=15_000)
            expect(page.locator("#turn-clock")).to_have_class(RUNNING)
            # Bob's turn timer runs from his tap on his offline phone, on every screen.
            assert_counted_down_since(page, "#turn-clock", clicked)
            expect(page.locator("#merge-refused")).to_have_count(0)
        expect(p2.locator("#timer-stop")).to_be_visible()
        expect(p1.locator("#timer-stop")).to_be_hidden()
    finally:
        for context in contexts:
            context.close()


def test_offline_extension_refused_on_merge_shows_why_and_the_servers_timer__DC10(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    from playwright.sync_api import expect

    base, _ = timed_server
    _, contexts, (p1, _p2, eo) = _turn_one_timer_running(browser, base)
    try:
        contexts[0].set_offline(True)
        expect(p1.locator("#offline")).to_be_visible()
        p1.locator("#take-extension").click()
        _confirm(p1)
        expect(p1.locator("#turn-timer-note")).to_contain_text("takes a turn extension")
        expect(p1.locator("#turn-timer-note")).to_contain_text("not yet confirmed")
        expect(p1.locator("#take-extension")).to_be_hidden()
        # Meanwhile the EO pauses the table: Ann's extension no longer fits.
        eo.locator("#pause").click()
        expect(eo.locator("#app")).to_have_class(re.compile(r"\bpaused\b"))
        contexts[0].set_offline(False)
        banner = p1.locator("#merge-refused")
        expect(banner).to_be_visible(timeout=15_000)
        expect(banner).to_contain_text("turn extension")
        expect(banner).to_contain_text("paused")
        expect(banner).to_contain_text("the EO decides. The table shows the server's state.")
        expect(p1.locator("#app")).to_have_class(re.compile(r"\bpaused\b"))
        expect(p1.locator("#turn-timer")).not_to_have_class(re.compile(r"\bunconfirmed\b"))
        expect(p1.locator("#turn-clock")).not_to_have_class(RUNNING)  # held by the pause
        expect(p1.locator("#turn-clock")).to_have_text(eo.locator("#turn-clock").inner_text())
        _shot(p1, "classic-offline-refused-p1")
    finally:
        for context in contexts:
            context.close()
