"""Several workers: the DC8 round end is called once, on time, whichever worker started
the round and whichever is still alive."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.events.round_end import LOOK_AGAIN_MS
from app.events.service import EventService
from app.tables.placement import Placement
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from tests.conftest import RunningServer
from tests.first_player import first_seat_goes_first_over_socket
from tests.integration.workers_support import poll, two_workers_in_loop

pytestmark = pytest.mark.postgres

MIN = 60_000


@pytest.fixture
async def pair() -> AsyncIterator[tuple[RunningServer, RunningServer]]:
    async with two_workers_in_loop() as both:
        yield both


def state(server: RunningServer, name: str) -> Any:
    return getattr(server.server.config.app.state, name)  # type: ignore[attr-defined]


async def service_of(server: RunningServer) -> EventService:
    """The worker's event use cases, once its organiser's side is open (a worker that no
    request reached opens it by itself soon after its start: app.organiser_door)."""
    await state(server, "organiser_door").opened()
    service: EventService = state(server, "events")
    return service


async def _started_round(base: str) -> str:
    """An event of 4 players on 20-minute clocks (DC1, 0 points), its round 1 started."""
    async with httpx.AsyncClient(base_url=base) as http:
        body = {"name": "Two workers", "format": "sr2019", "points": 0}
        created = (await http.post("/api/events", json=body)).json()
        eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
        for name in ("Ann", "Bob", "Cy", "Di"):
            added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
            assert added.status_code == 201, added.text
        paired = await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)
        assert paired.status_code == 201, paired.text
        started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
        assert started.status_code == 200, started.text
        for table in (await http.get(f"/api/events/{eid}/tables", headers=eo)).json():
            await first_seat_goes_first_over_socket(base, table)  # the round's end is set
    return str(eid)


async def _long_games_to_the_end(
    rooms: list[TableRoom], time: FakeTime, placement: Placement
) -> None:
    """Both games keep more than 5 minutes combined to the round's end (the EO added
    time, DC5): each is a tie there."""
    for _ in range(2):
        time.advance(19 * MIN)
        for room in rooms:
            await placement.execute(room, c.Role.EO, "", 0, c.AdjustClock(Side.P1, 20 * MIN))
    time.advance(2 * MIN)


def _ties_in_log(room: TableRoom) -> int:
    log = room.store.log(room.table_id)
    return sum(1 for e in log if json.loads(e.command_json).get("c") == "call_tie")


async def test_the_round_end_is_called_once_though_every_worker_keeps_a_timer__DC8(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    a, b = pair
    eid = await _started_round(a.base)
    service_a = await service_of(a)
    service_b = await service_of(b)

    async def b_keeps_a_timer() -> bool:
        return eid in service_b.round_ends.timers

    await poll(b_keeps_a_timer, "worker B's timer for the round A started", 5.0)
    timers = [service_a.round_ends.timers[eid], service_b.round_ends.timers[eid]]
    rooms = service_a.tables.rooms(eid)
    assert len(rooms) == 2
    time: FakeTime = service_a.time  # type: ignore[assignment]
    await _long_games_to_the_end(rooms, time, service_a.hub.placement)

    async def called() -> bool:
        entry = service_a.book.current_round(eid)
        return entry is not None and entry.end_calls_json is not None

    await poll(called, "the round's end called", 5.0)
    time.advance(LOOK_AGAIN_MS)  # the worker that found it claimed looks again
    done = await asyncio.gather(*timers, return_exceptions=True)
    # Each timer ended by itself, or was let go once the other worker's call was heard.
    assert all(r is None or isinstance(r, asyncio.CancelledError) for r in done)
    assert [a.action for a in service_a.book.actions(eid)].count("round_end") == 1
    entry = service_b.book.current_round(eid)
    assert entry is not None and entry.end_calls_json is not None
    assert set(json.loads(entry.end_calls_json).values()) == {"tie"}
    assert [_ties_in_log(room) for room in rooms] == [1, 1]
    assert await service_b.round_clock.call_end(eid) == json.loads(entry.end_calls_json)


async def test_the_round_ends_on_time_when_the_worker_that_started_it_is_gone__DC8(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    a, b = pair
    eid = await _started_round(a.base)
    service_b = await service_of(b)

    async def b_keeps_a_timer() -> bool:
        return eid in service_b.round_ends.timers

    await poll(b_keeps_a_timer, "worker B's timer for the round A started", 5.0)
    time: FakeTime = service_b.time  # type: ignore[assignment]
    await a.stop()  # A's tables go to B at once (a clean stop lets its leases go)
    rooms = service_b.tables.rooms(eid)
    # applied by B, their new owner
    await _long_games_to_the_end(rooms, time, service_b.hub.placement)
    await service_b.round_ends.timers[eid]
    entry = service_b.book.current_round(eid)
    assert entry is not None and entry.end_calls_json is not None
    assert set(json.loads(entry.end_calls_json).values()) == {"tie"}
    assert [_ties_in_log(room) for room in rooms] == [1, 1]
