"""What the soak reports: a progress line every PROGRESS_EVERY_S, and the JSON line with
its counts, readings and targets."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bench.harness.measure import machine_busy_seconds, percentile, rounded
from bench.harness.report import log, machine_fields
from bench.harness.servers import ServerProcess
from bench.soak_hall import MAX_NOTES, Soak

PROGRESS_EVERY_S = 10.0


CpuSample = tuple[float, float, float, float]  # wall, server CPU, client CPU, machine busy


def cpu_sample(server: ServerProcess) -> CpuSample:
    return time.perf_counter(), server.cpu_seconds(), time.process_time(), machine_busy_seconds()


@dataclass(slots=True)
class Readings:
    """What the run measured besides the soak's counts: the report's raw figures."""

    live: int  # tables set up
    setup_counts: Counter[str]  # the counts when the soak began
    cpu0: CpuSample
    cpu1: CpuSample
    rss_start: float
    rss_end: float
    rss_max: float


class Progress:
    """A line on stderr every PROGRESS_EVERY_S: the counts, and the last window's figures."""

    def __init__(self, soak: Soak, cpu0: CpuSample) -> None:
        assert soak.t_start is not None
        self.soak = soak
        self.cpu_last = cpu0
        self.next_at = soak.t_start + PROGRESS_EVERY_S
        self.seen_resyncs = 0
        self.seen_lags = 0

    def tick(self, now: float, rss: float) -> None:
        if now < self.next_at:
            return
        soak, c = self.soak, self.soak.c
        assert soak.t_start is not None
        cpu_now = cpu_sample(soak.server)
        wall = cpu_now[0] - self.cpu_last[0]
        d_server, d_client, d_machine = (
            (cpu_now[k] - self.cpu_last[k]) / wall * 100 for k in (1, 2, 3)
        )
        away = sum(p.away or p.ws is None for p in soak.phones())
        blocked = sum(t.unresolved > 0 for t in soak.tables())
        p99 = percentile(soak.resync_ms[self.seen_resyncs :], 99)
        lag = percentile(soak.lag_ms[self.seen_lags :], 99)
        self.seen_resyncs, self.seen_lags = len(soak.resync_ms), len(soak.lag_ms)
        log(
            f"t+{now - soak.t_start:.0f}s taps {c['taps']} lost {c['lost']} "
            f"dup {c['duplicated']} rejected {c['rejected']} "
            f"reconnects {c['reconnects']} (away {away}, waiting on an ack "
            f"{blocked} tables), games {c['games_finished']}; last 10 s: resync p99 "
            f"{'-' if p99 is None else f'{p99:.0f}'} ms, client lag p99 "
            f"{'-' if lag is None else f'{lag:.0f}'} ms; "
            f"cpu: server {d_server:.0f}% client {d_client:.0f}% "
            f"other {max(0.0, d_machine - d_server - d_client):.0f}%; "
            f"rss {rss:.1f} MB"
        )
        self.cpu_last = cpu_now
        self.next_at += PROGRESS_EVERY_S


def log_notes(soak: Soak) -> None:
    for n in soak.notes[:MAX_NOTES]:
        log(f"note: {n}")
    if soak.c["notes"] > len(soak.notes):
        log(f"... {soak.c['notes'] - len(soak.notes)} more notes")


def report(soak: Soak, r: Readings) -> dict[str, Any]:
    """The JSON line: the counts, the readings, and which targets were met."""
    cfg, c = soak.cfg, soak.c
    wall = r.cpu1[0] - r.cpu0[0]
    server_cpu = (r.cpu1[1] - r.cpu0[1]) / wall * 100
    client_cpu = (r.cpu1[2] - r.cpu0[2]) / wall * 100
    machine_cpu = (r.cpu1[3] - r.cpu0[3]) / wall * 100
    soak_counts = c - r.setup_counts
    drops = {k.removeprefix("drops_"): v for k, v in sorted(c.items()) if k.startswith("drops_")}
    closes = {
        k.removeprefix("server_closes_"): v
        for k, v in sorted(c.items())
        if k.startswith("server_closes_")
    }
    resync_p99 = percentile(soak.resync_ms, 99)
    growth = (r.rss_end - r.rss_start) / r.rss_start * 100 if r.rss_start else None
    out: dict[str, Any] = {
        "tables": r.live,
        "sockets": 2 * r.live,
        "seconds": cfg.seconds,
        "seed": cfg.seed,
        "taps": soak_counts["taps"],
        "taps_sent": soak_counts["taps_sent"],
        "lost": c["lost"],
        "lost_unanswered": c["lost_unanswered"],
        "lost_not_shown": c["lost_not_shown"],
        "duplicated": c["duplicated"],
        "rejected": c["rejected"],
        "reconnects": c["reconnects"],
        "drops": drops,
        "server_closes": closes,
        "resends": c["resends"],
        "resent_acked_dup": c["resent_acked_dup"],
        "resent_acked_fresh": c["resent_acked_fresh"],
        "resyncs": len(soak.resync_ms),
        "resync_p50_ms": rounded(percentile(soak.resync_ms, 50)),
        "resync_p99_ms": rounded(resync_p99),
        "resync_max_ms": rounded(max(soak.resync_ms) if soak.resync_ms else None),
        "resync_events_max": max(soak.resync_events, default=0),
        "resync_incomplete": c["resync_incomplete"],
        "client_lag_p99_ms": rounded(percentile(soak.lag_ms, 99), 1),
        "client_lag_max_ms": rounded(max(soak.lag_ms, default=0.0), 1),
        "event_gaps": c["event_gaps"],
        "state_behind": c["state_behind"],
        "stray_acks": c["stray_acks"],
        "redelivered": c["redelivered"],
        "conflicts": c["conflicts"],
        "pong_late": c["pong_late"],
        "connect_failures": c["connect_failures"],
        "server_errors": c["server_errors"],
        "client_errors": c["client_errors"],
        "unsettled_tables": c["unsettled_tables"],
        "setup_failures": c["create_failures"] + c["tables_discarded"],
        "games_finished": c["games_finished"],
        "tap_slots_skipped": {
            "phone_away": c["slots_phone_away"],
            "waiting_ack": c["slots_waiting_ack"],
            "no_game": c["slots_no_game"],
        },
        "tables_created": soak_counts["tables_created"],
        "rss_start_mb": rounded(r.rss_start, 1),
        "rss_end_mb": rounded(r.rss_end, 1),
        "rss_max_mb": rounded(r.rss_max, 1),
        "rss_growth_pct": rounded(growth, 1),
        "server_cpu_pct": rounded(server_cpu, 1),
        "client_cpu_pct": rounded(client_cpu, 1),
        "other_cpu_pct": rounded(max(0.0, machine_cpu - server_cpu - client_cpu), 1),
        **machine_fields(),
    }
    targets = {
        "lost_0": out["lost"] == 0 and out["rejected"] == 0,
        "duplicated_0": out["duplicated"] == 0,
        "resync_p99_le_1000ms": resync_p99 is not None and resync_p99 <= 1000,
        "rss_growth_le_10pct": growth is not None and growth <= 10,
    }
    out["targets_met"] = targets
    out["all_targets_met"] = all(targets.values())
    return out
