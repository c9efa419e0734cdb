"""A socket that is gone leaves nothing for the garbage collector: its reference counts free
it (app.sockets), so the hall's phones coming back after a Wi-Fi drop cost no walk of
everything the server holds (app.collector; app.main counts only the tables let go).

Every collection meanwhile keeps what it found (`gc.DEBUG_SAVEALL`): the server's own
pacer collects every 50 ms, and would otherwise free such a cycle before the test saw it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import Callable, Iterator

import websockets

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, start_server, token_of

#: The server's side of a socket: uvicorn's protocols, the socket library's server side,
#: and the app's own objects.
SERVER_SIDE = ("app.", "uvicorn.", "httptools.", "websockets.server", "websockets.http11")


async def _until(done: Callable[[], bool], what: str) -> None:
    for _ in range(500):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the server never saw {what}")


def _server_side_garbage() -> list[str]:
    """What a full collection finds unreachable of the server's side, by type."""
    gc.unfreeze()  # the pacer froze what lived past a young collection: walk it too
    gc.collect()
    return sorted(
        f"{type(o).__module__}.{type(o).__qualname__}"
        for o in gc.garbage
        if type(o).__module__.startswith(SERVER_SIDE)
    )


@contextlib.contextmanager
def saved_garbage() -> Iterator[None]:
    """From here on every collection keeps what it finds; what earlier tests left is
    collected first, out of the way."""
    gc.unfreeze()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_sockets_gone_every_way_leave_no_cycle_behind(
    server: RunningServer, phone: PhoneFactory
) -> None:
    table = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    url = f"{server.ws_base}/ws/tables/{table['id']}"
    beats = server.server.config.app.state.heartbeats  # type: ignore[attr-defined]
    connections = server.server.server_state.connections
    with saved_garbage():
        left = await phone(table["id"], token_of(table["p1"]["url"]), "phone-left")
        cut = await phone(table["id"], token_of(table["p2"]["url"]), "phone-cut")
        await left.command("start")
        await left.ws.close()  # a phone that says goodbye
        cut.ws.transport.abort()  # a phone whose Wi-Fi went: a TCP reset, no close frame
        refused = await websockets.connect(url)  # a link that opens nothing
        await refused.send(json.dumps({"t": "hello", "token": "no-such-link", "device": "x"}))
        await refused.wait_closed()
        await _until(lambda: not beats.heard and not connections, "every socket gone")
        assert beats.churn() == 4  # both phones came and went
        assert _server_side_garbage() == []


async def test_a_silent_phone_dropped_by_its_heartbeat_leaves_no_cycle_behind(
    database_url: str, fake_time: FakeTime
) -> None:
    io_time = FakeTime()
    server = await start_server(database_url, fake_time, io_time=io_time, heartbeat_ms=10_000)
    try:
        table = await create_table(server.base, clock_minutes=60, scenario="bunkers")
        beats = server.server.config.app.state.heartbeats  # type: ignore[attr-defined]
        connections = server.server.server_state.connections
        with saved_garbage():
            silent = await websockets.connect(f"{server.ws_base}/ws/tables/{table['id']}")
            hello = {"t": "hello", "token": token_of(table["p1"]["url"]), "device": "silent"}
            await silent.send(json.dumps(hello))
            assert json.loads(await silent.recv())["t"] == "state"
            for _ in range(3):  # 12 s without a word: the server drops it (4408)
                io_time.advance(4_000)
                await asyncio.sleep(0)
            await silent.wait_closed()
            assert silent.close_code == 4408
            await _until(lambda: not beats.heard and not connections, "the silent socket gone")
            assert _server_side_garbage() == []
    finally:
        await server.stop()
