"""The phone processes' results of one measured window, put together: their lists end to
end, their counters summed, the CPU they used added up; and the server's CPU per tap."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def merge_results(
    results: Iterable[dict[str, Any]], keys: Iterable[str]
) -> tuple[dict[str, list[Any]], dict[str, int], float]:
    """Each of `keys` (a list in every result) end to end, the counters summed, and the
    client CPU (% of one core) the processes used together."""
    merged: dict[str, list[Any]] = {key: [] for key in keys}
    counters: dict[str, int] = {}
    client_cpu = 0.0
    for result in results:
        for key in merged:
            merged[key] += result[key]
        for key, value in result["counters"].items():
            counters[key] = counters.get(key, 0) + value
        client_cpu += result["client_cpu_pct"] or 0.0
    return merged, counters, client_cpu


def cpu_ms_per_tap(cpu0: tuple[float, ...], cpu1: tuple[float, ...], taps: int) -> float | None:
    """The server's CPU ms per measured tap between two `cpu_sample`s."""
    return (cpu1[1] - cpu0[1]) * 1000 / taps if taps else None
