"""Screens agree: two phones in Chromium on one table show the same clocks at the same
instants during play.

    python -m bench.screens_agree --seconds 60

1. Starts the real server (`python -m app.cli serve`, one uvicorn worker, a fresh SQLite
   file in a temporary directory) and Debian's Chromium (/usr/bin/chromium, or
   $DEATHCLOCK_CHROMIUM) through Playwright, headless.
2. Creates a quick game over REST and opens its P1 and P2 seat links in two pages of
   390 x 844, each in a browser context of its own (two phones). P1 starts the clock.
3. Plays for --seconds: every 1 to 3 s (at random) the phone whose clock runs taps; a
   turn end that asks for the kill box or scoring is sent as it stands (no, nobody
   scores). A finished game is followed by a new table.
4. Meanwhile one sampler reads both pages at once (every --every ms, and in a burst right
   after each tap, where the screens switch): each page's displayed clock texts and the
   value each clock was drawn from (the clock's data-ms, at data-at on the page's
   performance.now()), with the page's own time at the read. Each page's value is taken
   to the read instant (a running clock loses what elapsed since it was drawn), then both
   pages' values to one common instant: the middle of the two reads on the wall clock
   (performance.timeOrigin + performance.now()), by each page's own running clock.
   Only samples where both pages are in play count.
5. Prints one JSON line: the difference between the two screens per sample (the larger
   of the two clocks' differences) p50/p95/max, the same for samples taken within
   --after-tap ms of a tap, and how often the two screens showed different text.

Diagnostics in the line: p1_/p2_diff_p95_ms (each clock alone), mismatched_value_text_pct
(the texts the two values at the common instant would show: a text mismatch that is not
there comes from the reads or the frames falling at different moments), read_gap_p95_ms
(how far apart the two reads were), frame_age_p95_ms (how old the drawn frame was at the
read), time_base_skew_max_ms (how far the two pages' wall clocks disagree; both run on
this machine) and switch_p95_ms (tap -> both screens show the other clock running, as
Playwright sees it). The three largest differences go to stderr with the moment they
were taken and the clock each screen showed running, then the first samples whose texts
differ. On this machine the largest differences come 10-100 ms after a tap, with the
tapper's own screen the last to switch: the room sends the other screens the event at
once and the tapper's screen its event after the disk write (TableRoom.execute).

Every wait is bounded; the browser and the server are closed on exit, on an error and on
Ctrl-C. Without Chromium or Playwright it prints {"skipped": ...} and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.common import (
    HOST,
    ServerProcess,
    bench_run,
    free_port,
    log,
    machine_fields,
    percentile,
    rounded,
    server_argv,
)

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
PLAYING = ("pre_deployment", "deployment", "advance_deployment", "turn")
PAGE_TIMEOUT_MS = 10_000
SWITCH_TIMEOUT_S = 5.0
TARGET_P95_MS = 50.0
BURST_MS = (0, 10, 20, 35, 50, 75, 100, 150, 200, 300, 450)

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


@dataclass
class Sample:
    t: float  # the common instant (wall clock, ms)
    diff: dict[str, float]  # per clock, |page 1 - page 2| at that instant
    mismatched: bool  # the two screens showed different text
    model_mismatched: bool  # their values at the common instant read differently
    running: str  # the running clock on P1's page / on P2's page, e.g. "p1/p2"
    texts: str  # what the two screens showed, "P1 clock, P2 clock" on each
    read_gap: float
    frame_age: float
    skew: float


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    taps: list[tuple[float, float]] = field(default_factory=list)  # (start, end) wall ms
    switch_ms: list[float] = field(default_factory=list)
    games: int = 0
    read_errors: int = 0
    switch_timeouts: int = 0
    paused: bool = True  # no sampling while a table opens

    def since_tap(self, t: float) -> float | None:
        """ms from the end of the last tap begun before t (the taps are in order)."""
        i = bisect.bisect_right(self.taps, (t, math.inf))
        return t - self.taps[i - 1][1] if i > 0 else None

    def after_tap(self, t: float, window_ms: float) -> bool:
        """Within window_ms of a tap (a tap's own reads count)."""
        since = self.since_tap(t)
        return since is not None and since <= window_ms

    def explain_worst(self, count: int = 3) -> None:
        """The largest differences on stderr: when, and which clock each screen ran."""
        for s in sorted(self.samples, key=lambda s: -max(s.diff.values()))[:count]:
            since = self.since_tap(s.t)
            when = "before the first tap" if since is None else f"{since:+.0f} ms after a tap"
            log(
                f"difference {max(s.diff.values()):.1f} ms {when}; running on P1's/P2's "
                f"screen: {s.running}; reads {s.read_gap:.1f} ms apart"
            )
        for s in [s for s in self.samples if s.mismatched][:count]:
            since = self.since_tap(s.t)
            when = "before the first tap" if since is None else f"{since:+.0f} ms after a tap"
            log(
                f"texts differ {when}: {s.texts} (difference {max(s.diff.values()):.1f} ms, "
                f"running {s.running})"
            )


def project(read: dict[str, Any], side: str, instant: float) -> float:
    """The page's value for one clock at another instant close by (same running side)."""
    c = read["clocks"][side]
    ms = float(c["ms"])
    return max(0.0, ms - (instant - read["t"])) if c["running"] else ms


def clock_text(ms: float) -> str:
    """The table page's clock text for a value (formatClock in web/static/lib/clock.js)."""
    if not ms > 0:
        return "0:00.0"
    if ms < 60_000:
        tenths = math.floor(ms / 100)
        return f"0:{tenths // 10:02d}.{tenths % 10}"
    seconds = math.ceil(ms / 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def compare(a: dict[str, Any], b: dict[str, Any]) -> Sample | None:
    if a["phase"] not in PLAYING or b["phase"] not in PLAYING:
        return None
    instant = (a["t"] + b["t"]) / 2
    values = {s: (project(a, s, instant), project(b, s, instant)) for s in ("p1", "p2")}

    def running(read: dict[str, Any]) -> str:
        return next((s for s in ("p1", "p2") if read["clocks"][s]["running"]), "-")

    return Sample(
        t=instant,
        diff={s: abs(va - vb) for s, (va, vb) in values.items()},
        mismatched=any(a["clocks"][s]["text"] != b["clocks"][s]["text"] for s in ("p1", "p2")),
        model_mismatched=any(clock_text(va) != clock_text(vb) for va, vb in values.values()),
        running=f"{running(a)}/{running(b)}",
        texts=" vs ".join(" ".join(r["clocks"][s]["text"] for s in ("p1", "p2")) for r in (a, b)),
        read_gap=abs(a["t"] - b["t"]),
        frame_age=max(r["clocks"][s]["age"] for r in (a, b) for s in ("p1", "p2")),
        skew=abs((a["t"] - a["wall"]) - (b["t"] - b["wall"])),
    )


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


async def read_both(phones: Phones, run: Run) -> None:
    if run.paused:
        return
    try:
        a, b = await asyncio.gather(*(p.evaluate(READ_JS) for p in phones.pages.values()))
    except Exception:  # a page between tables, or closing
        run.read_errors += 1
        return
    sample = compare(a, b)
    if sample is not None and not run.paused:
        run.samples.append(sample)


async def sampler(phones: Phones, run: Run, every_s: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await read_both(phones, run)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)


async def burst(phones: Phones, run: Run) -> None:
    """Reads right after a tap, where the screens switch from one clock to the other."""
    t0 = time.monotonic()
    for offset in BURST_MS:
        delay = offset / 1000 - (time.monotonic() - t0)
        if delay > 0:
            await asyncio.sleep(delay)
        await read_both(phones, run)


async def play(
    phones: Phones, run: Run, client: httpx.AsyncClient, args: argparse.Namespace
) -> None:
    rng = random.Random(args.seed)
    bursts: set[asyncio.Task[None]] = set()
    deadline = time.monotonic() + args.seconds
    last_log = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(min(rng.uniform(1.0, 3.0), max(0.0, deadline - time.monotonic())))
        if time.monotonic() >= deadline:
            break
        side = await phones.running()
        if side is None or await phones.phase() not in PLAYING:
            run.paused = True
            await phones.new_game(client)
            run.games += 1
            run.paused = False
            continue
        start, end = await phones.tap(side)
        run.taps.append((start, end))
        task = asyncio.create_task(burst(phones, run))
        bursts.add(task)
        task.add_done_callback(bursts.discard)
        try:
            await phones.wait_running("p2" if side == "p1" else "p1")
        except Exception as exc:  # the page's wait timed out: said, and play goes on
            run.switch_timeouts += 1
            log(f"a tap by {side} not shown on both screens within {SWITCH_TIMEOUT_S:.0f} s: {exc}")
            continue
        if await phones.phase() in PLAYING:  # not the tap that ended the game
            run.switch_ms.append(time.time() * 1000 - start)
        if time.monotonic() - last_log > 10:
            last_log = time.monotonic()
            log(f"{len(run.taps)} taps, {len(run.samples)} samples, game {run.games}")
    await asyncio.gather(*bursts)


async def measure(port: int, args: argparse.Namespace) -> Run:
    from playwright.async_api import async_playwright

    run = Run()
    stop = asyncio.Event()
    async with (
        async_playwright() as pw,
        httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=10.0) as client,
    ):
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phones = Phones(browser, f"http://{HOST}:{port}")
        sampling: asyncio.Task[None] | None = None
        try:
            await phones.open()
            await phones.new_game(client)
            run.games = 1
            log("both phones show P1's clock running; playing")
            run.paused = False
            sampling = asyncio.create_task(sampler(phones, run, args.every / 1000, stop))
            await asyncio.wait_for(play(phones, run, client, args), args.seconds + 60)
        finally:
            run.paused = True
            stop.set()
            if sampling is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sampling, 5)
            await phones.close()
            await browser.close()
    return run


