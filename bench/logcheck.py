"""Every table's log read back through REST after a failover or restart benchmark
(`GET /api/tables/{id}/log`, a page at a time) and checked against the acks the phones
got: no acked tap lost, no command applied twice, every phone on the last version."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from bench.harness.servers import HOST
from bench.recovery import Game
from bench.recovery_phones import Run

#: A page refused for the reads' budget (429) is asked again after its Retry-After, this
#: many times at most: the check reads every table's log at once, faster than a hall would.
REFUSED_RETRIES = 20


async def read_log(client: httpx.AsyncClient, table: Game) -> list[dict[str, Any]]:
    headers = {"X-Table-Token": table.phones["p1"].token}
    entries: list[dict[str, Any]] = []
    after = 0
    refused = 0
    for _page in range(1000 + REFUSED_RETRIES):
        response = await client.get(f"/api/tables/{table.id}/log?after={after}", headers=headers)
        if response.status_code == 429 and refused < REFUSED_RETRIES:
            refused += 1
            await asyncio.sleep(min(5.0, float(response.headers.get("Retry-After", "1"))))
            continue
        response.raise_for_status()
        body = response.json()
        entries += body["entries"]
        if body["next"] is None:
            return entries
        after = body["next"]
    raise RuntimeError(f"table {table.id}: the log did not end")


def check_log(run: Run, table: Game, entries: list[dict[str, Any]]) -> None:
    """Acked lost: an ack whose version is missing from the log or holds another
    command. Duplicated: a log entry no ack names (a command applied twice: the
    second one has no ack of its own). Behind: a phone that did not end on the log's
    last version."""
    c = run.c
    by_v = {e["v"]: e for e in entries}
    if sorted(by_v) != list(range(1, len(entries) + 1)):
        c["log_holes"] += 1
        run.note(f"table {table.id}: the log's versions are not 1..{len(entries)}")
    for v, cmd in table.acks.items():
        entry = by_v.get(v)
        if entry is None or entry.get("c") != cmd.c or entry.get("by") != cmd.side:
            c["acked_lost"] += 1
            run.note(f"table {table.id}: acked v {v} ({cmd.side} {cmd.c}) not in the log: {entry}")
    for v in by_v.keys() - table.acks.keys():
        c["duplicated"] += 1
        run.note(f"table {table.id}: log entry v {v} no ack names: {by_v[v]}")
    last = len(entries)
    for phone in table.phones.values():
        if phone.last_v != last:
            c["phones_behind"] += 1


async def check_logs(run: Run, port: int, tables: list[Game], concurrency: int = 16) -> None:
    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0) as client:

        async def one(table: Game) -> None:
            async with sem:
                try:
                    entries = await read_log(client, table)
                except (httpx.HTTPError, RuntimeError) as exc:
                    run.c["log_unread"] += 1
                    run.note(f"table {table.id}: its log could not be read: {exc!r}")
                    return
                check_log(run, table, entries)

        await asyncio.gather(*(one(t) for t in tables))
