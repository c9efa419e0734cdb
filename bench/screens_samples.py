"""What the screens-agree benchmark makes of its reads: one sample per pair of reads (the
two screens' clocks taken to one common instant), the taps they fall after, and the
JSON line's figures."""

from __future__ import annotations

import argparse
import bisect
import math
from dataclasses import dataclass, field
from typing import Any

from bench.harness.measure import percentile, rounded
from bench.harness.report import log, machine_fields

PLAYING = ("pre_deployment", "deployment", "advance_deployment", "turn")
TARGET_P95_MS = 50.0


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
