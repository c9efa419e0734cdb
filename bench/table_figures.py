"""What the table latency benchmark reports: a run's latency percentiles, each relay
floor's figures under its prefix, the goals, and the JSON line."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from bench.harness.measure import cpu_fields, percentile, ratio, rounded
from bench.harness.report import log, machine_fields


def summary(result: dict[str, Any]) -> dict[str, Any]:
    ack, peer = result["ack_ms"], result["peer_ms"]
    return {
        "ack_p50_ms": rounded(percentile(ack, 50)),
        "ack_p99_ms": rounded(percentile(ack, 99)),
        "ack_max_ms": rounded(max(ack) if ack else None),
        "peer_p50_ms": rounded(percentile(peer, 50)),
        "peer_p99_ms": rounded(percentile(peer, 99)),
        "peer_max_ms": rounded(max(peer) if peer else None),
        "send_lag_p99_ms": rounded(percentile(result["send_lag_ms"], 99)),
        "start_ack_p50_ms": rounded(percentile(result["start_ms"], 50)),
        "start_ack_p99_ms": rounded(percentile(result["start_ms"], 99)),
    }


def floor_fields(prefix: str, result: dict[str, Any]) -> dict[str, Any]:
    """A floor's figures, each named with `prefix`."""
    b, bc = summary(result), result["counters"]
    fields = {
        "peer_p50_ms": b["peer_p50_ms"],
        "peer_p99_ms": b["peer_p99_ms"],
        "ack_p50_ms": b["ack_p50_ms"],
        "ack_p99_ms": b["ack_p99_ms"],
        "start_ack_p99_ms": b["start_ack_p99_ms"],
        "taps": result["taps"],
        "lost": bc.get("lost", 0),
        "duplicated": bc.get("duplicated", 0),
        **cpu_fields(result),
    }
    return {f"{prefix}_{name}": value for name, value in fields.items()}


#: The goals against the bare relay at one worker: (figure, most times the relay's).
RELAY_GOALS = (
    ("server_cpu_ms_per_tap", 1.5),
    ("peer_p50_ms", 1.5),
    ("peer_p99_ms", 2.0),
    ("server_rss_mb", 1.5),
)


def ratio_fields(out: dict[str, Any]) -> dict[str, Any]:
    """Each goal's figure as a multiple of the bare relay's in the same run
    (`<figure>_x_bare`), when the relay ran."""
    return {
        f"{figure}_x_bare": ratio(out[figure], out[f"bare_{figure}"])
        for figure, _most in RELAY_GOALS
        if f"bare_{figure}" in out
    }


def targets_of(out: dict[str, Any]) -> dict[str, bool]:
    """The goals, met or not; against each floor that ran, ours within 2x at p50 and p99,
    and against the bare relay each of RELAY_GOALS."""
    targets = {
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "ack_p99_le_10ms": out["ack_p99_ms"] is not None and out["ack_p99_ms"] <= 10,
        "peer_p99_le_10ms": out["peer_p99_ms"] is not None and out["peer_p99_ms"] <= 10,
        "rss_le_300mb": out["server_rss_mb"] <= 300,
    }
    for prefix in ("bare", "bare_cluster", "bare_durable"):
        for q in ("p50", "p99"):
            ours, floor = out["peer_" + q + "_ms"], out.get(f"{prefix}_peer_{q}_ms")
            if floor is not None and ours is not None:
                targets[f"peer_{q}_le_2x_{prefix}"] = ours <= 2 * floor
    for figure, most in RELAY_GOALS:
        times = out.get(f"{figure}_x_bare")
        if times is not None:
            targets[f"{figure}_le_{most:g}x_bare"] = times <= most
    return targets


def line_fields(
    app_result: dict[str, Any],
    floors: list[tuple[str, dict[str, Any]]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """The JSON line: the server's run, each floor's under its prefix, the goals."""
    c = app_result["counters"]
    out: dict[str, Any] = {
        "tables": app_result["tables"],
        "sockets": app_result["sockets"],
        "seconds": args.seconds,
        "warmup_s": args.warmup,
        "interval_s": args.interval,
        "taps": app_result["taps"],
        "taps_total": app_result["taps_total"],
        **summary(app_result),
        "lost": c.get("lost", 0),
        "duplicated": c.get("duplicated", 0),
        "rejected": c.get("rejected", 0),
        "version_mismatch": c.get("version_mismatch", 0),
        "connect_failures": c.get("connect_failures", 0),
        "games_finished": c.get("games_finished", 0),
        **cpu_fields(app_result),
        "server_full_gc": len(app_result["full_walks"]),
        "server_full_gc_max_ms": max(app_result["full_walks"], default=0),
        "clients": app_result["clients"],
        "compression": args.compression,
        **machine_fields(),
        "workers": args.workers,
        "tables_per_core": rounded(app_result["tables"] / (os.cpu_count() or 1), 1),
    }
    for prefix, result in floors:
        out |= floor_fields(prefix, result)
    out |= ratio_fields(out)
    targets = targets_of(out)
    noisy = [k for k in ("other_cpu_pct", "bare_other_cpu_pct") if (out.get(k) or 0) > 25]
    if noisy:
        log(
            "other processes used a lot of CPU while measuring "
            f"({', '.join(f'{k} {out[k]}' for k in noisy)}): latencies include their noise"
        )
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out


def write_timeline(path: Path, first_at: float, timeline: list[tuple[float, float, float]]) -> None:
    """Each measured tap on a line: when (from the first tap, and on the monotonic clock),
    its ack and its peer latency."""
    with path.open("w") as f:
        f.write("t_s,monotonic_s,ack_ms,peer_ms\n")
        for t0, a, b in sorted(timeline):
            f.write(f"{t0 - first_at:.4f},{t0:.4f},{a:.3f},{b:.3f}\n")
