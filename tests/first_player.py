"""Who goes first at a round's table, settled off the clock the way the round's start
opens it (the starting roll, then its winner's choice), for tests about what follows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side

DEVICE = "first-player"


async def first_seat_goes_first(room: Any) -> None:
    """The dice rolled at the table go the first seat's way; its player goes first and
    starts deployment (their clock runs)."""
    await room.apply(Side.P1, DEVICE, 1, c.StartingRoll(at_table=(6, 1)))
    await room.apply(Side.P1, DEVICE, 2, c.ChooseOrder(first=True))
    await room.apply(Side.P1, DEVICE, 3, c.StartClock())


async def every_first_seat_goes_first(rooms: Iterable[Any]) -> None:
    for room in rooms:
        await first_seat_goes_first(room)


async def first_seat_goes_first_over_socket(base: str, table: dict[str, Any]) -> None:
    """The same, from the first seat's phone over the table's socket (`table`: the EO's
    table row, with its links)."""
    import json

    import websockets

    token = table["links"]["p1"]["url"].split("#k=", 1)[1]
    settle = (
        {"c": "roll", "at_table": [6, 1]},
        {"c": "choose_order", "first": True},
        {"c": "start"},
    )
    ws_base = base.replace("http://", "ws://")
    async with websockets.connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        await ws.send(json.dumps({"t": "hello", "token": token, "device": DEVICE}))
        for seq, command in enumerate(settle, start=1):
            await ws.send(json.dumps({"t": "cmd", "seq": seq, **command}))
            while (reply := json.loads(await ws.recv()))["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", reply
