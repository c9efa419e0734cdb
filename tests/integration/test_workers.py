"""Several workers on one PostgreSQL and one Redis: one owner per table, commands from
any worker, takeover after a worker is killed, Redis lost and back, a rolling restart.

Workers that are only stopped run in the test's loop (one fake game clock for all);
workers that are killed or restarted are subprocesses on the wall clock. Every test has
a PostgreSQL schema and a Redis channel prefix of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from app.tables.timesource import FakeTime
from tests.conftest import Phone, RunningServer, create_table, start_server, token_of
from tests.integration.workers_support import (
    REDIS_URL,
    RedisServer,
    free_port,
    need_services,
    owned_by,
    pg_schema,
    poll,
    workers,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
def database_url() -> Any:
    need_services()
    with pg_schema() as url:
        yield url


async def connect(
    base: str, table_id: str, token: str, device: str, last: int | None = None
) -> Phone:
    ws = await websockets.connect(f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}")
    hello: dict[str, Any] = {"t": "hello", "token": token, "device": device}
    if last is not None:
        hello["v"] = last
    await ws.send(json.dumps(hello))
    phone = Phone(ws=ws, device=device, version=last or 0)
    if last is None:
        await phone.recv_until("state")
    return phone


async def health(base: str) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base, timeout=2.0) as http:
        response = await http.get("/health")
        body: dict[str, Any] = response.json()
        return response.status_code, body


def owner_rows(database_url: str) -> dict[str, tuple[str | None, int]]:
    plain, _, query = database_url.replace("postgresql+psycopg://", "postgresql://").partition("?")
    schema = query.split("search_path%3D", 1)[1]
    with psycopg.connect(plain) as conn:
        rows = conn.execute(f"SELECT table_id, owner, token FROM {schema}.table_owner").fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def log_of(database_url: str, table_id: str) -> list[tuple[int, str, str, int]]:
    plain, _, query = database_url.replace("postgresql+psycopg://", "postgresql://").partition("?")
    schema = query.split("search_path%3D", 1)[1]
    with psycopg.connect(plain) as conn:
        rows = conn.execute(
            f"SELECT version, actor, device, seq FROM {schema}.table_log "
            "WHERE table_id = %s ORDER BY version",
            (table_id,),
        ).fetchall()
    return [(r[0], r[1], r[2], r[3]) for r in rows]


def assert_log_whole(log: list[tuple[int, str, str, int]], acked: dict[str, set[int]]) -> None:
    """Versions 1..n without a hole, each phone's command applied once, every ack in."""
    assert [row[0] for row in log] == list(range(1, len(log) + 1))
    applied = [(device, seq) for _, _, device, seq in log if device]
    assert len(applied) == len(set(applied)), "a command was applied twice"
    for device, seqs in acked.items():
        assert seqs <= {seq for _, _, d, seq in log if d == device}, f"{device} lost an ack"


# ----------------------------------------------------------------------------
# In the test's loop: ownership, forwarding, Redis lost and back
# ----------------------------------------------------------------------------


@pytest.fixture
def fake_time_of_pair() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def pair(
    database_url: str, fake_time_of_pair: FakeTime
) -> AsyncIterator[tuple[RunningServer, RunningServer]]:
    time_ = fake_time_of_pair
    prefix = f"dctest-{secrets.token_hex(4)}"
    extra = {"redis_url": REDIS_URL, "redis_prefix": prefix}
    a = await start_server(database_url, time_, **extra)
    b = await start_server(database_url, time_, **extra)
    yield a, b
    for server in (b, a):
        await server.stop()


