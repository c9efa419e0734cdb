"""A start serves the tables' phones before it imports the organiser's side (the event's
use cases, the pages and REST: app.organiser_door), and a page asked for meanwhile opens
it and is answered, not refused."""

from __future__ import annotations

import asyncio
import contextlib

import httpx

from app.organiser_door import QUIET_MS
from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, start_server, token_of


async def test_a_start_serves_a_running_table_first_and_a_page_opens_the_rest(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime, database_url: str
) -> None:
    links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    p1 = await phone(tid, token_of(links["p1"]["url"]), "phone-1")
    await phone(tid, token_of(links["p2"]["url"]), "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    fake_time.advance(30_000)
    assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"
    await server.stop()

    # The sockets' clock stands still: the start's phones never settle, so only a request
    # that needs the organiser's side opens its door.
    again = await start_server(database_url, fake_time, io_time=FakeTime())
    try:
        app = again.server.config.app
        door = app.state.organiser_door
        async with httpx.AsyncClient(base_url=again.base) as http:
            assert (await http.get("/health")).status_code == 200
        back_1 = await phone(tid, token_of(links["p1"]["url"]), "phone-1", at=again)
        back_2 = await phone(tid, token_of(links["p2"]["url"]), "phone-2", at=again)
        assert back_1.version == back_2.version == p1.version
        fake_time.advance(20_000)
        assert (await back_2.command("pass_turn", expect="p2"))["t"] == "ack"
        await back_1.wait_version(back_2.version)
        assert back_1.game["running"] == "p1"  # advance deployment: the first player's
        assert not door.is_open
        assert not hasattr(app.state, "events")
        assert not any(getattr(r, "path", "") == "/api/tables/{table_id}/log" for r in app.routes)

        async with httpx.AsyncClient(base_url=again.base) as http:
            token = {"X-Table-Token": token_of(links["p1"]["url"])}
            log = await http.get(f"/api/tables/{tid}/log", headers=token)
        assert log.status_code == 200, log.text
        assert door.is_open and app.state.events is not None
        assert [e["v"] for e in log.json()["entries"]][-1] == back_2.version
    finally:
        with contextlib.suppress(Exception):
            await again.stop()


async def test_a_server_no_request_reaches_opens_the_organisers_side_by_itself(
    fake_time: FakeTime, database_url: str
) -> None:
    # Its round timers must run (DC8: a round ends on time though nobody asks for a page).
    sockets_time = FakeTime()
    running = await start_server(database_url, fake_time, io_time=sockets_time)
    try:
        door = running.server.config.app.state.organiser_door
        assert not door.is_open
        for _ in range(500):  # the door's own check comes every TICK_S; nothing asks for it
            if door.is_open:
                break
            sockets_time.advance(QUIET_MS)  # no socket opened or closed for so long
            await asyncio.sleep(0.02)
        assert door.is_open
        assert running.server.config.app.state.events.round_clock is not None
    finally:
        with contextlib.suppress(Exception):
            await running.stop()
