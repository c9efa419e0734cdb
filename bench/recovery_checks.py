"""What the failover and restart benchmarks report of a recovery: how long the tables
took to be served again, the phones' commands lost, twice or unanswered, the goals, and
the options both take."""

from __future__ import annotations

import argparse
from typing import Any

from bench.harness.measure import percentile, rounded
from bench.recovery import Game


def recovery_times(tables: list[Game], since: float) -> dict[str, float | None]:
    times = [t.served_at - since for t in tables if t.served_at is not None]
    return {
        "max_s": rounded(max(times) if times else None),
        "p99_s": rounded(percentile(times, 99)),
        "p50_s": rounded(percentile(times, 50)),
        "min_s": rounded(min(times) if times else None),
    }


def outcome(tables: list[Game], left: int) -> dict[str, Any]:
    """What every recovery benchmark reports of its phones' commands: lost, twice,
    unanswered, and how the phones got back."""
    c = tables[0].run.c
    return {
        "not_served": sum(t.served_at is None for t in tables),
        "acked_lost": c["acked_lost"],
        "duplicated": c["duplicated"] + c["same_version_acked_twice"],
        "dup_flag_on_first_send": c["dup_first_send"],
        "unanswered": left,
        "taps": c["taps"],
        "rejected": c["rejected"],
        "server_trouble": c["server_trouble"],
        "reconnects": c["reconnects"],
        "resends": c["resends"],
        "connect_failures": c["connect_failures"],
        "phones_behind": c["phones_behind"],
        "log_holes": c["log_holes"],
        "log_unread": c["log_unread"],
    }


def with_targets(
    out: dict[str, Any], goal: str, took_s: float | None, goal_s: float, unsettled: int
) -> dict[str, Any]:
    """`out` with its targets: every table served within `goal_s`, nothing acked lost,
    nothing twice, every command answered."""
    targets = {
        goal: took_s is not None and took_s <= goal_s and out["not_served"] == 0,
        "acked_lost_0": out["acked_lost"] == 0 and out["log_holes"] == 0 and out["log_unread"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "every_command_answered": out["unanswered"] == 0 and unsettled == 0,
    }
    return {**out, "targets_met": targets, "all_targets_met": all(targets.values())}


def add_recovery_options(parser: argparse.ArgumentParser, before: str, after: str) -> None:
    """The options every recovery benchmark takes (`before`/`after`: what happens between
    the warm-up and the tapping after, in its own words)."""
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--warmup", type=float, default=10.0, help=f"tapping before {before}")
    parser.add_argument("--after", type=float, default=10.0, help=f"tapping after {after}")
    parser.add_argument("--recovery-timeout", type=float, default=60.0)
    parser.add_argument("--create-concurrency", type=int, default=16)
