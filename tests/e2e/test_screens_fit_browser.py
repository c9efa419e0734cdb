"""Every clock and every text of the big screens stays inside its box, on a phone (390×844),
a laptop (1366×768) and a projector or TV (1920×1080): the watch link and the EO's table
page (both clocks side by side), the EO's dashboard and its projector view.

A running game with long player names is opened on each; the boxes are then measured in
the page (the text's own rectangle inside its card's, nothing scrolled out of its
element), also with the longest texts a clock can show ("59:59", "1:00:00", "360:00")
written into each clock for the time of the measurement. Screenshots go to
test-artifacts/screens-fit/ for a look by eye."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.e2e.events import first_seat_goes_first, started_round

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens-fit"

SIZES = {"phone": (390, 844), "laptop": (1366, 768), "projector": (1920, 1080)}

LONG_NAMES = (
    "Bartholomew Fitzwilliam-Smythe",
    "Maximiliana Wolfeschlegelstein",
    "Konstantinos Papadopoulos-Ng",
    "Guinevere Montgomery-Oyelaran",
    "Alexandros Vasilakopoulos",
    "Wilhelmina Featherstonehaugh",
)

#: The longest texts each clock can show: a player clock (m:ss, minutes count on past an
#: hour, up to a 360-minute clock) and the round clock (h:mm:ss from an hour up).
PLAYER_CLOCK_TEXTS = ("59:59", "1:00:00", "360:00")
ROUND_CLOCK_TEXTS = ("59:59", "1:00:00", "9:59:59")


@dataclass(frozen=True)
class Screen:
    """A page's boxes: each card, the texts that must stay inside it, and its clocks."""

    ready: str  # a script that is true once the page shows the running game
    cards: dict[str, tuple[str, ...]]  # card selector -> text selectors inside it
    clocks: dict[str, tuple[str, ...]]  # clock selector -> long texts to try in it


TABLE_SCREEN = Screen(
    ready="""() => {
        const side = document.getElementById('side-p1');
        return !document.getElementById('board').hidden
            && side && side.classList.contains('running')
            && /\\d:\\d\\d/.test(document.getElementById('clock-p1').textContent)
            && document.getElementById('name-p2').textContent.length > 0;
    }""",
    cards={
        ".board .side": (".name", ".cp", ".cp-value", ".clock", ".side-flags"),
        ".topbar": (".role-badge", ".table-label"),
        ".status": (".phase",),
    },
    clocks={".board .side .clock": PLAYER_CLOCK_TEXTS},
)

DASHBOARD_CARDS = {
    ".dash-card": (
        ".tno",
        ".status",
        ".phase",
        ".dname",
        ".dclock",
        ".cp",
        ".seat-tag",
        ".card-tools .btn",
    ),
    ".dside": (".dname", ".dclock", ".seat-tag"),
    ".round-box": (".round-box-label", ".round-clock", ".round-box-sub"),
    ".dash-title": ("h1", "p"),
}

DASHBOARD_READY = """() => {
    const cards = document.querySelectorAll('.dash-card');
    return cards.length === 3
        && [...cards].every(c => c.classList.contains('running-p1')
            && /\\d:\\d\\d/.test(c.querySelector('.dclock').textContent))
        && /\\d:\\d\\d/.test(document.getElementById('round-clock').textContent)
        && (!document.body.classList.contains('projector')
            || document.getElementById('tables').style.fontSize !== '');
}"""

DASHBOARD_SCREEN = Screen(
    ready=DASHBOARD_READY,
    cards=DASHBOARD_CARDS,
    clocks={".dclock": PLAYER_CLOCK_TEXTS, "#round-clock": ROUND_CLOCK_TEXTS},
)