def summary(run: Run, args: argparse.Namespace) -> dict[str, Any]:
    worst = [max(s.diff.values()) for s in run.samples]
    after = [max(s.diff.values()) for s in run.samples if run.after_tap(s.t, args.after_tap)]
    n = len(run.samples)
    p95 = percentile(worst, 95)
    targets = {
        "diff_p95_le_50ms": p95 is not None and p95 <= TARGET_P95_MS and n >= 200,
    }
    return {
        "samples": n,
        "diff_p50_ms": rounded(percentile(worst, 50), 1),
        "diff_p95_ms": rounded(p95, 1),
        "diff_max_ms": rounded(max(worst) if worst else None, 1),
        "after_tap_samples": len(after),
        "after_tap_p50_ms": rounded(percentile(after, 50), 1),
        "after_tap_p95_ms": rounded(percentile(after, 95), 1),
        "after_tap_max_ms": rounded(max(after) if after else None, 1),
        "p1_diff_p95_ms": rounded(percentile([s.diff["p1"] for s in run.samples], 95), 1),
        "p2_diff_p95_ms": rounded(percentile([s.diff["p2"] for s in run.samples], 95), 1),
        "mismatched_text_pct": rounded(
            100 * sum(s.mismatched for s in run.samples) / n if n else None, 2
        ),
        "mismatched_value_text_pct": rounded(
            100 * sum(s.model_mismatched for s in run.samples) / n if n else None, 2
        ),
        "read_gap_p95_ms": rounded(percentile([s.read_gap for s in run.samples], 95), 1),
        "frame_age_p95_ms": rounded(percentile([s.frame_age for s in run.samples], 95), 1),
        "time_base_skew_max_ms": rounded(max((s.skew for s in run.samples), default=None), 1),
        "switch_p95_ms": rounded(percentile(run.switch_ms, 95), 1),
        "taps": len(run.taps),
        "games": run.games,
        "read_errors": run.read_errors,
        "switch_timeouts": run.switch_timeouts,
        "seconds": args.seconds,
        **machine_fields(),
        "targets_met": targets,
        "all_targets_met": all(targets.values()),
    }


def skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Debian chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; the browser is Debian's)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.screens_agree", description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--every", type=float, default=100.0, help="ms between samples")
    parser.add_argument(
        "--after-tap", type=float, default=500.0, help="ms after a tap that count as after it"
    )
    parser.add_argument("--seed", type=int, default=12, help="seed of the tap intervals")
    parser.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    parser.add_argument("--db-dir", metavar="DIR", help="where the temporary SQLite file goes")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.every <= 0 or args.after_tap < 0:
        parser.error("--seconds and --every must be positive, --after-tap not negative")
    reason = skip_reason()
    if reason is not None:
        log(f"skipped: {reason}")
        print(json.dumps({"skipped": reason}), flush=True)
        return 0

    with bench_run(1024, args.db_dir, "deathclock-screens-") as (tmp, env):
        port = args.port or free_port()
        server = ServerProcess("deathclock", server_argv(port), env, tmp / "server.log")
        try:
            server.start()
            server.wait_ready(port)
            run = asyncio.run(measure(port, args))
        finally:
            server.stop()
    out = summary(run, args)
    run.explain_worst()
    if out["samples"] < 200:
        log(f"only {out['samples']} samples: play longer (--seconds) for a p95 worth reading")
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
