"""Several workers: what a table's screens see of each other wherever their sockets
landed: who is at the table (presence), and the pre-game's change of seats."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets

from tests.conftest import Phone, RunningServer, create_table, token_of
from tests.integration.event_day_games import LoadedDice
from tests.integration.workers_support import two_workers_in_loop

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pair() -> AsyncIterator[tuple[RunningServer, RunningServer]]:
    async with two_workers_in_loop() as both:
        yield both


async def connect(base: str, table_id: str, token: str, device: str) -> Phone:
    ws = await websockets.connect(f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}")
    hello = {"t": "hello", "token": token, "device": device, "presence": True}
    await ws.send(json.dumps(hello))
    phone = Phone(ws=ws, device=device)
    await phone.recv_until("state")
    return phone


async def presence_becomes(phone: Phone, seat: str, online: bool, devices: int) -> None:
    while True:
        message = await phone.recv_until("presence")
        if message["seats"][seat] == {"online": online, "devices": devices}:
            return


async def test_presence_reaches_a_seat_on_another_worker_and_a_gone_phone_is_offline(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    a, b = pair
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    p1 = await connect(a.base, tid, token_of(links["p1"]["url"]), "phone-1")
    p2 = await connect(b.base, tid, token_of(links["p2"]["url"]), "phone-2")
    await presence_becomes(p2, "p1", True, 1)  # P1's phone is on the other worker
    await presence_becomes(p1, "p2", True, 1)
    second = await connect(b.base, tid, token_of(links["p1"]["url"]), "tablet-1")
    await presence_becomes(p2, "p1", True, 2)  # one phone on each worker: two devices
    await presence_becomes(p1, "p1", True, 2)
    await second.ws.close()
    await presence_becomes(p1, "p1", True, 1)
    await p1.ws.close()
    await presence_becomes(p2, "p1", False, 0)  # "Opponent offline", on the other worker
    await p2.ws.close()


async def test_a_worker_gone_takes_its_screens_presence_with_it(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    a, b = pair
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    p1 = await connect(a.base, tid, token_of(links["p1"]["url"]), "phone-1")
    await connect(b.base, tid, token_of(links["p2"]["url"]), "phone-2")
    await presence_becomes(p1, "p2", True, 1)
    screens = a.server.config.app.state.hub.rooms[tid].screens  # type: ignore[attr-defined]
    cluster = a.server.config.app.state.cluster  # type: ignore[attr-defined]
    worker_b = b.server.config.app.state.cluster.worker_id  # type: ignore[attr-defined]
    assert worker_b in screens.elsewhere
    screens.forget([cluster.worker_id])  # B's lease lapsed: it is not alive any more
    await presence_becomes(p1, "p2", False, 0)
    await p1.ws.close()


async def side_becomes(phone: Phone, role: str) -> None:
    while phone.role != role:
        await phone.recv_until("state")


async def _event_table(base: str) -> tuple[httpx.AsyncClient, dict[str, Any], dict[str, str]]:
    http = httpx.AsyncClient(base_url=base)
    body = {"name": "Pre-game night", "format": "sr2019", "lists": 2, "pregame": True}
    created = (await http.post("/api/events", json=body)).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name, lists in (("Ann", "Haley Prime\nStryker 3"), ("Bob", "Kreoss\nSeverius")):
        added = await http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": lists}, headers=eo
        )
        assert added.status_code == 201, added.text
    paired = await http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.status_code == 200, started.text
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    return http, table, eo


async def test_the_pregame_change_of_seats_reaches_screens_on_a_worker_that_follows(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    """Both seats' phones on the worker that does not own the table: the starting roll's
    winner goes first, so the seats change sides, and each screen gets the table afresh
    with its new side, as screens on the owner do."""
    a, b = pair
    http, table, _ = await _event_table(a.base)  # A opened the round's table: A owns it
    tid = table["id"]
    first = await connect(b.base, tid, token_of(table["links"]["p1"]["url"]), "first")
    second = await connect(b.base, tid, token_of(table["links"]["p2"]["url"]), "second")
    lists = {"first": first.game["pregame"]["mine"]["choices"][0]}
    lists["second"] = second.game["pregame"]["mine"]["choices"][0]
    for seat_phone in (first, second):
        chose = await seat_phone.command("choose_list", list=lists[seat_phone.device])
        assert chose["t"] == "ack"
    for seat_phone in (first, second):
        choices = seat_phone.game["pregame"]["objective_choices"]
        assert (await seat_phone.command("choose_objective", objective=choices[0]))["t"] == "ack"
    room = a.server.config.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    room.dice = LoadedDice([2, 5])  # the second seat wins the starting roll
    await first.command("roll")
    await second.command("roll")
    await first.wait_version(second.version)
    assert first.game["pregame"]["winner"] == "p2"
    assert (await second.command("choose_order", first=True))["t"] == "ack"
    await side_becomes(first, "p2")
    await side_becomes(second, "p1")
    assert first.game["pregame"]["step"] == "edge"
    await http.aclose()
    for seat_phone in (first, second):
        await seat_phone.ws.close()