#: Measured in the page, in one go: nothing is drawn between writing a long text into a
#: clock and reading its boxes, so the page's own redraw cannot undo it halfway.
MEASURE = """([cards, clocks]) => {
  const problems = [];
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  const label = (el) => el.id ? '#' + el.id
    : el.tagName.toLowerCase() + '.' + [...el.classList].join('.');
  const span = (r) => `[${Math.round(r.left)}..${Math.round(r.right)}`
    + ` x ${Math.round(r.top)}..${Math.round(r.bottom)}]`;
  const outside = (t, b) => t.left < b.left - 0.5 || t.right > b.right + 0.5
    || t.top < b.top - 0.5 || t.bottom > b.bottom + 0.5;
  const textRect = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect();
  };
  const checkText = (el, card, note) => {
    const what = `${note}${label(el)} "${el.textContent.trim()}" in ${label(card)}`;
    const text = textRect(el);
    const box = card.getBoundingClientRect();
    if (outside(text, box))
      problems.push(`${what}: text ${span(text)} outside the card ${span(box)}`);
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${what}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
    if (el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1)
      problems.push(`${what}: scrollHeight ${el.scrollHeight} > clientHeight ${el.clientHeight}`);
  };
  const check = (note) => {
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1)
      problems.push(`${note}page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const [cardSel, textSels] of Object.entries(cards))
      for (const card of [...document.querySelectorAll(cardSel)].filter(shown))
        for (const sel of textSels)
          for (const el of card.querySelectorAll(sel))
            if (shown(el) && el.textContent.trim()) checkText(el, card, note);
  };
  check('');
  for (const [clockSel, texts] of Object.entries(clocks)) {
    const all = [...document.querySelectorAll(clockSel)].filter(shown);
    const before = all.map((el) => el.textContent);
    for (const text of texts) {
      all.forEach((el) => { el.textContent = text; });
      check(`[${clockSel} = ${text}] `);
    }
    all.forEach((el, i) => { el.textContent = before[i]; });
  }
  return problems;
}"""


def _start_quick_table(live_server: str) -> dict[str, Any]:
    """A quick table between two long names, its first player's clock running."""
    links = httpx.post(
        f"{live_server}/api/tables",
        json={
            "clock_minutes": 60,
            "scenario": "bunkers",
            "p1_name": LONG_NAMES[0],
            "p2_name": LONG_NAMES[1],
        },
    ).json()
    token = links["p1"]["url"].split("#k=", 1)[1]
    ws_base = live_server.replace("http://", "ws://")
    with connect(f"{ws_base}/ws/tables/{links['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": "e2e-p1"}))
        ws.recv(timeout=60)
        ws.send(json.dumps({"t": "cmd", "seq": 1, "c": "start"}))
        while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
            pass
        assert reply["t"] == "ack", reply
    return links


@pytest.fixture(scope="module")
def screens(live_server: str) -> Iterator[dict[str, tuple[str, Screen]]]:
    """Each screen's address, with a running game on it."""
    quick = _start_quick_table(live_server)
    event = started_round(
        live_server, {"name": "Screens fit check", "points": 75}, names=LONG_NAMES
    )
    for table in event.tables:
        first_seat_goes_first(live_server, table)
    dashboard = event.created["dashboard_url"]
    at, key = dashboard.split("#", 1)
    yield {
        "watch": (quick["watch"], TABLE_SCREEN),
        "eo-table": (quick["eo"], TABLE_SCREEN),
        "dashboard": (dashboard, DASHBOARD_SCREEN),
        "projector": (f"{at}?projector=1#{key}", DASHBOARD_SCREEN),
    }
    event.http.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("screen", ["watch", "eo-table", "dashboard", "projector"])
def test_every_clock_and_text_stays_inside_its_box(
    browser: Any, screens: dict[str, tuple[str, Screen]], screen: str, size: str
) -> None:
    url, spec = screens[screen]
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(spec.ready)
        page.evaluate("document.fonts.ready.then(() => true)")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{screen}-{width}x{height}.png"))
        problems = page.evaluate(MEASURE, [spec.cards, spec.clocks])
        assert problems == [], f"{screen} at {width}×{height}:\n" + "\n".join(problems)
        if screen == "projector" and size != "phone":  # the hall reads it from afar, unscrolled
            bottoms = page.evaluate(
                "[...document.querySelectorAll('.dash-card')]"
                ".map(c => Math.ceil(c.getBoundingClientRect().bottom))"
            )
            assert bottoms and max(bottoms) <= height, (size, bottoms)
    finally:
        context.close()
