"""Several workers: a command forwarded to an owner that stopped answering is applied by
the worker that takes the table over, as soon as it does, not once the ask times out."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from app.tables import cluster as cluster_module
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
