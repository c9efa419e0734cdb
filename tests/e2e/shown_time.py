"""A clock as a page shows it, read with the page's own time, so that a test checks how
the clock moves against the clock the page itself runs on, never against how fast the
machine ran the test (a busy machine takes 20 s where a quiet one takes 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The page redraws its clocks a few times a second and shows whole seconds; reading the
#: text and the page's time in one call leaves at most this much between the two.
SLACK_S = 2

_READ = """(selector) => {
  const node = document.querySelector(selector);
  return [Date.now(), node ? node.textContent.trim() : ""];
}"""


@dataclass(frozen=True)
class Shown:
    """What a clock showed (`seconds`, from "m:ss" or "h:mm:ss") at the page's `at_ms` — or,
    when `until_ms` is given, at some moment between `at_ms` and `until_ms` (a tap whose
    handler ran somewhere inside a click that took as long as the machine made it)."""

    at_ms: int
    seconds: int
    text: str
    until_ms: int | None = None


def seconds_of(text: str) -> int:
    parts = [int(part) for part in text.split(":")]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


def shown(page: Any, selector: str) -> Shown:
    """The clock's text and the page's time, read together."""
    at_ms, text = page.evaluate(_READ, selector)
    return Shown(at_ms=int(at_ms), seconds=seconds_of(text), text=text)


def assert_counted_down_since(page: Any, selector: str, since: Shown) -> Shown:
    """The clock has counted down, second for second of the page's own time, from what it
    showed `since` (it was not reset, not frozen, not jumped)."""
    now = shown(page, selector)
    least = since.seconds - (now.at_ms - since.at_ms) / 1000
    most = since.seconds - (now.at_ms - (since.until_ms or since.at_ms)) / 1000
    assert least - SLACK_S <= now.seconds <= most + SLACK_S, (since, now, least, most)
    return now


def tapped(page: Any, tap: Any, seconds: int, text: str) -> Shown:
    """Click `tap` and say the clock showed `seconds` when its handler ran: between the
    page's time just before the click and just after it returned."""
    before = int(page.evaluate("Date.now()"))
    tap.click()
    after = int(page.evaluate("Date.now()"))
    return Shown(at_ms=before, seconds=seconds, text=text, until_ms=after)


def wait_until_counted_on(page: Any, selector: str, since: Shown) -> Shown:
    """Wait (on the page's state, not a timer) until the clock shows less than `since`,
    then check it counted down at the page's own pace."""
    page.wait_for_function(
        "([selector, text]) => {"
        " const node = document.querySelector(selector);"
        " return node && node.textContent.trim() !== text; }",
        arg=[selector, since.text],
    )
    return assert_counted_down_since(page, selector, since)
