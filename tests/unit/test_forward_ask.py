"""A command forwarded to its table's owner on another worker: a live owner that is slow
to answer (a busy hall) is waited for, not asked again, since asking again only adds to
what keeps it busy; a dead owner, a lost connection or the deadline ends the wait.

The waits are made to lapse at once (no time passes): what is checked is what the
worker does when one lapses."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from app.cluster import forwarding as cluster_module
from app.cluster.cluster import Cluster


class Backplane:
    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}
        self.on_recover: list[Any] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.healthy = True
        self.trouble: str | None = None
        self.epoch = 1
        self.worker_id = "here"

    def send(self, channel: str, envelope: dict[str, Any]) -> bool:
        self.sent.append((channel, dict(envelope)))
        return True


class Leases:
    worker_id = "here"


class Hub:
    def __init__(self) -> None:
        self.rooms: dict[str, Any] = {}


@pytest.fixture
def worker() -> tuple[Cluster, Backplane]:
    backplane = Backplane()
    cluster = Cluster(cast(Any, Hub()), cast(Any, backplane), cast(Any, Leases()))
    cluster.alive = ["here", "owner"]
    return cluster, backplane


def lapsing(after: int, then: Any) -> Any:
    """A stand-in for asyncio.wait_for whose first `after` waits lapse at once; `then(n)`
    runs before each wait (n counts them), to change the world between two waits."""
    waits = 0

    async def wait_for(awaitable: Any, timeout: float) -> Any:
        nonlocal waits
        waits += 1
        then(waits)
        future = asyncio.ensure_future(awaitable)
        if waits <= after:
            future.cancel()
            raise TimeoutError
        return await future

    return wait_for


def answer(cluster: Cluster, reply: dict[str, Any]) -> None:
    for _table, done in cluster._replies.values():
        done.set_result(reply)


async def test_a_live_slow_owner_is_waited_for_and_asked_once(
    worker: tuple[Cluster, Backplane], monkeypatch: pytest.MonkeyPatch
) -> None:
    cluster, backplane = worker

    def on_wait(n: int) -> None:
        if n == 4:  # the owner answers at last
            answer(cluster, {"ok": [7, False]})

    monkeypatch.setattr(cluster_module.asyncio, "wait_for", lapsing(3, on_wait))
    deadline = asyncio.get_running_loop().time() + 60
    reply = await cluster._ask("owner", {"t": "table-1", "m": "cmd"}, 1.0, deadline)
    assert reply == {"ok": [7, False]}
    assert [channel for channel, _ in backplane.sent] == ["w:owner"]  # asked once
    assert cluster._replies == {}


@pytest.mark.parametrize("change", ["owner died", "Redis reconnected"])
async def test_the_wait_ends_when_the_owner_dies_or_the_message_may_be_lost(
    worker: tuple[Cluster, Backplane], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    cluster, backplane = worker

    def on_wait(n: int) -> None:
        if n == 2:
            if change == "owner died":
                cluster.alive = ["here"]
            else:
                backplane.epoch += 1  # what was sent before may have gone with the old one

    monkeypatch.setattr(cluster_module.asyncio, "wait_for", lapsing(10, on_wait))
    deadline = asyncio.get_running_loop().time() + 60
    reply = await cluster._ask("owner", {"t": "table-1", "m": "cmd"}, 1.0, deadline)
    assert reply is None  # the caller looks the owner up again and asks it afresh
    assert len(backplane.sent) == 1
    assert cluster._replies == {}


async def test_the_wait_ends_at_the_deadline(
    worker: tuple[Cluster, Backplane], monkeypatch: pytest.MonkeyPatch
) -> None:
    cluster, _ = worker
    waits: list[int] = []
    monkeypatch.setattr(cluster_module.asyncio, "wait_for", lapsing(10, waits.append))
    deadline = asyncio.get_running_loop().time()  # already reached
    assert await cluster._ask("owner", {"t": "table-1", "m": "cmd"}, 1.0, deadline) is None
    assert waits == [1]
