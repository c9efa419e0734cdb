"""Undo by agreement in Chromium, on two phones (390×844): the asker sees "waiting", then
what became of the request, by name; the opponent's 10 s start when their phone shows the
request. The server's time moves only when the test moves it (`server_time.ahead_ms`: its
timers wake as it passes them), and both pages' with it (`clock.fast_forward`): what the
server decides never depends on how fast the machine runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.servertime import StillTime

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "undo"
RUNNING = re.compile(r"\brunning\b")
PAGE_ERRORS: list[str] = []
NOT_SHOWN = "Waiting for Bob to answer: your request is not on Bob's phone yet."


@pytest.fixture(scope="module")
def server_time() -> StillTime:
    return StillTime()


@pytest.fixture(autouse=True)
def _no_page_errors() -> Any:
    """Every phone page of these tests runs without an uncaught script error."""
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == []


def _phone(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.clock.install()  # the page's time moves ahead with the server's, never waited
    page = context.new_page()
    page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    page.goto(url)
    return page


def _quick(live_server: str) -> dict[str, Any]:
    body = {"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"}
    return httpx.post(f"{live_server}/api/tables", json=body).json()  # type: ignore[no-any-return]


def _move(server_time: StillTime, pages: tuple[Any, ...], ms: int) -> None:
    """`ms` pass for the server and for every page alike."""
    server_time.ahead_ms += ms
    for page in pages:
        page.clock.fast_forward(ms)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _fits(page: Any) -> None:
    """Nothing sticks out sideways: no horizontal scroll, every visible button on screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll('button, .banner'))
            .filter((b) => b.offsetParent !== null)
            .map((b) => [b.id || b.className, b.getBoundingClientRect().right])
            .filter(([, right]) => right > window.innerWidth + 0.5)"""
    )
    assert outside == [], outside


def _regretted_tap(browser: Any, live_server: str) -> tuple[Any, Any, dict[str, Any]]:
    """Ann and Bob deploy; Ann ends her advance deployment, and regrets it: Bob's runs."""
    from playwright.sync_api import expect

    links = _quick(live_server)
    ann = _phone(browser, links["p1"]["url"])
    bob = _phone(browser, links["p2"]["url"])
    ann.locator("#start").click()
    ann.locator("#tap").click()
    expect(bob.locator("#side-p2")).to_have_class(RUNNING)
    bob.locator("#tap").click()
    expect(ann.locator("#side-p1")).to_have_class(RUNNING)
    ann.locator("#tap").click()
    expect(bob.locator("#side-p2")).to_have_class(RUNNING)
    return ann, bob, links


def _ask(ann: Any) -> None:
    """Ann asks; the dialog says how long she has left to ask (10 s from the tap)."""
    from playwright.sync_api import expect

    expect(ann.locator("#undo")).to_have_text(re.compile(r"^Undo last tap \(\d+ s\)$"))
    ann.locator("#undo").click()
    expect(ann.locator("#confirm-text")).to_contain_text("Ask Bob to agree to undo your last tap?")
    expect(ann.locator("#undo-ask-left")).to_have_text(re.compile(r"^\d+ s$"))
    expect(ann.locator("#confirm-text")).to_contain_text("left to ask.")
    ann.locator("#confirm-yes").click()