async def test_one_owner_and_commands_forwarded_from_any_worker(
    pair: tuple[RunningServer, RunningServer], database_url: str
) -> None:
    a, b = pair
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    (_, ha), (_, hb) = await health(a.base), await health(b.base)
    assert tid not in owner_rows(database_url)  # nobody owns it before its first command
    assert (ha["tables_owned"], hb["tables_owned"]) == (0, 0)

    p1 = await connect(b.base, tid, token_of(links["p1"]["url"]), "phone-1")
    p2 = await connect(a.base, tid, token_of(links["p2"]["url"]), "phone-2")  # the other worker
    assert (await p1.command("start"))["t"] == "ack"
    # The worker its first command reached owns it, not the one where it was made.
    assert owner_rows(database_url)[tid] == (hb["worker"], 1)
    await p2.wait_version(1)  # the owner's event reached the other worker's screen
    ack = await p1.command("pass_turn", expect="p1")
    assert ack["v"] == 2
    await p2.wait_version(2)
    forwarded = await p2.command("pass_turn", expect="p2")  # applied by the owner, worker B
    assert forwarded == {"t": "ack", "seq": 1, "v": 3, "dup": False} or forwarded["v"] == 3
    await p1.wait_version(3)
    assert p1.game == p2.game
    again = await p2.command("pass_turn", seq=1, expect="p2")  # a re-sent tap: applied once
    assert again["t"] == "ack" and again["v"] == 3 and again["dup"]
    stale = await p2.command("pass_turn", expect="p2")  # not p2's clock any more
    assert stale["t"] == "error" and stale["code"] == "stale"
    assert owner_rows(database_url)[tid][0] == hb["worker"]
    assert_log_whole(log_of(database_url, tid), {"phone-1": {1, 2}, "phone-2": {1}})
    for phone in (p1, p2):
        await phone.ws.close()


