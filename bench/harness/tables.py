"""The tables of a run, created over REST as an organiser's page does: each one's id and
the two seat tokens of its links."""

from __future__ import annotations

import asyncio

import httpx

from bench.harness.servers import HOST
from bench.harness.sockets import seat_token

GAME_BODY = {"clock_minutes": 60, "scenario": "bunkers"}


async def post_table(http: httpx.AsyncClient, pause_s: float = 0.0) -> tuple[str, str, str]:
    """One table (three tries, `pause_s` after a failed connection): id, p1 and p2 tokens."""
    last = ""
    for _attempt in range(3):
        try:
            response = await http.post("/api/tables", json=GAME_BODY)
        except httpx.TransportError as exc:
            last = repr(exc)
            if pause_s:
                await asyncio.sleep(pause_s)
            continue
        if response.status_code == 201:
            data = response.json()
            return data["id"], seat_token(data["p1"]["url"]), seat_token(data["p2"]["url"])
        last = f"{response.status_code} {response.text[:200]}"
    raise RuntimeError(f"POST /api/tables failed: {last}")


def table_client(port: int, concurrency: int) -> httpx.AsyncClient:
    """An HTTP client of the server on `port` that keeps `concurrency` connections."""
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    return httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0, limits=limits)


async def create_tables(port: int, count: int, concurrency: int) -> list[tuple[str, str, str]]:
    """`count` tables, at most `concurrency` requests at a time."""
    sem = asyncio.Semaphore(concurrency)
    async with table_client(port, concurrency) as client:

        async def one() -> tuple[str, str, str]:
            async with sem:
                return await post_table(client)

        return list(await asyncio.gather(*(one() for _ in range(count))))
