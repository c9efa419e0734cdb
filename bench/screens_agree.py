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
import contextlib
import random
import time

import httpx

from bench.harness.report import json_line, log, run_main
from bench.harness.servers import HOST, ServerProcess, bench_run, free_port, server_argv, serving
from bench.screens_pages import (
    CHROMIUM,
    CHROMIUM_ARGS,
    READ_JS,
    SWITCH_TIMEOUT_S,
    Phones,
    skip_reason,
)
from bench.screens_samples import PLAYING, Run, compare, summary

BURST_MS = (0, 10, 20, 35, 50, 75, 100, 150, 200, 300, 450)


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
        json_line({"skipped": reason})
        return 0

    with bench_run(1024, args.db_dir, "deathclock-screens-") as (tmp, env):
        port = args.port or free_port()
        server = ServerProcess("deathclock", server_argv(port), env, tmp / "server.log")
        with serving([(server, port)]):
            run = asyncio.run(measure(port, args))
    out = summary(run, args)
    run.explain_worst()
    if out["samples"] < 200:
        log(f"only {out['samples']} samples: play longer (--seconds) for a p95 worth reading")
    json_line(out)
    return 0


if __name__ == "__main__":
    run_main(main, "browser and server stopped")
