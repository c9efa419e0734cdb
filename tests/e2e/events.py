"""An event set up over the API for the browser tests: its players paired and round 1
started, every table's links at hand."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass(frozen=True)
class StartedRound:
    created: dict[str, Any]  # the event as created (its links, the EO's token)
    http: httpx.Client
    tables: list[dict[str, Any]]

    @property
    def eo(self) -> dict[str, str]:
        return {"X-EO-Token": self.created["admin_token"]}


def started_round(
    live_server: str,
    event: dict[str, Any],
    names: tuple[str, ...] = ("Ann", "Bob"),
    round_body: dict[str, Any] | None = None,
) -> StartedRound:
    """An event created with `names` registered and its round 1 paired and started."""
    http = httpx.Client(base_url=live_server)
    created = http.post("/api/events", json=event).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in names:
        assert http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo).is_success
    drafted = http.post(f"/api/events/{eid}/rounds", json=round_body or {}, headers=eo)
    assert drafted.is_success, drafted.text
    assert http.post(f"/api/events/{eid}/rounds/current/start", headers=eo).is_success
    tables = http.get(f"/api/events/{eid}/tables", headers=eo).json()
    return StartedRound(created, http, tables)


def seat_sends(
    live_server: str, table: dict[str, Any], seat: str, device: str, *commands: dict[str, Any]
) -> None:
    """A phone of `seat` (a device of its own: sequence numbers count per device) sends
    its commands over the table's socket; each must be acked."""
    from websockets.sync.client import connect

    token = table["links"][seat]["url"].split("#k=", 1)[1]
    with connect(f"{live_server.replace('http://', 'ws://')}/ws/tables/{table['id']}") as ws:
        ws.send(json.dumps({"t": "hello", "token": token, "device": device}))
        ws.recv(timeout=60)
        for seq, command in enumerate(commands, start=1):
            ws.send(json.dumps({"t": "cmd", "seq": seq, **command}))
            while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", reply


def first_seat_goes_first(live_server: str, table: dict[str, Any]) -> None:
    """Who goes first at a started round's table, settled off the clock as the round's
    start opens it: the dice rolled at the table go the first seat's way, its player
    goes first and starts deployment (their clock runs)."""
    seat_sends(
        live_server,
        table,
        "p1",
        "first-player",
        {"c": "roll", "at_table": [6, 1]},
        {"c": "choose_order", "first": True},
        {"c": "start"},
    )