async def test_offline_queues_merged_by_the_owner_from_another_worker(
    pair: tuple[RunningServer, RunningServer], database_url: str, fake_time_of_pair: FakeTime
) -> None:
    a, b = pair
    clock = fake_time_of_pair
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    await owned_by(a, tid)
    tokens = {side: token_of(links[side]["url"]) for side in ("p1", "p2")}
    p1 = await connect(b.base, tid, tokens["p1"], "phone-1")  # both phones on worker B
    p2 = await connect(b.base, tid, tokens["p2"], "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    base = p1.version
    await p2.wait_version(base)
    await p1.ws.close()
    await p2.ws.close()
    clock.advance(30_000)
    p1_tap = clock.now_ms()
    clock.advance(20_000)
    p2_tap = clock.now_ms()
    clock.advance(40_000)
    queues = {
        "p1": [{"seq": 2, "at_ms": p1_tap, "c": "pass_turn", "expect": "p1"}],
        "p2": [{"seq": 1, "at_ms": p2_tap, "c": "pass_turn", "expect": "p2"}],
    }
    back = {}
    for seat, device in (("p1", "phone-1"), ("p2", "phone-2")):
        phone = await connect(b.base, tid, tokens[seat], device, last=base)
        await phone.send({"t": "offline", "base": base, "cmds": queues[seat]})
        answer = await phone.recv_until("ack")
        assert answer["dup"] is False
        back[seat] = phone
    await back["p1"].wait_version(base + 2)
    await back["p2"].wait_version(base + 2)
    game = back["p1"].game  # as a physical clock: P1 ran 30 s, P2 20 s, P1 again 40 s
    assert (game["phase"], game["running"]) == ("advance_deployment", "p1")
    assert game["remaining_ms"] == [60 * 60_000 - 70_000, 60 * 60_000 - 20_000]
    owner = (await health(a.base))[1]["worker"]
    assert owner_rows(database_url)[tid][0] == owner  # applied by the owner, worker A
    for phone in back.values():
        await phone.ws.close()


async def test_dashboard_on_any_worker_sees_every_table(
    pair: tuple[RunningServer, RunningServer],
) -> None:
    a, b = pair
    async with httpx.AsyncClient(base_url=a.base) as http:
        created = await http.post("/api/events", json={"name": "Two workers", "points": 75})
        event = created.json()
        eid, eo = event["id"], {"X-EO-Token": event["admin_token"]}
        for name in ("Ann", "Bo", "Cy", "Di"):
            added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
            assert added.status_code == 201
        assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
        assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
        tables = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    assert len(tables) == 2
    owner_a = (await health(a.base))[1]

    dashboard = await websockets.connect(f"{b.ws_base}/ws/events/{eid}")  # the other worker
    await dashboard.send(json.dumps({"t": "hello", "token": event["admin_token"]}))
    snapshot = json.loads(await asyncio.wait_for(dashboard.recv(), 5))
    assert snapshot["t"] == "dashboard"
    assert sorted(t["id"] for t in snapshot["tables"]) == sorted(t["id"] for t in tables)
    assert owner_a["tables_owned"] == 2 and (await health(b.base))[1]["tables_owned"] == 0

    table = tables[0]
    p1 = await connect(a.base, table["id"], token_of(table["links"]["p1"]["url"]), "d1")
    # Who goes first, off the clock: the first seat's player wins the roll at the table.
    assert (await p1.command("roll", at_table=[6, 1]))["t"] == "ack"
    assert (await p1.command("choose_order", first=True))["t"] == "ack"
    assert (await p1.command("start"))["t"] == "ack"
    assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"  # deployment done
    seen = None
    while seen is None:
        message = json.loads(await asyncio.wait_for(dashboard.recv(), 5))
        rows = [t for t in message.get("tables", []) if t["id"] == table["id"]]
        if rows and rows[0]["running"] == "p2":
            seen = rows[0]
    assert seen["phase"] == "deployment" and seen["active"] == "p2"
    await p1.ws.close()
    await dashboard.close()


async def test_redis_lost_and_back_commands_refused_then_taken(database_url: str) -> None:
    redis = RedisServer(free_port())
    await redis.start()
    time_ = FakeTime()
    extra = {"redis_url": redis.url, "redis_prefix": "dctest"}
    a = await start_server(database_url, time_, **extra)
    b = await start_server(database_url, time_, **extra)
    try:
        links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
        tid = links["id"]
        p1 = await connect(a.base, tid, token_of(links["p1"]["url"]), "phone-1")
        p2 = await connect(b.base, tid, token_of(links["p2"]["url"]), "phone-2")
        assert (await p1.command("start"))["t"] == "ack"
        await p2.wait_version(1)

        redis.stop()

        async def down(base: str) -> bool:
            return (await health(base))[0] == 503

        await poll(lambda: down(a.base), "worker A to report Redis down", 5)
        await poll(lambda: down(b.base), "worker B to report Redis down", 5)
        _, body = await health(a.base)
        assert body["status"] == "server trouble" and "Redis" in body["redis"]
        refused = await p1.command("pass_turn", expect="p1")  # the owner's own phone
        assert refused["t"] == "error" and refused["code"] == "server_trouble"
        assert "server trouble" in refused["message"]
        refused = await p2.command("pass_turn", expect="p1")
        assert refused["t"] == "error" and refused["code"] == "server_trouble"
        assert p1.version == 1

        await redis.start()  # the same port: the workers reconnect by themselves

        async def up(base: str) -> bool:
            return (await health(base))[0] == 200

        await poll(lambda: up(a.base), "worker A to recover", 10)
        await poll(lambda: up(b.base), "worker B to recover", 10)
        assert (await p1.command("pass_turn", expect="p1"))["v"] == 2
        await p2.wait_version(2)
        assert (await p2.command("pass_turn", expect="p2"))["v"] == 3
        await p1.wait_version(3)
        assert_log_whole(log_of(database_url, tid), {"phone-1": {1, 3}, "phone-2": {2}})
        for phone in (p1, p2):
            await phone.ws.close()
    finally:
        for server in (b, a):
            await server.stop()
        redis.stop()


# ----------------------------------------------------------------------------
# Subprocess workers on the wall clock: killed, restarted
# ----------------------------------------------------------------------------


async def test_killed_owner_is_taken_over_within_3_s_nothing_lost_nothing_twice(
    tmp_path: Path, database_url: str
) -> None:
    async with workers(tmp_path, database_url, REDIS_URL) as make:
        a, b = make(), make()
        await a.start()
        await b.start()
        links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
        tid = links["id"]
        p1 = await connect(a.base, tid, token_of(links["p1"]["url"]), "phone-1")
        p2 = await connect(b.base, tid, token_of(links["p2"]["url"]), "phone-2")
        acked: dict[str, set[int]] = {"phone-1": set(), "phone-2": set()}
        assert (await p1.command("start"))["t"] == "ack"
        acked["phone-1"].add(p1.seq)
        for phone, side in ((p1, "p1"), (p2, "p2"), (p1, "p1")):
            ack = await phone.command("pass_turn", expect=side)
            assert ack["t"] == "ack", ack
            acked[phone.device].add(phone.seq)
        await p2.wait_version(4)
        owner_before = owner_rows(database_url)[tid]

        a.kill()
        started = time.monotonic()
        ack = await p2.command("pass_turn", expect="p2")  # waits for the takeover
        took = time.monotonic() - started
        assert ack["t"] == "ack" and ack["v"] == 5, ack
        acked["phone-2"].add(p2.seq)
        assert took <= 3.0, f"takeover took {took:.2f} s"
        owner_after = owner_rows(database_url)[tid]
        assert owner_after[0] != owner_before[0] and owner_after[1] > owner_before[1]

        # P1's phone lost its worker: it comes back on the other one and resyncs by version.
        p1b = await connect(b.base, tid, token_of(links["p1"]["url"]), "phone-1", last=p1.version)
        p1b.seq = p1.seq
        await p1b.wait_version(5)
        again = await p1b.command("pass_turn", seq=p1.seq, expect="p1")  # re-sent: once only
        assert again["t"] == "ack" and again["dup"] and again["v"] <= 5
        assert (await p1b.command("pass_turn", expect="p1"))["v"] == 6
        acked["phone-1"].add(p1b.seq)
        assert_log_whole(log_of(database_url, tid), acked)
        for phone in (p1b, p2):
            await phone.ws.close()


async def test_rolling_restart_loses_no_tap(tmp_path: Path, database_url: str) -> None:
    async with workers(tmp_path, database_url, REDIS_URL) as make:
        a, b = make(), make()
        await a.start()
        await b.start()
        links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
        tid = links["id"]
        tokens = {side: token_of(links[side]["url"]) for side in ("p1", "p2")}
        acked: dict[str, set[int]] = {"phone-1": set(), "phone-2": set()}
        seqs = {"phone-1": 0, "phone-2": 0}
        version = 0

        async def taps(at: Any, count: int) -> None:
            """Both phones on worker `at`, taking turns; each tap acked."""
            nonlocal version
            p1 = await connect(at.base, tid, tokens["p1"], "phone-1")
            p2 = await connect(at.base, tid, tokens["p2"], "phone-2")
            for phone in (p1, p2):
                phone.seq = seqs[phone.device]
                assert phone.version == version  # the table as it was: nothing lost
            if version == 0:
                assert (await p1.command("start"))["t"] == "ack"
                acked["phone-1"].add(p1.seq)
            for _ in range(count):
                running = p1.game["running"]
                phone = p1 if running == "p1" else p2
                answers: dict[str, Any] = {}
                if p1.game.get("kill_box_due"):
                    answers["kill_box"] = False
                if p1.game.get("scoring_due"):
                    answers["scoring"] = {"control": {}, "destroyed": []}
                ack = await phone.command("pass_turn", expect=running, **answers)
                assert ack["t"] == "ack", ack
                acked[phone.device].add(phone.seq)
                await p1.wait_version(ack["v"])
                await p2.wait_version(ack["v"])
            version = p1.version
            for phone in (p1, p2):
                seqs[phone.device] = phone.seq
                await phone.ws.close()

        await taps(a, 3)
        for stopping, other in ((a, b), (b, a)):
            await stopping.stop()  # its tables go to the other worker at once
            started = time.monotonic()
            await taps(other, 2)
            assert time.monotonic() - started < 3.0
            await stopping.start()
            await taps(stopping, 2)
        assert version == 1 + 3 + 4 * 2
        assert_log_whole(log_of(database_url, tid), acked)


async def test_serve_workers_2_on_one_port_and_a_killed_child_taken_over(
    tmp_path: Path, database_url: str
) -> None:
    async with workers(tmp_path, database_url, REDIS_URL) as make:
        server = make(None, "--workers", "2")
        await server.start()
        seen: dict[str, dict[str, Any]] = {}

        async def both_up() -> bool:
            _, body = await health(server.base)
            if body.get("status") == "starting":  # that worker's app is not up yet (app.front)
                return False
            seen[body["worker"]] = body
            return len(seen) >= 2 and body["workers_alive"] == 2

        await poll(both_up, "two workers answering on one port", 20)
        links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
        p1 = await connect(server.base, links["id"], token_of(links["p1"]["url"]), "phone-1")
        assert (await p1.command("start"))["t"] == "ack"  # its worker takes the table
        await p1.ws.close()
        owner = owner_rows(database_url)[links["id"]][0]
        assert owner in seen
        os.kill(int(owner.split("-")[-2]), signal.SIGKILL)  # host-pid-random
        started = time.monotonic()

        async def taken_over() -> bool:
            with contextlib.suppress(httpx.TransportError):
                row = owner_rows(database_url)[links["id"]]
                return row[0] not in (None, owner)
            return False

        await poll(taken_over, "the other worker to take the table over", 5)
        assert time.monotonic() - started <= 3.0
        p1 = await connect(server.base, links["id"], token_of(links["p1"]["url"]), "phone-1", 1)
        assert (await p1.command("pass_turn", seq=2, expect="p1"))["v"] == 2
        await p1.ws.close()
