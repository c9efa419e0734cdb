"""What reading a table may cost: log pages within a budget per table link and per
address, shared by socket and REST; a page read off the loop while the table plays on;
the EO's REST commands to a table within the EO's command budget."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.api.budgets import READ_REFUSED
from app.store.log_entry import LogEntry
from app.store.log_rows import log_rows
from app.tables.log_page import LogPages
from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, start_server, token_of
from tests.first_player import first_seat_goes_first


@pytest.fixture
def io_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def budgeted(
    database_url: str, fake_time: FakeTime, io_time: FakeTime
) -> AsyncIterator[RunningServer]:
    """Reads within 3 a link at once (1 a second) and 5 an address at once; commands
    within 3 a seat at once (1 a second); the socket clock is the test's."""
    running = await start_server(
        database_url,
        fake_time,
        io_time=io_time,
        read_per_s=1.0,
        read_burst=3.0,
        client_read_per_s=1.0,
        client_read_burst=5.0,
        command_rate_per_s=1.0,
        command_burst=3.0,
    )
    yield running
    await running.stop()


@pytest.fixture
async def budgeted_phone(budgeted: RunningServer, phone: PhoneFactory) -> PhoneFactory:
    async def connect(table_id: str, token: str, device: str) -> Phone:
        return await phone(table_id, token, device, at=budgeted)

    return connect


def _app(server: RunningServer) -> Any:
    return server.server.config.app


async def _log(screen: Phone, after: int = 0) -> dict[str, Any]:
    """Ask for a page: the `log`, or the `error` that refused it."""
    await screen.send({"t": "log", "after": after})
    while True:
        message = await screen.recv()
        if message["t"] in ("log", "error"):
            return message


async def _pong(screen: Phone, ping_id: int) -> None:
    await screen.send({"t": "ping", "id": ping_id, "client_ms": 0})
    while (message := await screen.recv())["t"] != "pong":
        assert message["t"] != "error", message
    assert message["id"] == ping_id


async def test_a_watch_links_log_pages_are_refused_past_its_budget_and_the_socket_stays(
    budgeted: RunningServer, budgeted_phone: PhoneFactory, io_time: FakeTime
) -> None:
    links = await create_table(budgeted.base, clock_minutes=60)
    watch = [await budgeted_phone(links["id"], token_of(links["watch"]), f"w{n}") for n in (1, 2)]
    answers = [await _log(watch[n % 2]) for n in range(5)]
    assert [a["t"] for a in answers] == ["log", "log", "log", "error", "error"]
    assert {a["code"] for a in answers[3:]} == {"rate_limited"}
    assert answers[3]["message"] == READ_REFUSED
    await _pong(watch[1], 1)  # still open, and answering
    io_time.advance(1_000)  # one more page a second
    assert (await _log(watch[0]))["t"] == "log"
    assert (await _log(watch[1]))["t"] == "error"


async def test_a_seat_reads_on_when_spectators_spent_the_watch_links_budget(
    budgeted: RunningServer, budgeted_phone: PhoneFactory
) -> None:
    links = await create_table(budgeted.base, clock_minutes=60)
    watch = await budgeted_phone(links["id"], token_of(links["watch"]), "w")
    p1 = await budgeted_phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    assert [(await _log(watch))["t"] for _ in range(4)] == ["log"] * 3 + ["error"]
    assert (await p1.command("start"))["t"] == "ack"
    page = await _log(p1)
    assert page["t"] == "log" and [e["c"] for e in page["entries"]] == ["start"]


async def test_rest_log_pages_share_the_sockets_budget(
    budgeted: RunningServer, budgeted_phone: PhoneFactory, io_time: FakeTime
) -> None:
    links = await create_table(budgeted.base, clock_minutes=60)
    watch = await budgeted_phone(links["id"], token_of(links["watch"]), "w")
    url = f"/api/tables/{links['id']}/log"
    as_watch = {"X-Table-Token": token_of(links["watch"])}
    async with httpx.AsyncClient(base_url=budgeted.base) as http:
        assert (await _log(watch))["t"] == "log"
        assert (await _log(watch))["t"] == "log"
        assert (await http.get(url, headers=as_watch)).status_code == 200
        refused = await http.get(url, headers=as_watch)
        assert refused.status_code == 429
        assert refused.json() == {"detail": READ_REFUSED, "code": "rate_limited"}
        assert int(refused.headers["retry-after"]) >= 1
        assert (await _log(watch))["code"] == "rate_limited"
        as_p2 = {"X-Table-Token": token_of(links["p2"]["url"])}
        assert (await http.get(url, headers=as_p2)).json()["entries"] == []
        io_time.advance(1_000)
        assert (await http.get(url, headers=as_watch)).status_code == 200


