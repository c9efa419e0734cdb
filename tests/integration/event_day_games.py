"""How the scripted players play one Warmachine table of an event day, over their seat
sockets: the pre-game (lists, objectives, the starting roll, the order, the edge), then
the game to its end (assassination, scenario, concession or clock), the reports, and
the players' confirmation or dispute.

A table's phones are kept in seat order (the pairing's: the link with its first player's
name first); `side` finds the phone that plays a side (P1 goes first) once the starting
roll has decided it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.tables.timesource import FakeTime
from tests.conftest import Phone

#: The wire's names of the sides: the first player's, then the second's.
SIDES = ("p1", "p2")
#: A revealed specialist choice that swaps nothing, as the phones show it.
SWAPPED_NONE: dict[str, list[str]] = {"removed": [], "added": []}


class LoadedDice(random.Random):
    """The server's dice, loaded by the test: these faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


@dataclass
class Seats:
    """A table's two seat phones in seat order, with the names of their players."""

    phones: tuple[Phone, Phone]
    names: tuple[str, str]

    async def settle(self) -> None:
        """Both phones have seen every change of the table so far."""
        top = max(p.version for p in self.phones)
        for phone in self.phones:
            await phone.wait_version(top)

    def side(self, side: str) -> Phone:
        """The phone whose player plays `side` ("p1": goes first)."""
        return next(p for p in self.phones if p.role == side)

    def name_of(self, side: str) -> str:
        return self.names[self.phones.index(self.side(side))]

    async def send(self, phone: Phone, command: str, **fields: Any) -> dict[str, Any]:
        """One command, acknowledged; then both phones catch up."""
        answer = await phone.command(command, **fields)
        assert answer["t"] == "ack", (command, fields, answer)
        await self.settle()
        return answer


async def pregame(
    seats: Seats, lists: tuple[str, str], roll_winner: int, goes_first: bool, at_table: bool
) -> tuple[str, str]:
    """The table settles who goes first: with the pre-game on the phones each player
    first chooses a list (then, where the event uses specialists, both secretly choose
    to swap none, revealed at once; and an objective where the scenario has them); the
    seat `roll_winner` (0 or 1) wins the starting roll (the server's dice, or `at_table`
    the dice rolled at the table, entered on the second seat's phone) and goes first or
    second; the second player keeps their table edge where the table asks for it.
    Returns each seat's specialist swap in words as the result keeps it ("": none)."""
    steps = seats.phones[0].game["pregame"]["steps"]
    if "lists" in steps:
        for phone, army in zip(seats.phones, lists, strict=True):
            await seats.send(phone, "choose_list", list=army)
    swaps = ("", "")
    if seats.phones[0].game["pregame"]["step"] == "specialists":  # IG2014: no swap
        for phone in seats.phones:
            await seats.send(phone, "choose_specialists", removed=[], added=[])
        assert seats.phones[0].game["pregame"]["specialists"] == [SWAPPED_NONE] * 2
    if seats.phones[0].game["pregame"]["step"] == "objectives":
        choices = seats.phones[0].game["pregame"]["objective_choices"]
        for phone, objective in zip(seats.phones, choices, strict=False):
            await seats.send(phone, "choose_objective", objective=objective)
    assert seats.phones[0].game["pregame"]["step"] == "roll"
    if at_table:
        await seats.send(seats.phones[1], "roll", at_table=[[5, 2], [2, 5]][roll_winner])
    else:
        for phone in seats.phones:
            await seats.send(phone, "roll")
    winner = seats.phones[roll_winner]
    await seats.send(winner, "choose_order", first=goes_first)
    first = roll_winner if goes_first else 1 - roll_winner
    for seat, role in ((first, "p1"), (1 - first, "p2")):
        while seats.phones[seat].role != role:  # a swap sends each screen the whole table
            await seats.phones[seat].recv()
    if "edge" in steps:
        await seats.send(seats.side("p2"), "choose_edge", swap=False)
    assert seats.phones[0].game["pregame"]["step"] == "done"
    return swaps


def last_state(phone: Phone) -> dict[str, Any]:
    """The last whole table the phone was sent (on joining, or when its screen changed)."""
    return next(m for m in reversed(phone.received) if m["t"] == "state")


def offered(phone: Phone) -> list[str]:
    """The lists the phone's player may choose in the pre-game (theirs alone)."""
    choices: list[str] = last_state(phone)["game"]["pregame"]["mine"]["choices"]
    return choices


async def deploy(seats: Seats) -> None:
    """The first player starts the clock; (IG2014's pre-deployment,) deployment and
    advance deployment, each player's tap passing the clock (DC3)."""
    await seats.send(seats.side("p1"), "start")
    while (game := seats.phones[0].game)["phase"] != "turn":
        await seats.send(seats.side(game["active"]), "pass_turn", expect=game["active"])


async def assassination(seats: Seats, loser: str) -> None:
    """TS6: the loser's caster falls in the first player's first turn."""
    await deploy(seats)
    await seats.send(seats.side(loser), "caster_destroyed")


async def concession(seats: Seats, loser: str) -> None:
    """TS8: the loser concedes once the clock has started."""
    await seats.send(seats.side("p1"), "start")
    await seats.send(seats.side(loser), "concede")


async def clock_out(seats: Seats, fake_time: FakeTime) -> None:
    """DC7: the first player's clock runs out in deployment: they lose on time."""
    first = seats.side("p1")
    await seats.send(first, "start")
    fake_time.advance(first.game["remaining_ms"][0])
    while first.game["phase"] != "over":
        await first.recv()
    await seats.settle()


async def scenario(seats: Seats, winner: str) -> None:
    """TS2/TS4/TS5/TS10: the winner controls every zone and flag at the end of each of
    their turns (answering no kill box) until the scenario is won."""
    elements = last_state(seats.phones[0])["table"]["scenario"]["elements"]
    held = {e["id"]: winner for e in elements if e["kind"] != "objective"}
    await deploy(seats)
    while seats.phones[0].game["phase"] != "over":
        game = seats.phones[0].game
        active = game["active"]
        fields: dict[str, Any] = {}
        if game["kill_box_due"]:
            fields["kill_box"] = False
        if game["scoring_due"]:
            fields["scoring"] = {"control": held if active == winner else {}, "destroyed": []}
        await seats.send(seats.side(active), "pass_turn", expect=active, **fields)
    ending = seats.phones[0].game["ending"]
    assert ending == {**ending, "method": "scenario", "winner": winner}, ending


async def report(seats: Seats, apd: dict[str, int], lists: dict[str, str] | None) -> None:
    """Each player reports the army points they destroyed (by name), and the list they
    played where the table did not ask for it (`lists`)."""
    for phone, name in zip(seats.phones, seats.names, strict=True):
        played = {} if lists is None else {"list_played": lists[name]}
        await seats.send(phone, "report", army_points_destroyed=apd[name], **played)


def control_points(seats: Seats) -> dict[str, int]:
    """The control points the table recorded, by player."""
    cp = seats.phones[0].game["control_points"]
    return {seats.name_of(side): cp[i] for i, side in enumerate(SIDES)}
