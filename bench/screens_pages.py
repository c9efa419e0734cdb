"""The two phones of the screens-agree benchmark: the P1 and P2 seat pages of one table
in Debian's Chromium (through Playwright), each in a browser context of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path
from typing import Any

import httpx

from bench.screens_samples import PLAYING

CHROMIUM = os.environ.get("DEATHCLOCK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Two phones side by side: neither page is a background tab to be throttled.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
PHONE = {"width": 390, "height": 844}
GAME_BODY = {"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Ann", "p2_name": "Bob"}
PAGE_TIMEOUT_MS = 10_000
SWITCH_TIMEOUT_S = 5.0


# One read of a page: its own time, its phase and, per clock, the text shown and the
# value drawn taken to this instant (a running clock has lost what elapsed since).
READ_JS = """() => {
  const now = performance.now();
  const out = {t: performance.timeOrigin + now, wall: Date.now(),
               phase: document.getElementById("app").getAttribute("data-phase"), clocks: {}};
  for (const side of ["p1", "p2"]) {
    const c = document.getElementById("clock-" + side);
    const running = document.getElementById("side-" + side).classList.contains("running");
    const drawn = parseFloat(c.dataset.ms);
    const age = now - parseFloat(c.dataset.at);
    out.clocks[side] = {text: c.textContent, running: running, age: age,
                        ms: running ? Math.max(0, drawn - age) : drawn};
  }
  return out;
}"""


class Phones:
    """The two seat pages and the table they show."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[Any] = []
        self.pages: dict[str, Any] = {}

    async def open(self) -> None:
        for seat in ("p1", "p2"):
            context = await self.browser.new_context(viewport=PHONE, has_touch=True)
            self.contexts.append(context)
            page = await context.new_page()
            page.set_default_timeout(PAGE_TIMEOUT_MS)
            self.pages[seat] = page

    async def close(self) -> None:
        for context in self.contexts:
            with contextlib.suppress(Exception):
                await context.close()

    async def new_game(self, client: httpx.AsyncClient) -> None:
        response = await client.post("/api/tables", json=GAME_BODY)
        if response.status_code != 201:
            raise RuntimeError(f"POST /api/tables: {response.status_code} {response.text[:200]}")
        links = response.json()
        for seat, page in self.pages.items():
            await page.goto(links[seat]["url"])
        for seat, page in self.pages.items():
            await page.wait_for_function(
                "seat => document.getElementById('role').textContent.includes(seat)"
                " && document.getElementById('app').getAttribute('data-phase') === 'ready'",
                arg=seat.upper(),
            )
        await asyncio.sleep(1.0)  # the pages' first clock burst (six pings) is over
        await self.pages["p1"].locator("#start").click()
        await self.wait_running("p1")

    async def running(self) -> str | None:
        """The side whose clock P1's page shows running."""
        value = await self.pages["p1"].evaluate(
            "() => ['p1', 'p2'].find(s => document.getElementById('side-' + s)"
            ".classList.contains('running')) || null"
        )
        return str(value) if value else None

    async def phase(self) -> str:
        js = "() => document.getElementById('app').dataset.phase"
        return str(await self.pages["p1"].evaluate(js))

    async def wait_running(self, side: str) -> None:
        """Both screens show `side`'s clock running, or the game out of play (ended)."""
        js = (
            f"() => document.getElementById('side-{side}').classList.contains('running')"
            f" || !{list(PLAYING)!r}.includes(document.getElementById('app').dataset.phase)"
        )
        await asyncio.gather(
            *(p.wait_for_function(js, timeout=SWITCH_TIMEOUT_S * 1000) for p in self.pages.values())
        )

    async def tap(self, side: str) -> tuple[float, float]:
        """The running side's phone taps; a turn end's sheet is sent as it stands."""
        page = self.pages[side]
        start = time.time() * 1000
        await page.locator("#tap").click()
        if await page.locator("#sheet").is_visible():
            await page.locator("#end-turn").click()
        return start, time.time() * 1000


def skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Debian chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; the browser is Debian's)"
    return None
