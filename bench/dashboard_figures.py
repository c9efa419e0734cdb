"""What the dashboard benchmark makes of its taps and of what the dashboards saw: each
tap matched with the first dashboard row showing it, the per-tap timeline, and the JSON
line's figures and goals."""

from __future__ import annotations

import argparse
from bisect import bisect_left
from pathlib import Path
from typing import Any

from bench.dashboard_event import Progress
from bench.dashboard_screens import DASHBOARD_TIMEOUT_S
from bench.harness.measure import cpu_fields, percentile, rounded
from bench.harness.report import log, machine_fields


def match_dashboards(
    taps: list[tuple[str, float, Progress, float]],
    seen: list[dict[str, tuple[list[Progress], list[float]]]],
) -> dict[str, Any]:
    """For each tap and dashboard: the first row showing the tap's state (or a later one)."""
    per_dashboard: list[list[float]] = [[] for _ in seen]
    per_tap: list[list[float]] = []
    lost = skipped = early = 0
    for table_id, t0, state, _peer in taps:
        mine: list[float] = []
        for k, dashboard in enumerate(seen):
            states, times = dashboard.get(table_id, ([], []))
            i = bisect_left(states, state)
            if i == len(states) or times[i] - t0 > DASHBOARD_TIMEOUT_S:
                lost += 1
                continue
            if times[i] < t0:  # shown before the tap was sent: the state was not the tap's
                early += 1
                continue
            skipped += states[i] != state  # coalesced away: only a later state was shown
            ms = (times[i] - t0) * 1000
            mine.append(ms)
            per_dashboard[k].append(ms)
        per_tap.append(mine)
    p99s = [p for p in (percentile(ms, 99) for ms in per_dashboard) if p is not None]
    return {
        "latencies": [ms for mine in per_tap for ms in mine],
        "per_tap": per_tap,
        "worst_p99": max(p99s) if p99s else None,
        "lost": lost,
        "skipped": skipped,
        "early": early,
    }


def write_timeline(
    path: Path,
    first_at: float,
    taps: list[tuple[str, float, Progress, float]],
    per_tap: list[list[float]],
) -> None:
    """One line per measured tap: when, which table, peer and dashboard latencies."""
    with path.open("w") as f:
        f.write(
            "t_s,monotonic_s,table,peer_ms,dashboards,"
            "dashboard_min_ms,dashboard_p50_ms,dashboard_max_ms\n"
        )
        for (table_id, t0, _state, peer), mine in sorted(
            zip(taps, per_tap, strict=True), key=lambda x: x[0][1]
        ):
            lo, mid, hi = (
                (min(mine), percentile(mine, 50), max(mine)) if mine else (None, None, None)
            )
            cells = [f"{t0 - first_at:.4f}", f"{t0:.4f}", table_id, f"{peer:.3f}", str(len(mine))]
            cells += ["" if v is None else f"{v:.3f}" for v in (lo, mid, hi)]
            f.write(",".join(cells) + "\n")


def line_fields(result: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The JSON line: the run's figures and its goals, met or not."""
    c = result["counters"]
    d = result["dashboard"]
    dash_ms = d["latencies"]
    peer, ack = result["peer_ms"], result["ack_ms"]
    gaps = result["dashboard_gaps_ms"]
    timings = result["event"]["timings"]
    out: dict[str, Any] = {
        "tables": result["tables"],
        "dashboards": args.dashboards,
        "sockets": result["phone_sockets"] + args.dashboards,
        "seconds": args.seconds,
        "warmup_s": args.warmup,
        "interval_s": args.interval,
        "ping_s": args.ping,
        "taps": result["taps"],
        "taps_total": c.get("taps_total", 0),
        "dashboard_updates": len(dash_ms),
        "dashboard_update_p50_ms": rounded(percentile(dash_ms, 50), 1),
        "dashboard_update_p99_ms": rounded(percentile(dash_ms, 99), 1),
        "dashboard_update_max_ms": rounded(max(dash_ms) if dash_ms else None, 1),
        "dashboard_update_worst_p99_ms": rounded(d["worst_p99"], 1),
        "dashboard_lost": d["lost"],
        "dashboard_skipped": d["skipped"],
        "dashboard_early": d["early"],
        "dashboard_out_of_order": result["dashboard_out_of_order"],
        "dashboard_closed": result["dashboard_closed"],
        "dashboard_messages_per_s": rounded(result["dashboard_messages_per_s"], 2),
        "dashboard_rows_per_message": rounded(result["dashboard_rows_per_message"], 1),
        "dashboard_kb_per_s": rounded(result["dashboard_kb_per_s"], 1),
        "dashboard_gap_min_ms": rounded(min(gaps) if gaps else None, 1),
        "dashboard_gap_p1_ms": rounded(percentile(gaps, 1), 1),
        "dashboard_snapshot_kb": rounded(result["snapshot_kb"], 1),
        "ack_p50_ms": rounded(percentile(ack, 50)),
        "ack_p99_ms": rounded(percentile(ack, 99)),
        "peer_p50_ms": rounded(percentile(peer, 50)),
        "peer_p99_ms": rounded(percentile(peer, 99)),
        "peer_max_ms": rounded(max(peer) if peer else None),
        "send_lag_p99_ms": rounded(percentile(result["send_lag_ms"], 99)),
        "lost": c.get("lost", 0),
        "duplicated": c.get("duplicated", 0),
        "rejected": c.get("rejected", 0),
        "version_mismatch": c.get("version_mismatch", 0),
        "connect_failures": c.get("connect_failures", 0),
        "start_failures": c.get("start_failures", 0),
        "socket_closed": c.get("socket_closed", 0),
        "games_finished": c.get("games_finished", 0),
        **cpu_fields(result),
        "clients": result["clients"],
        **machine_fields(),
        "setup_s": {k: rounded(v, 2) for k, v in timings.items()}
        | {
            "phones": rounded(result["phones_connect_s"], 2),
            "dashboards": rounded(result["dashboard_connect_s"], 2),
        },
    }
    targets = {
        "dashboard_p99_le_500ms": out["dashboard_update_p99_ms"] is not None
        and out["dashboard_update_p99_ms"] <= 500,
        "peer_p99_le_10ms": out["peer_p99_ms"] is not None and out["peer_p99_ms"] <= 10,
        "server_cpu_le_50pct": out["server_cpu_pct"] <= 50,
        "lost_0": out["lost"] == 0
        and out["rejected"] == 0
        and out["dashboard_lost"] == 0
        and out["dashboard_closed"] == 0,
    }
    if (out["other_cpu_pct"] or 0) > 25 or (out["steal_cpu_pct"] or 0) > 10:
        log(
            f"other processes used {out['other_cpu_pct']}% of a core and the hypervisor "
            f"took {out['steal_cpu_pct']}% while measuring: latencies include their noise"
        )
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out
