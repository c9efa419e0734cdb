"""The backplane against a real redis-server of the test's own: a password in the URL is
used; a wrong one is refused and said plainly; a unix:// URL reaches its socket file; a
Redis that hangs (the process stopped, its connections open) is found out within seconds,
and the backplane comes back by itself once it answers again; messages flow again
afterwards."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from app.cluster.backplane import SILENT_S, Backplane
from tests.integration.workers_support import RedisServer, free_port, poll


def pair(url: str) -> tuple[Backplane, Backplane, list[Any]]:
    one, two = Backplane(url, "dcwire", "one"), Backplane(url, "dcwire", "two")
    heard: list[Any] = []
    two.handlers["cmd"] = lambda envelope: heard.append(envelope["n"])
    return one, two, heard


async def delivered(one: Backplane, heard: list[Any], n: int) -> None:
    assert one.send("w:two", {"k": "cmd", "n": n})

    async def arrived() -> bool:
        return n in heard

    await poll(arrived, f"message {n} to arrive", 5)


async def test_a_password_in_the_url_is_used_and_a_wrong_one_is_refused_plainly() -> None:
    redis = RedisServer(free_port(), "--requirepass", "s3cret")
    await redis.start()
    right = f"redis://:s3cret@127.0.0.1:{redis.port}/0"
    one, two, heard = pair(right)
    wrong = Backplane(f"redis://:nope@127.0.0.1:{redis.port}/0", "dcwire", "three")
    try:
        await one.start()
        await two.start()
        assert one.healthy and two.healthy
        await delivered(one, heard, 1)
        await wrong.start(wait_s=0.5)
        assert not wrong.healthy
        assert wrong.trouble is not None and "WRONGPASS" in wrong.trouble
        assert wrong.trouble.startswith("Redis is unavailable: Redis refused a command")
    finally:
        for backplane in (wrong, two, one):
            await backplane.close()
        redis.stop()


async def test_a_unix_socket_url_reaches_redis_by_its_socket_file(tmp_path: Path) -> None:
    path = tmp_path / "redis.sock"
    redis = RedisServer(free_port(), "--unixsocket", str(path), "--unixsocketperm", "700")
    await redis.start()
    one, two, heard = pair(f"unix://{path}?db=0")
    try:
        await one.start()
        await two.start()
        assert one.healthy and two.healthy
        await delivered(one, heard, 1)
    finally:
        for backplane in (two, one):
            await backplane.close()
        redis.stop()


async def test_a_hung_redis_is_found_out_and_the_backplane_comes_back_by_itself() -> None:
    redis = RedisServer(free_port())
    await redis.start()
    one, two, heard = pair(redis.url)
    try:
        await one.start()
        await two.start()
        await delivered(one, heard, 1)
        epoch = one.epoch
        redis.freeze()
        one.send("w:two", {"k": "cmd", "n": 2})  # owed a reply that does not come

        async def down() -> bool:
            return not one.healthy and not two.healthy

        began = asyncio.get_running_loop().time()
        await poll(down, "both to see Redis hang", SILENT_S + 3)
        assert asyncio.get_running_loop().time() - began < SILENT_S + 2
        assert one.trouble is not None and "no answer" in one.trouble
        assert not one.send("w:two", {"k": "cmd", "n": 3})  # refused while down, not queued
        redis.freeze(False)

        async def up() -> bool:
            return one.healthy and two.healthy

        await poll(up, "both to reconnect", 10)
        assert one.epoch == epoch + 1  # what went before may be lost: listeners read back
        await delivered(one, heard, 4)
        assert 3 not in heard
    finally:
        for backplane in (two, one):
            await backplane.close()
        redis.stop()