async def test_an_address_reading_many_tables_is_limited_across_them(
    budgeted: RunningServer, budgeted_phone: PhoneFactory
) -> None:
    tables = [await create_table(budgeted.base, clock_minutes=60) for _ in range(3)]
    screens = [await budgeted_phone(t["id"], token_of(t["watch"]), "w") for t in tables]
    answers = [(await _log(screens[n % 3]))["t"] for n in range(6)]
    assert answers == ["log"] * 5 + ["error"]  # 2 + 2 + 1 pages: the address's 5
    async with httpx.AsyncClient(base_url=budgeted.base) as http:
        other = tables[2]
        response = await http.get(
            f"/api/tables/{other['id']}/log", headers={"X-Table-Token": token_of(other["eo"])}
        )
    assert response.status_code == 429


async def test_a_seats_tap_is_acked_while_a_log_page_is_read(
    budgeted: RunningServer, budgeted_phone: PhoneFactory
) -> None:
    """A page not built yet is read from the store on a thread; meanwhile the table plays
    on: the tap is acked, and the watcher gets its event before its page."""
    links = await create_table(budgeted.base, clock_minutes=60)
    release = threading.Event()
    reading = threading.Event()
    engine = _app(budgeted).state.hub.store.engine

    def slow_read(table_id: str, after: int, limit: int) -> list[LogEntry]:
        reading.set()
        release.wait(10)
        return log_rows(engine, table_id, after, limit)

    pages = _app(budgeted).state.log_pages
    _app(budgeted).state.log_pages = LogPages(slow_read)
    try:
        watch = await budgeted_phone(links["id"], token_of(links["watch"]), "w")
        p1 = await budgeted_phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
        assert (await p1.command("start"))["t"] == "ack"
        await watch.send({"t": "log"})
        assert await asyncio.to_thread(reading.wait, 5)
        assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"
        await _pong(p1, 7)
        await watch.wait_version(2)
        assert [m["t"] for m in watch.received] == ["state", "event", "event"]
        release.set()
        page = await watch.recv_until("log")
        assert [e["c"] for e in page["entries"]] == ["start"] and page["version"] == 1
    finally:
        release.set()
        _app(budgeted).state.log_pages.close()
        _app(budgeted).state.log_pages = pages


async def _event_table(
    http: httpx.AsyncClient, server: RunningServer
) -> tuple[str, dict[str, Any], dict[str, str]]:
    created = (await http.post("/api/events", json={"name": "Budget Open", "points": 75})).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob"):
        added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        assert added.status_code == 201, added.text
    assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
    assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    await first_seat_goes_first(_app(server).state.hub.rooms[table["id"]])  # its clock runs
    return eid, table["links"], eo


async def test_the_eos_rest_commands_to_a_table_are_throttled(
    budgeted: RunningServer, io_time: FakeTime
) -> None:
    """An EO script pausing and resuming a table in a loop: past the EO's command budget
    at that table, 429 and nothing logged; a pause of a paused table is refused and
    logs nothing either."""
    async with httpx.AsyncClient(base_url=budgeted.base) as http:
        eid, links, eo = await _event_table(http, budgeted)
        url = f"/api/events/{eid}/tables/{links['id']}/command"
        room = _app(budgeted).state.hub.rooms[links["id"]]
        assert (await http.post(url, json={"c": "pause"}, headers=eo)).status_code == 200
        version = room.version
        again = await http.post(url, json={"c": "pause"}, headers=eo)
        assert again.status_code == 400 and room.version == version
        assert (await http.post(url, json={"c": "resume"}, headers=eo)).status_code == 200
        refused = await http.post(url, json={"c": "pause"}, headers=eo)  # the 4th of 3
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        assert room.version == version + 1 and not room.game.paused
        io_time.advance(1_000)
        paused = await http.post(url, json={"c": "pause"}, headers=eo)
        assert paused.status_code == 200 and paused.json()["v"] == version + 2
        assert (await http.post(url, json={"c": "resume"}, headers=eo)).status_code == 429


async def test_the_eos_screens_and_rest_commands_share_one_budget(
    budgeted: RunningServer, budgeted_phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=budgeted.base) as http:
        eid, links, eo = await _event_table(http, budgeted)
        eo_screen = await budgeted_phone(links["id"], token_of(links["eo"]), "eo")
        url = f"/api/events/{eid}/tables/{links['id']}/command"
        assert (await http.post(url, json={"c": "pause"}, headers=eo)).status_code == 200
        assert (await eo_screen.command("resume"))["t"] == "ack"
        assert (await http.post(url, json={"c": "pause"}, headers=eo)).status_code == 200
        refused = await eo_screen.command("resume")
        assert refused["t"] == "error" and refused["code"] == "rate_limited"
        assert (await http.post(url, json={"c": "resume"}, headers=eo)).status_code == 429
