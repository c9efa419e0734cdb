"""Shared fixtures: a real uvicorn server in the test's loop, with an injected clock."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from app.cli import socket_options
from app.main import create_app
from app.settings import Settings
from app.tables.timesource import FakeTime


@dataclass
class RunningServer:
    base: str
    server: uvicorn.Server
    task: asyncio.Task[None]

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    async def stop(self) -> None:
        self.server.should_exit = True
        await self.task


#: Tests that are not about the socket guards switch them off (see test_socket_guards.py),
#: the read budget (test_read_budget.py), and the per-address budget for new tables,
#: sockets and misses (see test_hardening.py).
RELAXED = {
    "heartbeat_ms": 3_600_000,
    "rate_per_s": 1e6,
    "rate_burst": 1e6,
    "command_rate_per_s": 1e6,
    "command_burst": 1e6,
    "read_per_s": 1e6,
    "read_burst": 1e6,
    "client_read_per_s": 1e6,
    "client_read_burst": 1e6,
    "client_per_s": 1e6,
    "client_burst": 1e6,
}


async def start_server(
    database_url: str, time: FakeTime, io_time: Any = None, **settings: Any
) -> RunningServer:
    config = {"database_url": database_url, "seed": 2019, **RELAXED, **settings}
    app = create_app(Settings(**config), time=time, io_time=io_time)
    # The sockets as `deathclock serve` runs them, but for the size of a message: the fuzz
    # tests (integration/test_ws_fuzz.py) send larger ones, for the app's own answer to
    # them (the server closes such a socket with 1009 before the app reads it).
    options = {**socket_options(), "ws_max_size": 16 * 1024 * 1024}
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", lifespan="on", **options
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return RunningServer(base=f"http://127.0.0.1:{port}", server=server, task=task)


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'deathclock.db'}"


@pytest.fixture
async def server(database_url: str, fake_time: FakeTime) -> AsyncIterator[RunningServer]:
    running = await start_server(database_url, fake_time)
    yield running
    with contextlib.suppress(Exception):
        await running.stop()


@dataclass
class Phone:
    """A scripted client of the table socket that keeps every message it receives."""

    ws: websockets.ClientConnection
    device: str
    seq: int = 0
    received: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0
    game: dict[str, Any] = field(default_factory=dict)
    role: str = ""

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(message)
        if message["t"] in ("state", "event"):
            self.version = message["v"]
            self.game = message["game"]
            if message["t"] == "state":
                self.role = message["role"]
        return message

    async def recv_until(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message["t"] == kind:
                return message

    async def command(self, name: str, *, seq: int | None = None, **fields: Any) -> dict[str, Any]:
        """Send a command and return its ack or error (events before it are kept)."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.send({"t": "cmd", "seq": seq, "c": name, **fields})
        while True:
            message = await self.recv()
            if message["t"] in ("ack", "error") and message.get("seq") == seq:
                return message

    async def wait_version(self, version: int, timeout: float = 5.0) -> None:
        while self.version < version:
            await self.recv(timeout)


PhoneFactory = Callable[..., Awaitable[Phone]]


@pytest.fixture
async def phone(server: RunningServer) -> AsyncIterator[PhoneFactory]:
    opened: list[Phone] = []

    async def connect(
        table_id: str,
        token: str,
        device: str,
        last_version: int | None = None,
        at: RunningServer | None = None,
    ) -> Phone:
        target = at or server
        ws = await websockets.connect(f"{target.ws_base}/ws/tables/{table_id}")
        hello: dict[str, Any] = {"t": "hello", "token": token, "device": device}
        if last_version is not None:
            hello["v"] = last_version
        await ws.send(json.dumps(hello))
        client = Phone(ws=ws, device=device)
        if last_version is None:
            await client.recv_until("state")
        opened.append(client)
        return client

    yield connect
    for client in opened:
        with contextlib.suppress(Exception):
            await client.ws.close()


#: A quick game with the pre-game on the phones: the starting roll decides who goes
#: first, so both players are named.
PREGAME_QUICK: dict[str, Any] = {
    "clock_minutes": 60,
    "scenario": "bunkers",
    "pregame": True,
    "p1_name": "Ann",
    "p2_name": "Bob",
}


async def create_table(base: str, **body: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base) as http:
        response = await http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data


@dataclass
class RunewarsRound:
    """A Runewars event with Ann (army value 180) and Bob (190) in its first round."""

    event_id: str
    eo: dict[str, str]  # the EO's header
    players: list[str]
    table: dict[str, Any]  # the round's one table, as the EO's table list gives it


async def runewars_round(http: httpx.AsyncClient, name: str) -> RunewarsRound:
    body = {"name": name, "format": "runewars2017", "fixed_rounds": 2}
    created = (await http.post("/api/events", json=body)).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    players = []
    for player, army in (("Ann", 180), ("Bob", 190)):
        added = await http.post(
            f"/api/events/{eid}/tournament/players",
            json={"name": player, "army_value": army},
            headers=eo,
        )
        assert added.status_code == 201, added.text
        players.append(added.json()["id"])
    started = await http.post(f"/api/events/{eid}/tournament/rounds", headers=eo)
    assert started.status_code == 201, started.text
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    return RunewarsRound(eid, eo, players, table)


def token_of(url: str) -> str:
    return url.split("#k=", 1)[1]
