"""A killed worker's tables are taken over as soon as its process is gone, not once its
lease lapses: its life line (app.store.lease) ends with it. The lease here lasts 8 s, so
the lease alone would keep the table from the phone for 6 s at least."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import create_table, token_of
from tests.integration.test_workers import connect, health, owner_rows
from tests.integration.workers_support import REDIS_URL, need_services, pg_schema, poll, workers

pytestmark = pytest.mark.postgres

LEASE_MS = 8_000


async def test_a_killed_owner_is_taken_over_long_before_its_lease_lapses(tmp_path: Path) -> None:
    need_services()
    with pg_schema() as database_url:
        await _killed_owner_taken_over(tmp_path, database_url)


async def _killed_owner_taken_over(tmp_path: Path, database_url: str) -> None:
    async with workers(tmp_path, database_url, REDIS_URL) as make:
        a, b = make(), make()
        for worker in (a, b):
            worker.env["DEATHCLOCK_LEASE_MS"] = str(LEASE_MS)
            await worker.start()
        said: dict[str, Any] = {}

        async def judging() -> bool:  # b's own line has held for half a lease
            said.update((await health(b.base))[1])
            return bool(said["life_line"] == "held" and said["workers_alive"] == 2)

        await poll(judging, "the surviving worker's life line to hold", LEASE_MS / 1000 + 5)
        assert (await health(a.base))[1]["life_line"] in ("held", "settling")
        links = await create_table(a.base, clock_minutes=60, scenario="bunkers")
        tid = links["id"]
        p1 = await connect(a.base, tid, token_of(links["p1"]["url"]), "phone-1")
        p2 = await connect(b.base, tid, token_of(links["p2"]["url"]), "phone-2")
        assert (await p1.command("start"))["t"] == "ack"  # a takes the table
        assert (await p1.command("pass_turn", expect="p1"))["v"] == 2
        await p2.wait_version(2)
        owner, token = owner_rows(database_url)[tid]
        assert owner == (await health(a.base))[1]["worker"]

        a.kill()
        started = time.monotonic()
        ack = await p2.command("pass_turn", expect="p2")  # forwarded, then applied by b
        took = time.monotonic() - started

        assert ack["t"] == "ack" and ack["v"] == 3, ack
        assert took <= 3.0, f"takeover took {took:.2f} s"
        new_owner, new_token = owner_rows(database_url)[tid]
        assert new_owner == said["worker"] and new_token > token
        assert (await health(b.base))[1]["workers_alive"] == 1
        for phone in (p1, p2):
            await phone.ws.close()
