"""A public dashboard is a read path anyone can open: its snapshots are built once per
change of the event and served as built to every screen that asks, so a spectator's
syncs never walk every table on the worker's loop again."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import websockets

from app.events.dashboard import Dashboard
from app.events.read_models import ReadModels
from app.tables.timesource import FakeTime
from tests.conftest import RunningServer


async def _event_in_play(http: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    created = (await http.post("/api/events", json={"name": "Spectated Open", "points": 75})).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        assert added.status_code == 201, added.text
    assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
    assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
    return eid, eo


async def test_a_spectators_syncs_are_served_from_one_build_until_the_event_changes(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[str] = []
    real = ReadModels.dashboard_snapshot

    def counted(self: ReadModels, event_id: str, role: str) -> dict[str, Any]:
        builds.append(role)
        return real(self, event_id, role)

    monkeypatch.setattr(ReadModels, "dashboard_snapshot", counted)
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo = await _event_in_play(http)
        async with websockets.connect(f"{server.ws_base}/ws/events/{eid}") as ws:
            await ws.send(json.dumps({"t": "hello", "token": ""}))
            first = json.loads(await ws.recv())
            assert first["t"] == "dashboard" and first["role"] == "public"
            for _ in range(30):
                await ws.send(json.dumps({"t": "sync"}))
                again = json.loads(await ws.recv())
                assert again == first  # the same snapshot, as built
            assert builds == ["public"]

            # A late player joins: the event changed, so the next sync is built afresh
            # and shows them.
            added = await http.post(f"/api/events/{eid}/players", json={"name": "Eve"}, headers=eo)
            assert added.status_code == 201, added.text
            while json.loads(await ws.recv())["t"] != "event":
                pass  # the coalesced update every dashboard gets
            await ws.send(json.dumps({"t": "sync"}))
            fresh = json.loads(await ws.recv())
            assert fresh["t"] == "dashboard"
            assert "Eve" in {p["name"] for p in fresh["players"]}
            assert builds == ["public", "public"]


def test_a_table_change_is_a_new_build_even_with_no_screen_open() -> None:
    """A table that changed while no dashboard watched must not be served from an older
    build when the next screen opens."""
    dashboard = Dashboard("e1", FakeTime())
    made: list[int] = []

    def build() -> dict[str, Any]:
        made.append(len(made))
        return {"t": "dashboard", "build": len(made)}

    assert json.loads(dashboard.snapshot_text("public", build))["build"] == 1
    assert json.loads(dashboard.snapshot_text("public", build))["build"] == 1
    assert json.loads(dashboard.snapshot_text("eo", build))["build"] == 2  # each role its own
    dashboard.table_changed(SimpleNamespace(table_id="t1"))  # type: ignore[arg-type]
    assert json.loads(dashboard.snapshot_text("public", build))["build"] == 3
    dashboard.changed()  # the event's view changed (a pairing, a result)
    assert json.loads(dashboard.snapshot_text("public", build))["build"] == 4
