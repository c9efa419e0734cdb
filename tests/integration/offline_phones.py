"""Phones of a table over real sockets, for the tests of the offline merge and of what
a player with a browser console may try: their heartbeat, an offline queue and its
answers, a sync."""

from __future__ import annotations

from typing import Any

from app.tables.room import TableRoom
from tests.conftest import Phone, PhoneFactory, RunningServer, token_of


def room_of(server: RunningServer, table_id: str) -> TableRoom:
    room: TableRoom = server.server.config.app.state.hub.rooms[table_id]  # type: ignore[attr-defined]
    return room


async def seat(phone: PhoneFactory, links: dict[str, Any], who: str, device: str) -> Phone:
    token = token_of(links[who]["url"]) if who in ("p1", "p2") else token_of(links[who])
    return await phone(links["id"], token, device)


async def heard(client: Phone) -> None:
    """The phone's heartbeat: the server hears from it."""
    await client.send({"t": "ping", "id": 1, "client_ms": 0})
    await client.recv_until("pong")


async def offline(client: Phone, base: int, cmds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send an offline queue; each command's answer (ack or error), in the queue's order."""
    await client.send({"t": "offline", "base": base, "cmds": cmds})
    answers: dict[int, dict[str, Any]] = {}
    while len(answers) < len(cmds):
        message = await client.recv()
        if message["t"] in ("ack", "error") and message.get("seq") is not None:
            answers[message["seq"]] = message
    return [answers[cmd["seq"]] for cmd in cmds]


async def state(client: Phone) -> dict[str, Any]:
    await client.send({"t": "sync"})
    return await client.recv_until("state")
