"""Several workers: a phone's time away, for merging its offline queue, runs from the
last message any worker had from it, not only the worker it came back to."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import websockets

from app.tables.timesource import FakeTime
from tests.conftest import Phone, RunningServer, create_table, token_of
from tests.integration.workers_support import two_workers_in_loop

pytestmark = pytest.mark.postgres

MIN = 60_000


@pytest.fixture
async def pair() -> AsyncIterator[tuple[RunningServer, RunningServer]]:
    async with two_workers_in_loop() as both:
        yield both


async def connect(base: str, table_id: str, token: str, device: str, last: int = 0) -> Phone:
    ws = await websockets.connect(f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}")
    hello: dict[str, Any] = {"t": "hello", "token": token, "device": device}
    if last:
        hello["v"] = last
    await ws.send(json.dumps(hello))
    phone = Phone(ws=ws, device=device, version=last)
    if not last:
        await phone.recv_until("state")
    return phone


def time_of(server: RunningServer) -> FakeTime:
    hub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    time: FakeTime = hub.time
    return time


async def test_a_phone_back_on_another_worker_merges_from_its_last_message_anywhere(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    """P2's phone spoke last on worker A (10:00), lost the hall's Wi-Fi (its socket there
    still open), tapped offline, and came back on worker B at 20:00 with a tap it says
    it made at 5:00. The tap is placed at 10:00, when the server last heard the phone:
    not at 5:00 (it was online then), and not at 20:00 (B never heard it before)."""
    a, b = pair
    clock = time_of(a)
    start = clock.now_ms()
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")  # A owns it
    tid = links["id"]
    tokens = {side: token_of(links[side]["url"]) for side in ("p1", "p2")}
    p1 = await connect(a.base, tid, tokens["p1"], "phone-1")
    p2 = await connect(a.base, tid, tokens["p2"], "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    clock.advance(1 * MIN)
    assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"  # P2's clock runs
    await p2.wait_version(2)
    clock.advance(9 * MIN)
    await p2.send({"t": "ping", "id": 1, "client_ms": 0})
    await p2.recv_until("pong")  # worker A heard P2's phone at 10:00
    clock.advance(10 * MIN)
    back = await connect(b.base, tid, tokens["p2"], "phone-2", last=2)  # on worker B
    tap = {"seq": 1, "at_ms": start + 5 * MIN, "c": "pass_turn", "expect": "p2"}
    await back.send({"t": "offline", "base": 2, "cmds": [tap]})
    answer = await back.recv_until("ack")
    assert answer["dup"] is False
    await back.wait_version(3)
    log = a.server.config.app.state.hub.store.log(tid)  # type: ignore[attr-defined]
    merge = json.loads(log[-1].command_json)
    assert merge["c"] == "merge" and merge["away"] == [start + 10 * MIN, start + 20 * MIN]
    assert [e["at_ms"] for e in merge["entries"]] == [start + 10 * MIN]
    # As a physical clock: P1 ran 1 min, P2 9 min, then P1 again from 10:00 to 20:00.
    assert back.game["running"] == "p1"
    assert back.game["remaining_ms"] == [60 * MIN - 11 * MIN, 60 * MIN - 9 * MIN]
    for phone in (p1, p2, back):
        await phone.ws.close()


async def test_a_phone_back_on_another_worker_long_ago_cannot_send_a_queue_now__DC3(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    """P2's phone spoke last on worker A, came back on worker B (which never heard it)
    and stayed online there 20 minutes; then it sends an "offline" pass dated at its
    blip. Its return was its hello on B, 20 minutes ago: too late for a queue, which
    would move those 20 minutes onto P1's clock. Nothing is merged."""
    a, b = pair
    clock = time_of(a)
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")  # A owns it
    tid = links["id"]
    tokens = {side: token_of(links[side]["url"]) for side in ("p1", "p2")}
    p1 = await connect(a.base, tid, tokens["p1"], "phone-1")
    p2 = await connect(a.base, tid, tokens["p2"], "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"  # P2's clock runs
    await p2.wait_version(2)
    blip = clock.now_ms()
    clock.advance(4_000)
    back = await connect(b.base, tid, tokens["p2"], "phone-2", last=2)  # on worker B
    for n in range(5):  # online on B, its heartbeat every 4 minutes
        clock.advance(4 * MIN)
        await back.send({"t": "ping", "id": n, "client_ms": 0})
        await back.recv_until("pong")
    tap = {"seq": 1, "at_ms": blip, "c": "pass_turn", "expect": "p2"}
    await back.send({"t": "offline", "base": 2, "cmds": [tap]})
    answer = await back.recv_until("error")
    assert "too late for an offline queue" in answer["message"]
    log = a.server.config.app.state.hub.store.log(tid)  # type: ignore[attr-defined]
    assert len(log) == 2  # nothing merged
