"""Players see what is true: two phones (and the EO) in Chromium at 390×844.

Screenshots of the phone pages go to test-artifacts/players/ (git-ignored)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.e2e.events import started_round
from tests.e2e.servertime import MovableTime, WakingTime

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "players"
LONG_1 = "A" * 60
LONG_2 = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaf"

# Sound and vibration, recorded: a fake AudioContext (each beep's frequency) and
# navigator.vibrate (each pattern).
RECORD_ALERTS = """
window.__beeps = [];
window.__buzz = [];
class FakeAudio {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() {}
  createOscillator() {
    const osc = { type: "", frequency: { value: 0 }, connect: (n) => n, stop() {} };
    osc.start = () => window.__beeps.push(osc.frequency.value);
    return osc;
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n };
  }
}
window.AudioContext = FakeAudio;
const buzz = (p) => { window.__buzz.push(p); return true; };
Object.defineProperty(navigator, "vibrate", { value: buzz });
"""


PAGE_ERRORS: list[str] = []


@pytest.fixture(scope="module")
def server_time() -> MovableTime:
    """The wall clock, moved ahead by a test; the server's timers wake as it passes them."""
    return WakingTime()


@pytest.fixture(autouse=True)
def _no_page_errors() -> Any:
    """Every phone page of these tests runs without an uncaught script error."""
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == []


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _phone(browser: Any, url: str, script: str | None = None, clock: bool = False) -> Any:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    if clock:
        context.clock.install()  # the page's time moves ahead with the server's
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    page.goto(url)
    return page


def _quick(live_server: str, **body: Any) -> dict[str, Any]:
    body.setdefault("clock_minutes", 60)
    body.setdefault("scenario", "bunkers")
    return httpx.post(f"{live_server}/api/tables", json=body).json()  # type: ignore[no-any-return]


def _fits(page: Any) -> None:
    """Nothing sticks out sideways: no horizontal scroll, every visible button on screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll(
                'button, .clock, .name, .cp, .check-row span, .banner, .preview'))
            .filter((b) => b.offsetParent !== null)
            .map((b) => [b.id || b.className, b.getBoundingClientRect().right])
            .filter(([, right]) => right > window.innerWidth + 0.5)"""
    )
    assert outside == [], outside


# A phase of play, as the phones word it: someone's clock runs and that phone may TAP.
PLAYING_PHASE = re.compile(r"^(Pre-deployment|Deployment|Advance deployment|Turn \d+) — .")
CAN_TAP = re.compile(r"\bcan-tap\b")
SENDING = re.compile(r"\bsending\b")
RUNNING = re.compile(r"\brunning\b")


def _agreed(pages: dict[str, Any], left: str | None) -> tuple[str, str]:
    """Wait until both phones show the same phase of play, past `left` (the phase the last
    tap ended), with no tap in flight on either; return that phase and whose clock runs.

    Only Playwright's own waiting: each tap moves the game on by exactly one phase, so once
    both phones have left the phase it ended they both show the game as it now is."""
    from playwright.sync_api import expect

    for page in pages.values():
        expect(page.locator("#phase")).to_have_text(PLAYING_PHASE)
        if left is not None:
            expect(page.locator("#phase")).not_to_have_text(left)
        expect(page.locator("#tap")).not_to_have_class(SENDING)
    now = pages["p1"].locator("#phase").inner_text()
    expect(pages["p2"].locator("#phase")).to_have_text(now)
    side_p1 = pages["p1"].locator("#side-p1").get_attribute("class") or ""
    running = "p1" if RUNNING.search(side_p1) else "p2"
    idle = "p2" if running == "p1" else "p1"
    for page in pages.values():  # both phones agree on whose clock runs
        expect(page.locator(f"#side-{running}")).to_have_class(RUNNING)
        expect(page.locator(f"#side-{idle}")).not_to_have_class(RUNNING)
    return now, running


