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

from app.main import create_app
from app.settings import Settings
from app.tables.timesource import SystemTime

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
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
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


def _tap(page: Any, running_next: str) -> None:
    from playwright.sync_api import expect

    page.locator("#tap").click()
    expect(page.locator(f"#side-{running_next}")).to_have_class(RUNNING, timeout=2000)


def _confirm(page: Any) -> None:
    page.locator("#confirm-yes").click()


def test_classic_turn_timing_with_an_extension_and_dice_down_on_two_phones__DC10(
    browser: Any, timed_server: tuple[str, JumpTime]
) -> None:
    from playwright.sync_api import expect

    base, clock = timed_server
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
    pages = []
    for role in ("p1", "p2", "eo"):
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(links[role] if isinstance(links[role], str) else links[role]["url"])
        pages.append(page)
    p1, p2, eo = pages

    p1.locator("#start").click()
    for page in (p1, p2):  # the round clock runs from the start: 100 minutes at 75 points
        expect(page.locator("#round-clock")).to_contain_text(re.compile(r"^(99|100):"))
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 2:  # deployment, advance deployment
        _tap(page, nxt)
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
    p2.locator("#start-extension").click()
    expect(p1.locator("#turn-timer-note")).to_contain_text("turn extension")
    expect(p1.locator("#turn-clock")).to_contain_text(re.compile(r"^(4:5\d|5:00)$"))
    _shot(p1, "classic-extension-running-p1")

    # Round time: the EO calls dice down; the game is over on both phones.
    eo.locator("#dice-down").click()
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
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(created["dashboard_url"])
    expect(page.locator("#round-clock")).to_contain_text(re.compile(r"^1:(39|40):"))
    card = page.locator(f'[data-table-id="{tables[0]["id"]}"]')
    expect(card.locator(".clock-p1")).to_have_text("10:00")  # P1 deploys; the timer waits
    expect(card.locator(".clock-p2")).to_have_text("")
    expect(card).to_contain_text("not started")
    _shot(page, "classic-dashboard")
    # The EO calls dice down at one table from the dashboard.
    page.on("dialog", lambda dialog: dialog.accept())
    card.locator(".dice-btn").click()
    expect(card).to_have_class(re.compile(r"\bover\b"))
    other = page.locator(f'[data-table-id="{tables[1]["id"]}"]')
    expect(other).not_to_have_class(re.compile(r"\bover\b"))
    _shot(page, "classic-dashboard-dice-down")
