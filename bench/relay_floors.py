"""The floors of the table latency benchmark: the same load against bench/bare_relay.py,
which relays taps and answers pings with no rules and no storage; as a cluster of
workers with Redis between them, and writing each command to PostgreSQL first; and
spending a fixed CPU time on each tap."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.harness.servers import bare_relay_argv, relay_cluster_args

#: A run of the load against one server: (name, argv for a port, env, args, tmp) -> result.
RunTarget = Callable[[str, Any, dict[str, str], argparse.Namespace, Path], dict[str, Any]]


def run_floors(
    args: argparse.Namespace, env: dict[str, str], tmp: Path, run_target: RunTarget
) -> list[tuple[str, dict[str, Any]]]:
    """The same load against the relay: bare, then (several workers) as a cluster and as a
    durable cluster, then spending --busy-floor microseconds a tap; each with its prefix."""

    several = relay_cluster_args(args.workers)
    runs: list[tuple[str, list[str]]] = []
    if not args.no_bare:
        runs.append(("bare", []))
        if several:
            log = ["--log", os.environ["DEATHCLOCK_TEST_POSTGRES_URL"]]
            runs += [("bare_cluster", several), ("bare_durable", [*several, *log])]
    runs += [(f"bare_busy{us}", [*several, "--busy-us", str(us)]) for us in args.busy_floor]
    floors = []
    for prefix, extra in runs:

        def argv(port: int, extra: list[str] = extra) -> list[str]:
            return [*bare_relay_argv(port), *extra]

        name = "bare-relay" if prefix == "bare" else prefix.replace("_", "-")
        floors.append((prefix, run_target(name, argv, env, args, tmp)))
    return floors