def _tap_until(p1: Any, p2: Any, phase: str) -> None:
    """Tap the phones in turn (deployment, advance deployment, turns) up to `phase`.

    Before each tap both phones show the same phase and whose clock runs, nothing in
    flight (see `_agreed`); the phase names the player whose clock runs, that phone's tap
    is ready (`can-tap`) and the other's is not: the tap goes to the right phone however
    late either phone hears of the last one, however busy the machine."""
    from playwright.sync_api import expect

    pages = {"p1": p1, "p2": p2}
    left: str | None = None
    for _ in range(12):
        now, running = _agreed(pages, left)
        if phase in now:
            return
        idle = "p2" if running == "p1" else "p1"
        assert now.endswith("— " + p1.locator(f"#name-{running}").inner_text()), now
        expect(pages[idle].locator("#tap")).to_have_attribute("aria-disabled", "true")
        expect(pages[running].locator("#tap")).to_have_class(CAN_TAP)
        pages[running].locator("#tap").click()
        left = now
    raise AssertionError(f"never reached {phase}")


def test_an_event_table_names_itself_and_tells_who_is_at_the_table(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(live_server, {"name": "Spring Steamroller", "points": 75}, ("Ann", "Bob"))
    http, table = event.http, event.tables[0]
    links = table["links"]

    p1 = _phone(browser, links["p1"]["url"])
    expect(p1.locator("#table-label")).to_have_text("Table 1 · Round 1 · Spring Steamroller")
    expect(p1.locator("#matchup")).to_contain_text(" vs ")  # no P1/P2 before the roll decides
    names = p1.locator("#matchup").inner_text()
    assert "Ann" in names and "Bob" in names
    assert table["id"][:8] not in p1.title() and "Spring Steamroller" in p1.title()
    heading = re.search(r"<h1[^>]*>([^<]*)</h1>", http.get(f"/t/{table['id']}/log").text)
    assert heading is not None
    assert heading[1].startswith("Log · Table 1 · Round 1 · Spring Steamroller · ")
    assert " vs " in heading[1] and table["id"][:8] not in heading[1]
    # The opponent's phone is not there yet: said on the opponent's card and in a banner.
    expect(p1.locator("#presence")).to_contain_text("Opponent offline")
    p2 = _phone(browser, links["p2"]["url"])
    expect(p1.locator("#presence")).to_be_hidden()
    expect(p1.locator(".theirs .away")).to_be_hidden()
    _shot(p1, "event-table-p1")

    # A second device opens P2's seat: both of P2's screens say so.
    p2_again = _phone(browser, links["p2"]["url"])
    for page in (p2, p2_again):
        expect(page.locator("#presence")).to_contain_text("another device")
    _shot(p2_again, "second-device-p2")
    p2_again.context.close()
    expect(p2.locator("#presence")).to_be_hidden()

    # P2's phone goes away: P1 sees "opponent offline" until it is back.
    p2.context.close()
    expect(p1.locator("#presence")).to_contain_text("Opponent offline")
    expect(p1.locator(".theirs .away")).to_be_visible()
    _shot(p1, "opponent-offline-p1")
    p2 = _phone(browser, links["p2"]["url"])
    expect(p1.locator("#presence")).to_be_hidden()
    p1.context.close()
    p2.context.close()


def test_prompts_come_at_the_formats_marks_and_the_result_shows_what_decided_it__TS2_TS3_TS7(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    links = _quick(live_server, p1_name=LONG_1, p2_name=LONG_2)
    p1 = _phone(browser, links["p1"]["url"])
    p2 = _phone(browser, links["p2"]["url"])
    p1.locator("#start").click()
    _tap_until(p1, p2, f"Turn 2 — {LONG_1}")
    _fits(p1)
    _shot(p1, "long-names-p1")
    _shot(p2, "long-names-p2")

    # P1's turn 2: the kill box is asked, the scoring is not (it starts after P2's turn 2).
    expect(p1.locator("#tap-hint")).to_have_text("TAP to end your turn — Kill box")
    expect(p1.locator("#prompt")).to_contain_text("Kill box.")
    p1.locator("#tap").click()
    expect(p1.locator("#sheet-killbox")).to_be_visible()
    expect(p1.locator("#sheet-scoring")).to_be_hidden()
    _fits(p1)
    _shot(p1, "kill-box-sheet-p1")
    p1.locator("#end-turn").click()
    # P2's turn 2: kill box and scoring.
    expect(p2.locator("#tap-hint")).to_have_text("TAP to end your turn — Kill box and scoring")
    p2.locator("#tap").click()
    expect(p2.locator("#sheet-scoring")).to_be_visible()
    expect(p2.locator("#sheet-scoring .score-row").first).to_be_visible()
    _fits(p2)
    _shot(p2, "scoring-sheet-p2")
    p2.locator("#end-turn").click()
    expect(p1.locator("#phase")).to_contain_text("Turn 3")

    # Both casters fall: tiebreakers. Equal army points: scenario presence decides.
    p1.locator("#both-casters").click()
    p1.locator("#confirm-yes").click()
    expect(p1.locator("#result")).to_have_text("Game over — tiebreakers decide")
    # APD takes whole numbers only: 12.5 is refused in the players' words, nothing sent.
    p1.locator("#report-apd").fill("12.5")
    p1.locator("#report-submit").click()
    expect(p1.locator("#toast")).to_contain_text("whole number")
    expect(p1.locator("#toast")).to_have_class(re.compile(r"\berror\b"))
    expect(p2.locator("#result-by")).to_contain_text(LONG_1 + "'s report")
    expect(p2.locator("#result-by")).to_contain_text("your report")  # a phone says "your"
    for page in (p1, p2):
        page.locator("#report-apd").fill("30")
        page.locator("#report-submit").click()
    expect(p1.locator("#prompt")).to_contain_text("Still tied")
    p1.locator("#report-presence").fill("4")
    p1.locator("#report-submit").click()
    p2.locator("#report-presence").fill("2")
    p2.locator("#report-submit").click()
    for page in (p1, p2):
        expect(page.locator("#result")).to_have_text(LONG_1 + " wins by tiebreaker")
        expect(page.locator("#decided-by li.decisive")).to_contain_text("Scenario presence")
        expect(page.locator("#decided-by li.decisive")).to_contain_text("4 – ")
        expect(page.locator("#decided-by")).to_contain_text("Army points lost")
        page.locator("#confirm-result").click()
    for page in (p1, p2):
        expect(page.locator("#confirmations")).to_contain_text("Final")
        expect(page.locator("#prompt")).not_to_contain_text("Still tied")
        expect(page.locator("#prompt")).not_to_contain_text("tiebreakers decide")
        assert page.locator("#result").inner_text().count("wins") == 1  # the result once
        _fits(page)
    _shot(p1, "game-over-p1")
    p1.context.close()
    p2.context.close()


def test_a_round_end_tie_is_a_tie_by_time_and_the_eo_page_fits__DC8(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(live_server, {"name": "Round Time Open", "points": 75}, (LONG_1, LONG_2))
    table = event.tables[0]
    eo_page = _phone(browser, table["links"]["eo"])
    expect(eo_page.locator("#call-tie")).to_be_visible()
    _fits(eo_page)
    _shot(eo_page, "eo-table-page")
    p1 = _phone(browser, table["links"]["p1"]["url"])
    eo_page.locator("#call-tie").click()
    eo_page.locator("#confirm-yes").click()
    expect(p1.locator("#result")).to_have_text("Round time is up — the game is a tie")
    expect(p1.locator("#prompt")).not_to_contain_text("tiebreakers")
    p1.locator("#report-apd").fill("20")
    p1.locator("#report-submit").click()
    expect(p1.locator("#result-by")).to_contain_text("'s report")
    eo_page.context.close()
    p1.context.close()


def test_sound_and_vibration_each_switchable_and_kept(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    links = _quick(live_server, p1_name="Ann", p2_name="Bob")
    p1 = _phone(browser, links["p1"]["url"], RECORD_ALERTS)
    p2 = _phone(browser, links["p2"]["url"], RECORD_ALERTS)
    p2.locator("#alerts summary").click()
    _shot(p2, "alerts-settings-p2")
    p2.locator("#phase").click()  # a touch: the page may sound now
    p1.locator("#start").click()
    p1.locator("#tap").click()
    # Bob's clock starts: a beep and a buzz on Bob's phone, none on Ann's (her own tap).
    expect(p2.locator("body")).to_have_attribute("data-last-alert", "start")
    assert p2.evaluate("window.__beeps.length") >= 1
    assert p2.evaluate("window.__buzz") == [[200]]
    assert p1.evaluate("window.__beeps.length") == 0
    # Bob switches the sound off; the choice is kept over a reload.
    p2.locator("#alert-sound").uncheck()
    p2.reload()
    expect(p2.locator("#alert-sound")).not_to_be_checked()
    expect(p2.locator("#alert-vibrate")).to_be_checked()
    assert p2.evaluate("localStorage.getItem('deathclock.sound')") == "off"
    p2.locator("#phase").click()
    p2.locator("#tap").click()
    p1.locator("#tap").click()
    expect(p2.locator("#side-p2")).to_have_class(re.compile(r"\brunning\b"))
    p2.wait_for_function("window.__buzz.length === 1")
    assert p2.evaluate("window.__beeps.length") == 0  # vibration only
    p1.context.close()
    p2.context.close()


def test_one_minute_left_and_the_flag_sound_on_the_phone(
    browser: Any, live_server: str, server_time: MovableTime
) -> None:
    from playwright.sync_api import expect

    links = _quick(live_server, clock_minutes=2, p1_name="Ann")
    p1 = _phone(browser, links["p1"]["url"], RECORD_ALERTS, clock=True)
    p1.locator("#phase").click()
    p1.locator("#start").click()
    # Ann's clock runs from 2:00; the page shows it over a minute: no alert yet.
    expect(p1.locator("#side-p1")).to_have_class(re.compile(r"\brunning\b"))
    expect(p1.locator("#clock-p1")).to_have_text(re.compile(r"^(2:00|1:[1-5]\d|1:0[1-9])$"))
    assert p1.evaluate("window.__buzz") == []
    # 61 s go by for the server and the page alike: under one minute, one alert, once.
    server_time.ahead_ms += 61_000
    p1.clock.fast_forward(61_000)
    expect(p1.locator("body")).to_have_attribute("data-last-alert", "minute")
    expect(p1.locator("#clock-p1")).to_have_text(re.compile(r"^0:[0-5]\d\.\d$"))
    minute = p1.evaluate("window.__buzz")
    assert minute == [[150, 100, 150]]
    p1.context.close()

    flag = _quick(live_server, clock_minutes=None, clock_seconds=1, p1_name="Ann")
    p1 = _phone(browser, flag["p1"]["url"], RECORD_ALERTS)
    p1.locator("#phase").click()
    p1.locator("#start").click()
    expect(p1.locator("body")).to_have_attribute("data-last-alert", "flag")
    assert [500, 150, 500, 150, 500] in p1.evaluate("window.__buzz")
    p1.context.close()


def test_a_quick_games_links_page_survives_a_reload_and_has_no_round_time(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/")
    page.locator("#p1_name").fill("Ann")
    page.locator("#quick-form button[type=submit]").click()
    expect(page.locator("#qr-p1")).to_be_visible()
    assert re.search(r"/t/[0-9a-f]{32}/links$", page.url), page.url
    table_id = page.locator("#table-id").get_attribute("title")
    eo_link = page.locator("#link-eo").input_value()
    page.reload()
    expect(page.locator("#qr-p1")).to_be_visible()
    assert page.locator("#table-id").get_attribute("title") == table_id  # the same game
    assert page.locator("#link-eo").input_value() == eo_link
    # A success is not said in the error colour.
    page.locator("[data-copy]").first.click()
    expect(page.locator("#toast")).to_have_class(re.compile(r"\binfo\b"))
    _shot(page, "quick-links")
    # An API refusal is told in the page's words, never as a field path.
    said = page.evaluate(
        """async () => (await import('/static/lib/api.js')).detailOf({detail: [
            {loc: ['body', 'army_points_destroyed', 0], msg: 'Input should be a valid integer'},
            {loc: ['body', 'remaining_ms'], msg: 'Field required'}]}, 422)"""
    )
    assert said == "Army points destroyed must be a whole number. The clock's time is missing."
    refused = httpx.post(f"{live_server}/quick", data={"clock_minutes": "ten"})
    assert refused.status_code == 400
    assert "Custom clock (minutes) must be a valid number" in refused.text
    assert "clock_minutes:" not in refused.text
    # Another browser (no cookie) does not get the links of this game.
    stranger = httpx.get(f"{live_server}/t/{table_id}/links")
    assert stranger.status_code == 404 and "#k=" not in stranger.text

    # The EO link of a quick game: no round, so no "round time" action.
    eo = context.new_page()
    eo.goto(eo_link)
    expect(eo.locator("#role")).to_have_text("EO")
    expect(eo.locator("#pause")).to_be_attached()
    expect(eo.locator("#call-tie")).to_be_hidden()
    _fits(eo)
    context.close()


def test_the_dashboard_shows_the_results_cp_after_a_concession(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    event = started_round(live_server, {"name": "Concession Cup", "points": 75}, ("Ann", "Bob"))
    created, table = event.created, event.tables[0]
    ws_base = live_server.replace("http://", "ws://")
    report = {"c": "report", "army_points_destroyed": 9}
    for seat, cmd in (("p2", {"c": "concede"}), ("p1", report)):
        token = table["links"][seat]["url"].split("#k=", 1)[1]
        with connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"t": "hello", "token": token, "device": f"d-{seat}"}))
            ws.recv(timeout=60)
            ws.send(json.dumps({"t": "cmd", "seq": 1, **cmd}))
            while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", reply
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(created["dashboard_url"])
    card = page.locator(f'[data-table-id="{table["id"]}"]')
    # The concession's result: the winner has the format's minimum CP (3), as on the card.
    expect(card.locator(".cp-p1")).to_have_text("3")
    expect(card.locator(".cp-p2")).to_have_text("0")
    page.context.close()


def test_a_quick_game_made_on_the_home_page_can_open_with_the_pregame__TS1(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/")
    labels = page.locator("#names-field label")
    # Without a pre-game the first name takes the first turn (TS1), and may stay blank.
    expect(labels).to_have_text([re.compile("^Goes first"), re.compile("^Goes second")])
    assert page.locator("#p1_name").get_attribute("placeholder") == "First player"
    page.locator("#format").select_option("runewars2017")
    expect(page.locator("#pregame-field")).to_be_hidden()  # settled at the table itself
    expect(labels).to_have_text([re.compile("^Player"), re.compile("^Opponent")])
    page.locator("#format").select_option("sr2019")
    expect(page.locator("#pregame-field")).to_be_visible()
    expect(labels).to_have_text([re.compile("^Goes first"), re.compile("^Goes second")])
    page.locator("#pregame").check()
    # The starting roll decides who goes first: no "first" before it, and both names.
    expect(labels).to_have_text([re.compile("^Player"), re.compile("^Opponent")])
    expect(page.locator("#names-hint")).to_have_text(
        "Who goes first is settled at the table: write both names."
    )
    page.locator("#quick-form button[type=submit]").click()
    assert page.locator("#p1_name").evaluate("e => e.validity.valueMissing")
    expect(page.locator("#quick-form")).to_be_visible()  # nothing sent
    page.locator("#p1_name").fill("Ann")
    page.locator("#p2_name").fill("Bob")
    _shot(page, "quick-form-pregame")
    page.locator("#quick-form button[type=submit]").click()
    expect(page.locator("#qr-p1")).to_be_visible()
    seat = page.locator("#link-p1").input_value()
    phone = context.new_page()
    phone.goto(seat)
    expect(phone.locator("#pregame")).to_be_visible()
    expect(phone.locator("#phase")).to_contain_text("Pre-game")
    _shot(phone, "quick-pregame-p1")
    # Without a pre-game the API refuses, in words, for a game that has none.
    body = {"format": "runewars2017", "pregame": True}
    refused = httpx.post(f"{live_server}/api/tables", json=body)
    assert refused.status_code == 400
    assert "no pre-game on the phones" in refused.text
    context.close()
