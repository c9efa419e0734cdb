"""The event of the dashboard benchmark, set up over REST as an EO does: the event, its
players from one CSV, round 1 paired and started, every table's clock started; and where
a table stands, from a dashboard row or a game view."""

from __future__ import annotations

import time
from typing import Any

import httpx

from bench.harness.report import log
from bench.harness.servers import HOST
from bench.harness.sockets import seat_token

EVENT_BODY = {"name": "Bench", "points": 75}
SETUP_TIMEOUT_S = 600.0

# A game only moves forward: (phase, turn, running side) ordered by when it happens.
PHASE_ORDER = {
    "ready": 0,
    "deployment": 1,
    "advance_deployment": 2,
    "turn": 3,
    "clock_out": 4,
    "over": 5,
}
SIDE_ORDER = {"p1": 0, "p2": 1}

Progress = tuple[int, int, int]


def progress_of(row: dict[str, Any]) -> Progress:
    """Where a table stands, from a dashboard row or a game view; later states compare higher."""
    return (
        PHASE_ORDER.get(str(row.get("phase")), -1),
        int(row.get("turn") or 0),
        SIDE_ORDER.get(str(row.get("running")), 2),
    )


# ----------------------------------------------------------------------------
# Setting the event up over REST (parent process)
# ----------------------------------------------------------------------------


def setup_event(port: int, tables: int) -> dict[str, Any]:
    """Event, 2 x tables players, round 1 paired and started; returns ids, tokens, timings."""
    timings: dict[str, float] = {}
    with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=SETUP_TIMEOUT_S) as client:

        def call(method: str, url: str, what: str, **kwargs: Any) -> Any:
            t = time.monotonic()
            response = client.request(method, url, **kwargs)
            timings[what] = time.monotonic() - t
            if response.status_code >= 300:
                raise RuntimeError(
                    f"{method} {url} answered {response.status_code}: {response.text[:300]}"
                )
            return response.json()

        created = call("POST", "/api/events", "create_s", json=EVENT_BODY)
        event_id, token = created["id"], created["admin_token"]
        eo = {"X-EO-Token": token}
        names = "\n".join(f"Bench Player {i:05d}" for i in range(2 * tables))
        imported = call(
            "POST",
            f"/api/events/{event_id}/players/import",
            "import_s",
            content=f"name\n{names}\n".encode(),
            headers={**eo, "Content-Type": "text/csv"},
        )
        if imported["errors"] or len(imported["added"]) != 2 * tables:
            raise RuntimeError(
                f"the CSV import added {len(imported['added'])} of {2 * tables} players: "
                f"{imported['errors'][:3]}"
            )
        log(f"event {event_id}: {2 * tables} players imported in {timings['import_s']:.1f} s")
        paired = call("POST", f"/api/events/{event_id}/rounds", "pair_s", json={}, headers=eo)
        games = [p for p in paired["pairings"] if p["table_id"]]
        if len(games) != tables:
            raise RuntimeError(f"round 1 has {len(games)} tables, not {tables}")
        log(f"event {event_id}: round 1 paired in {timings['pair_s']:.1f} s")
        call("POST", f"/api/events/{event_id}/rounds/current/start", "start_s", headers=eo)
        log(f"event {event_id}: round 1 started in {timings['start_s']:.1f} s")
        listed = call("GET", f"/api/events/{event_id}/tables", "tables_s", headers=eo)
        log(f"event {event_id}: table links read in {timings['tables_s']:.1f} s")
        # Each table settles who goes first off the clock; here the EO starts every
        # table's clock over it (the first seat's player goes first), as for a stuck table.
        t = time.monotonic()
        for row in listed:
            if row.get("round") == 1:
                url = f"/api/events/{event_id}/tables/{row['id']}/command"
                client.post(url, json={"c": "start"}, headers=eo).raise_for_status()
        timings["clocks_s"] = time.monotonic() - t
        log(f"event {event_id}: every table's clock started in {timings['clocks_s']:.1f} s")
    rows = [
        (t["id"], seat_token(t["links"]["p1"]["url"]), seat_token(t["links"]["p2"]["url"]))
        for t in listed
        if t.get("round") == 1
    ]
    if len(rows) != tables:
        raise RuntimeError(f"GET /tables lists {len(rows)} round-1 tables, not {tables}")
    return {"event_id": event_id, "token": token, "rows": rows, "timings": timings}