def test_an_unanswered_undo_lapses_and_both_phones_say_so(
    browser: Any, live_server: str, server_time: StillTime
) -> None:
    from playwright.sync_api import expect

    ann, bob, links = _regretted_tap(browser, live_server)
    pages = (ann, bob)
    _ask(ann)
    request = bob.locator('#prompt [data-kind="answer_undo"]')
    expect(request).to_contain_text("Ann asks to undo the last tap.")
    expect(bob.locator("#undo-accept")).to_be_visible()
    waiting = ann.locator('#prompt [data-kind="answer_undo"]')
    expect(waiting).to_contain_text("Waiting for Bob to answer")
    # Bob's phone showed it: the server started his 10 s, and Ann's phone counts them.
    expect(ann.locator("#undo-left")).to_have_text(re.compile(r"^\d+ s$"))
    expect(bob.locator("#undo-left")).to_have_text(re.compile(r"^\d+ s$"))
    for page, name in ((ann, "ann"), (bob, "bob")):
        _fits(page)
        _shot(page, f"request-{name}")

    _move(server_time, pages, 11_000)  # Bob does not answer: the server lapses it
    lapsed = ann.locator('#prompt [data-kind="undo_outcome"]')
    expect(lapsed).to_have_text("Your request lapsed: Bob did not answer in time.")
    expect(lapsed).to_have_attribute("data-end", "lapsed")
    expect(request).to_have_count(0)
    expect(bob.locator("#undo-accept")).to_have_count(0)
    expect(bob.locator('#prompt [data-kind="undo_outcome"]')).to_have_text(
        "Ann's request to undo lapsed: you did not answer in time."
    )
    for page in pages:  # the tap stands: Bob's advance deployment goes on
        expect(page.locator("#side-p2")).to_have_class(RUNNING)
    _fits(ann)
    _shot(ann, "lapsed-ann")

    # Ann's next tap: the old outcome goes; a dialog left open past the 10 s closes itself.
    bob.locator("#tap").click()
    expect(ann.locator("#side-p1")).to_have_class(RUNNING)
    ann.locator("#tap").click()
    expect(ann.locator('#prompt [data-kind="undo_outcome"]')).to_have_count(0)
    ann.locator("#undo").click()
    expect(ann.locator("#confirm")).to_be_visible()
    _move(server_time, pages, 11_000)
    expect(ann.locator("#confirm")).to_be_hidden()
    expect(ann.locator("#toast")).to_contain_text("Too late to ask")
    expect(ann.locator("#undo")).to_be_hidden()
    expect(bob.locator('#prompt [data-kind="answer_undo"]')).to_have_count(0)

    log = ann.context.new_page()
    log.goto(links["p1"]["url"].replace("#k=", "/log#k="))
    expect(log.locator("#log-body")).to_contain_text("Undo request shown")
    expect(log.locator("#log-body")).to_contain_text(
        "Undo request lapsedBob did not answer within 10 s of it showing"
    )
    ann.context.close()
    bob.context.close()


def test_an_undo_answered_when_it_shows_is_accepted_and_both_phones_say_so(
    browser: Any, live_server: str, server_time: StillTime
) -> None:
    from playwright.sync_api import expect

    ann, bob, _ = _regretted_tap(browser, live_server)
    pages = (ann, bob)
    bob.locator("#concede").click()  # a dialog over Bob's screen: the request is not shown
    expect(bob.locator("#confirm")).to_be_visible()
    _ask(ann)
    waiting = ann.locator('#prompt [data-kind="answer_undo"]')
    expect(waiting).to_have_text(NOT_SHOWN)
    _move(server_time, pages, 30_000)  # half a minute: Bob's 10 s have not started
    expect(waiting).to_have_text(NOT_SHOWN)
    bob.locator("#confirm-no").click()  # Bob sees the request now
    expect(bob.locator('#prompt [data-kind="answer_undo"]')).to_contain_text(
        "Ann asks to undo the last tap."
    )
    expect(ann.locator("#undo-left")).to_have_text(re.compile(r"^\d+ s$"))
    expect(waiting).to_contain_text("left.")
    _shot(ann, "waiting-ann")
    bob.locator("#undo-accept").click()
    accepted = ann.locator('#prompt [data-kind="undo_outcome"]')
    expect(accepted).to_have_text("Bob accepted: the tap is undone.")
    expect(bob.locator('#prompt [data-kind="undo_outcome"]')).to_have_text(
        "You accepted Ann's undo: the tap is undone."
    )
    for page in pages:  # Ann's advance deployment again, her clock running
        expect(page.locator("#side-p1")).to_have_class(RUNNING)
        expect(page.locator('#prompt [data-kind="answer_undo"]')).to_have_count(0)
        _fits(page)
    _shot(ann, "accepted-ann")
    _shot(bob, "accepted-bob")
    ann.context.close()
    bob.context.close()
