"""Several workers: a command forwarded to an owner that stopped answering is applied by
the worker that takes the table over, as soon as it does, not once the ask times out."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from app.cluster import forwarding as cluster_module
from app.cluster.backplane import RelayChannel
from tests.conftest import RunningServer, create_table, token_of
from tests.integration.test_workers_time_away import connect
from tests.integration.workers_support import cluster_of, owned_by, poll, two_workers_in_loop

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pair() -> AsyncIterator[tuple[RunningServer, RunningServer]]:
    async with two_workers_in_loop() as both:
        yield both


async def test_a_command_waiting_on_a_dead_owner_is_applied_at_the_takeover(
    pair: tuple[RunningServer, RunningServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = pair
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    await owned_by(a, tid)
    dead = cluster_of(a)
    # Worker A hangs: it renews its lease no more and answers no forwarded command.
    for task in (dead._beat, dead._sweep):
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    dead.backplane.handlers["cmd"] = lambda _envelope: None
    # Asks that would wait far longer than the test does: only the takeover can answer.
    monkeypatch.setattr(cluster_module, "ASK_S", 60.0)
    monkeypatch.setattr(cluster_module, "ASK_AGAIN_S", 60.0)
    phone = await connect(b.base, tid, token_of(links["p1"]["url"]), "phone-1")
    await phone.send({"t": "cmd", "seq": 1, "c": "start"})  # forwarded to A, unanswered

    async def asked() -> bool:
        return bool(cluster_of(b)._replies)

    await poll(asked, "worker B asking worker A", 5.0)
    with dead.hub.store.engine.begin() as conn:  # A's lease lapses
        conn.execute(
            text(
                "UPDATE worker_lease SET expires_at = now() - interval '1 second' "
                "WHERE worker_id = :w"
            ),
            {"w": dead.worker_id},
        )
    ack = await phone.recv_until("ack", timeout=10.0)  # B's sweep takes the table over
    assert ack["seq"] == 1 and ack["v"] == 1 and not ack["dup"]
    assert tid in cluster_of(b).owned
    await phone.ws.close()


async def test_a_table_taken_on_at_a_command_is_read_off_the_loop_and_keeps_every_move(
    pair: tuple[RunningServer, RunningServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round begins with every table's first command at once: the worker taking a
    table on reads its log on a thread, never on the loop that serves the other tables,
    and goes on from every move the owner before it wrote."""
    a, b = pair
    links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
    tid = links["id"]
    await owned_by(a, tid)
    heir = cluster_of(b)
    room = heir.hub.get(tid)  # B holds the table, as for a socket of its own...
    assert room is not None and isinstance(room.channel, RelayChannel)
    room.channel.on_remote = lambda _envelope: None  # ...but hears nothing from A
    phone = await connect(a.base, tid, token_of(links["p1"]["url"]), "phone-1")
    await phone.send({"t": "cmd", "seq": 1, "c": "start"})
    assert (await phone.recv_until("ack"))["v"] == 1
    await phone.ws.close()
    assert room.version == 0
    for task in (cluster_of(a)._beat, cluster_of(a)._sweep, heir._sweep):
        task.cancel()  # A stalls; B takes the table on by a command, not by its sweep
        with contextlib.suppress(BaseException):
            await task
    with heir.hub.store.engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE worker_lease SET expires_at = now() - interval '1 second' "
                "WHERE worker_id = :w"
            ),
            {"w": cluster_of(a).worker_id},
        )
    store = heir.hub.store
    read_on: list[int] = []
    log = store.log

    def logged(*args: object, **kwargs: object) -> object:
        read_on.append(threading.get_ident())
        return log(*args, **kwargs)

    monkeypatch.setattr(store, "log", logged)
    assert await heir._owner(room) == heir.worker_id  # B takes it on, as for a command
    assert read_on and threading.get_ident() not in read_on
    assert room.fence is not None and room.version == 1  # A's move, read back
    assert room.game.clock.running is not None
