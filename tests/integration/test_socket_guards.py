"""Heartbeat, rate limit, sockets per table, origins, replaced links, slow phones."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets

from app.tables.timesource import FakeTime
from tests.conftest import RunningServer, create_table, start_server, token_of


@pytest.fixture
def io_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def guarded(
    database_url: str, fake_time: FakeTime, io_time: FakeTime
) -> AsyncIterator[RunningServer]:
    """The server with its real limits, and a socket clock the test moves."""
    running = await start_server(
        database_url,
        fake_time,
        io_time=io_time,
        heartbeat_ms=10_000,
        rate_per_s=15.0,
        rate_burst=40.0,
        sockets_per_table=4,
    )
    yield running
    await running.stop()


async def _join(server: RunningServer, table_id: str, token: str, **headers: str) -> Any:
    ws = await websockets.connect(
        f"{server.ws_base}/ws/tables/{table_id}", additional_headers=headers or None
    )
    await ws.send(json.dumps({"t": "hello", "token": token, "device": "guard"}))
    return ws


async def _closed_code(ws: Any) -> int | None:
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    return ws.close_code  # type: ignore[no-any-return]


async def test_a_silent_socket_is_dropped_within_ten_seconds(
    guarded: RunningServer, io_time: FakeTime
) -> None:
    links = await create_table(guarded.base, clock_minutes=60)
    quiet = await _join(guarded, links["id"], token_of(links["p1"]["url"]))
    chatty = await _join(guarded, links["id"], token_of(links["p2"]["url"]))
    await quiet.recv()
    await chatty.recv()
    for step in (4_000, 4_000, 1_000):  # 9 s of silence: still there
        io_time.advance(step)
        await chatty.send(json.dumps({"t": "ping", "id": 1, "client_ms": 0}))
        assert json.loads(await chatty.recv())["t"] == "pong"
    await quiet.send(json.dumps({"t": "ping", "id": 1, "client_ms": 0}))
    assert json.loads(await quiet.recv())["t"] == "pong"  # heard at 9 s: the count restarts
    for step in (4_000, 4_000, 2_000):  # now 10 s of silence: gone, by the 10th second
        io_time.advance(step)
        await chatty.send(json.dumps({"t": "ping", "id": 1, "client_ms": 0}))
        assert json.loads(await chatty.recv())["t"] == "pong"
    assert await _closed_code(quiet) == 4408
    await chatty.send(json.dumps({"t": "ping", "id": 2, "client_ms": 0}))
    assert json.loads(await chatty.recv())["t"] == "pong"
    await chatty.close()


async def test_message_flood_is_limited_with_an_error(guarded: RunningServer) -> None:
    links = await create_table(guarded.base, clock_minutes=60)
    ws = await _join(guarded, links["id"], token_of(links["p1"]["url"]))
    await ws.recv()
    for n in range(60):
        await ws.send(json.dumps({"t": "ping", "id": n, "client_ms": 0}))
    replies = [json.loads(await ws.recv()) for _ in range(60)]
    limited = [r for r in replies if r["t"] == "error"]
    assert len(limited) == 20 and all(r["code"] == "rate_limited" for r in limited)
    assert sum(r["t"] == "pong" for r in replies) == 40
    await ws.close()


async def test_sockets_per_table_are_limited(guarded: RunningServer) -> None:
    links = await create_table(guarded.base, clock_minutes=60)
    token = token_of(links["watch"])
    open_ = [await _join(guarded, links["id"], token) for _ in range(4)]
    for ws in open_:
        assert json.loads(await ws.recv())["t"] == "state"
    extra = await _join(guarded, links["id"], token)
    reply = json.loads(await extra.recv())
    assert reply["code"] == "too_many" and "4" in reply["message"]
    assert await _closed_code(extra) == 4429
    for ws in open_:
        await ws.close()


async def test_screens_per_seat_link_are_limited_in_plain_words(guarded: RunningServer) -> None:
    """A seat's link opens on 4 screens at most; the fifth is told so without naming a
    seat ("P1"): the person holding the link reads it."""
    links = await create_table(guarded.base, clock_minutes=60)
    token = token_of(links["p1"]["url"])
    open_ = [await _join(guarded, links["id"], token) for _ in range(4)]
    for ws in open_:
        assert json.loads(await ws.recv())["t"] == "state"
    extra = await _join(guarded, links["id"], token)
    reply = json.loads(await extra.recv())
    assert reply["code"] == "too_many"
    assert reply["message"] == "this link has 4 screens open already: close one of them first"
    assert await _closed_code(extra) == 4429
    for ws in open_:
        await ws.close()


async def test_foreign_origins_are_refused(guarded: RunningServer) -> None:
    links = await create_table(guarded.base, clock_minutes=60)
    with pytest.raises(websockets.InvalidStatus):
        await _join(guarded, links["id"], token_of(links["p1"]["url"]), Origin="https://evil.test")
    host = guarded.base.removeprefix("http://")
    ws = await _join(guarded, links["id"], token_of(links["p1"]["url"]), Origin=f"http://{host}")
    assert json.loads(await ws.recv())["t"] == "state"
    await ws.close()


async def test_eo_replaces_a_lost_phones_link(guarded: RunningServer) -> None:
    links = await create_table(guarded.base, clock_minutes=60)
    old = token_of(links["p1"]["url"])
    phone = await _join(guarded, links["id"], old)
    await phone.recv()
    async with httpx.AsyncClient(base_url=guarded.base) as http:
        refused = await http.post(
            f"/api/tables/{links['id']}/rotate",
            json={"link": "p1"},
            headers={"X-Table-Token": token_of(links["p2"]["url"])},
        )
        assert refused.status_code == 403
        rotated = await http.post(
            f"/api/tables/{links['id']}/rotate",
            json={"link": "p1"},
            headers={"X-Table-Token": token_of(links["eo"])},
        )
    assert rotated.status_code == 200
    new = token_of(rotated.json()["p1"]["url"])
    assert new != old and len(new) >= 22  # 192 random bits
    assert (await _closed_code(phone)) == 4401
    again = await _join(guarded, links["id"], old)
    assert json.loads(await again.recv())["code"] == "forbidden"
    fresh = await _join(guarded, links["id"], new)
    assert json.loads(await fresh.recv())["role"] == "p1"
    await fresh.close()
