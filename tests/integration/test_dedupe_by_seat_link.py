"""A command is applied once per seat link and device: the pre-game's change of seats
(the second seat chose to go first and plays P1 from then on) does not move a seat's
commands onto the other seat's record (fake clock)."""

from __future__ import annotations

import random

from app.domain import commands as c
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from tests.conftest import (
    PREGAME_QUICK,
    Phone,
    PhoneFactory,
    RunningServer,
    create_table,
    token_of,
)


class LoadedDice(random.Random):
    """The server's dice, loaded by the test: these faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def _hub(server: RunningServer) -> TableHub:
    hub: TableHub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    return hub


async def _swapped(
    server: RunningServer, phone: PhoneFactory, device_of: tuple[str, str]
) -> tuple[str, Phone, Phone]:
    """A quick game's pre-game up to the order: the second seat wins the roll and goes
    first, so it plays P1 from now on. Returns the table and the first and second seat."""
    links = await create_table(server.base, **PREGAME_QUICK)
    tid = links["id"]
    first = await phone(tid, token_of(links["p1"]["url"]), device_of[0])
    second = await phone(tid, token_of(links["p2"]["url"]), device_of[1])
    _hub(server).rooms[tid].dice = LoadedDice([2, 5])
    assert (await first.command("choose_list", list="Butcher 3"))["t"] == "ack"  # seq 1
    assert (await second.command("choose_list", list="Haley 2"))["t"] == "ack"  # seq 1
    assert (await first.command("choose_objective", objective="Armory"))["t"] == "ack"
    assert (await second.command("choose_objective", objective="Stockpile"))["t"] == "ack"
    assert (await first.command("roll"))["t"] == "ack"  # seq 3
    assert (await second.command("roll"))["t"] == "ack"  # seq 3
    await first.wait_version(second.version)
    assert first.game["pregame"]["winner"] == "p2"
    chose = await second.command("choose_order", first=True)  # seq 4: the seats swap
    assert chose["t"] == "ack" and not chose["dup"]
    await first.recv_until("state")
    assert (first.role, second.role) == ("p2", "p1")
    return tid, first, second


async def test_after_the_swap_a_seats_command_is_not_taken_for_the_other_seats(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    # Both seats open in one browser: one device id, each link its own numbers.
    _tid, first, second = await _swapped(server, phone, ("tablet", "tablet"))
    # The first seat (P2 now) sends its fourth command: the second seat's fourth (its
    # choice of order) was under P2 before the swap, but it is another seat's.
    edge = await first.command("choose_edge", swap=False)
    assert edge["t"] == "ack" and not edge["dup"], edge
    await second.wait_version(edge["v"])
    assert second.game["pregame"]["step"] == "done"


async def test_a_command_sent_again_after_the_swap_is_still_a_duplicate(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    tid, _first, second = await _swapped(server, phone, ("ann-phone", "bob-phone"))
    chosen_at = second.version
    # The second seat's ack was lost: it sends its choice of order again (seq 4), now as P1.
    again = await second.command("choose_order", seq=4, first=True)
    assert again == {"t": "ack", "seq": 4, "v": chosen_at, "dup": True}
    # And after a restart, the table rebuilt from its log knows it the same way.
    hub = _hub(server)
    restarted = TableHub(hub.store, fake_time)
    try:
        restarted.load()
        room = restarted.rooms[tid]
        resent = await room.apply(room.actor_for("p2"), "bob-phone", 4, c.ChooseOrder(first=True))
        assert resent.duplicate and resent.version == chosen_at
        fresh = await room.apply(room.actor_for("p1"), "ann-phone", 4, c.ChooseEdge(swap=False))
        assert not fresh.duplicate and room.game.pregame is not None
        assert room.game.pregame.done
    finally:
        await restarted.close()
