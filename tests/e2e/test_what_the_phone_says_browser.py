"""What the phones and the home page say, at 390×844 (issue 37): each test names the
document's section it follows (shared/seeds/*.txt)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RUNNING = re.compile(r"\brunning\b")

# A browser's sound: suspended until the page has had a touch (user activation).
LOCKED_AUDIO = """
class LockedAudio {
  constructor() { this.currentTime = 0; this.destination = {};
    this.state = navigator.userActivation.hasBeenActive ? "running" : "suspended"; }
  resume() {
    if (navigator.userActivation.hasBeenActive) this.state = "running";
    return Promise.resolve();
  }
  createOscillator() {
    return { type: "", frequency: { value: 0 }, connect: (n) => n, start() {}, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n };
  }
}
window.AudioContext = LockedAudio;
"""


def _links(live_server: str, **body: Any) -> dict[str, Any]:
    sent = {"p1_name": "Ann", "p2_name": "Bob", **body}
    reply = httpx.post(f"{live_server}/api/tables", json=sent)
    assert reply.status_code < 300, reply.text
    links: dict[str, Any] = reply.json()
    return links


def _phone(browser: Any, links: dict[str, Any], role: str, script: str = "") -> Any:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    if script:
        page.add_init_script(script)
    link = links[role]
    page.goto(link if isinstance(link, str) else link["url"])
    return page


def _tap(page: Any, running_next: str) -> None:
    from playwright.sync_api import expect

    page.locator("#tap").click()
    expect(page.locator(f"#side-{running_next}")).to_have_class(RUNNING)


def test_ig2014_pre_deployment_tap_says_pre_deployment__DC3(browser: Any, live_server: str) -> None:
    """IG2014 "the first player starts his clock and begins pre-deployment"."""
    from playwright.sync_api import expect

    links = _links(live_server, format="ig2014", points=50, scenario="outflank")
    p1 = _phone(browser, links, "p1")
    p1.locator("#start").click()
    expect(p1.locator("#tap-hint")).to_have_text("TAP when your pre-deployment is done")
    expect(p1.locator("#tap-hint")).not_to_contain_text("end your turn")
    p1.context.close()


def test_ig2014_a_second_dominate_says_it_replaced_the_first__dominate(
    browser: Any, live_server: str
) -> None:
    """IG2014 "DOMINATE": "When a warcaster or warlock can dominate more than one scenario
    element, the active player must choose one to dominate"."""
    from playwright.sync_api import expect

    links = _links(live_server, format="ig2014", points=50, scenario="outflank")
    p1, p2 = _phone(browser, links, "p1"), _phone(browser, links, "p2")
    p1.locator("#start").click()
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 3 + ((p1, "p2"), (p2, "p1"), (p1, "p2")):
        _tap(page, nxt)
    p2.locator("#tap").click()  # P2's turn 2: the scoring sheet
    expect(p2.locator("#sheet")).to_be_visible()
    p2.locator("#score-circle-1-dom\\:p2").click()
    expect(p2.locator("#dominate-note")).to_be_hidden()
    p2.locator("#score-circle-2-dom\\:p2").click()
    note = p2.locator("#dominate-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("A caster dominates one element only")
    expect(p2.locator("#score-circle-1-none")).to_have_attribute("aria-pressed", "true")
    p1.context.close()
    p2.context.close()


def test_the_home_page_names_the_chosen_format_and_takes_variants__classic_turn_timing(
    browser: Any, live_server: str
) -> None:
    """SR2019 "Event Variants": a quick game with Classic Turn Timing from the home page;
    its phone shows the variant's round length (70 minutes at 50 points) before the
    start, and no turn timer during deployment."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, has_touch=True)
    home = context.new_page()
    home.goto(live_server + "/")
    home.locator("#format").select_option("ig2014")
    expect(home.locator("#home-subtitle")).to_contain_text("Iron Gauntlet")
    expect(home.locator("#variants-field")).to_be_hidden()
    home.locator("#format").select_option("sr2019")
    expect(home.locator("#home-subtitle")).to_contain_text("Steamroller 2019")
    expect(home.locator("#variants-field")).to_be_visible()
    home.locator("#points").select_option("50")
    home.locator("#timing").select_option("classic_turn_timing")
    home.locator("#create").click()
    home.wait_for_url(re.compile(r"/links$"))
    expect(home.locator("#table-summary")).to_contain_text("Steamroller")
    href = home.locator("#link-p1").input_value()
    assert href
    p1 = context.new_page()
    p1.goto(href if href.startswith("http") else live_server + href)
    expect(p1.locator("#round-clock")).to_have_text("70:00")
    p1.locator("#start").click()
    expect(p1.locator("#phase")).to_contain_text("eploy")
    expect(p1.locator("#timer-start")).to_be_hidden()
    context.close()


def test_legacy_sheet_shows_the_cp_after_it__legacy_scoring(browser: Any, live_server: str) -> None:
    """legacy-scenarios.txt, Frontline Foray: CP for each line controlled; the sheet
    previews them as the SR2019 sheet does."""
    from playwright.sync_api import expect

    links = _links(live_server, format="legacy", points=75, scenario="frontline-foray")
    p1, p2 = _phone(browser, links, "p1"), _phone(browser, links, "p2")
    p1.locator("#start").click()
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 3:
        _tap(page, nxt)
    p1.locator("#tap").click()  # P1's turn 2: the scoring sheet
    expect(p1.locator("#sheet")).to_be_visible()
    p1.locator("#score-line-1-p1").click()
    expect(p1.locator("#sheet-preview")).to_contain_text("CP after this: Ann 1 – Bob 0")
    p1.context.close()
    p2.context.close()


def test_scattered_lines_asks_no_advance_deployment_taps__legacy_scattered_lines(
    browser: Any, live_server: str
) -> None:
    """ "Models with advanced deployment must be deployed in the deployment zone during
    regular deployment"."""
    from playwright.sync_api import expect

    links = _links(live_server, format="legacy", points=75, scenario="scattered-lines")
    p1, p2 = _phone(browser, links, "p1"), _phone(browser, links, "p2")
    p1.locator("#start").click()
    _tap(p1, "p2")
    _tap(p2, "p1")
    expect(p1.locator("#phase")).to_contain_text("Turn 1")
    p1.context.close()
    p2.context.close()


def test_after_an_assassination_no_presence_and_no_dispute_before_a_report__TS7_TS9(
    browser: Any, live_server: str
) -> None:
    """SR2019 tiebreakers: scenario presence decides only a tied game; a result is
    disputed once there is one reported."""
    from playwright.sync_api import expect

    links = _links(live_server, format="sr2019", points=75)
    p1, p2 = _phone(browser, links, "p1"), _phone(browser, links, "p2")
    p1.locator("#start").click()
    for page, nxt in ((p1, "p2"), (p2, "p1")) * 2:
        _tap(page, nxt)
    p1.locator("#caster-destroyed").click()
    p1.locator("#confirm-yes").click()
    expect(p2.locator("#report")).to_be_visible()
    expect(p2.locator("#report-presence-field")).to_be_hidden()
    expect(p2.locator("#dispute")).to_be_hidden()
    expect(p1.locator("#dispute")).to_be_hidden()
    p2.locator("#report-apd").fill("30")
    p2.locator("#report-submit").click()
    expect(p1.locator("#dispute")).to_be_visible()  # now there is a report to dispute
    p1.context.close()
    p2.context.close()


def test_a_concession_shows_one_cp_and_the_army_it_halves__sportsmanship(
    browser: Any, live_server: str
) -> None:
    """SR2019 "Sportsmanship": the header's CP are the result's; the APD basis is said."""
    from playwright.sync_api import expect

    links = _links(live_server, format="sr2019", points=75)
    p1, p2 = _phone(browser, links, "p1"), _phone(browser, links, "p2")
    p1.locator("#start").click()
    p2.locator("#concede").click()
    if p2.locator("#confirm-yes").is_visible():
        p2.locator("#confirm-yes").click()
    expect(p1.locator("#report")).to_be_visible()
    p1.locator("#report-apd").fill("10")
    p1.locator("#report-submit").click()
    expect(p1.locator("#result-detail")).to_contain_text("3")
    expect(p1.locator("#cp-p1")).to_have_text("3")
    expect(p1.locator("#conceded-army")).to_contain_text("the event's 75 points")
    p1.context.close()
    p2.context.close()


def test_sound_is_unlocked_by_the_first_touch_and_said_while_locked(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    links = _links(live_server, format="sr2019", points=75)
    p2 = _phone(browser, links, "p2", LOCKED_AUDIO)
    expect(p2.locator("#sound-locked")).to_be_visible()
    expect(p2.locator("#sound-locked")).to_contain_text("touch")
    p2.locator("#phase").click()
    expect(p2.locator("#sound-locked")).to_be_hidden()
    p2.context.close()
