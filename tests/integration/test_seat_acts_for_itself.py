"""A seat acts for itself, over real sockets (fake clock): the phone whose clock does not
run cannot end its opponent's deployment or turn, nor answer its kill box, by naming
the running side in its tap; the opponent's own taps still pass (DC3, DC6, TS3).

The exploit replayed: p2 tapped with `expect` P1 through P1's deployment and turns and
answered P1's kill box "yes" (+2 CP to p2), while p1's phone, connected, could only
watch."""

from __future__ import annotations

from typing import Any

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, token_of

SECOND = 1_000
NO_SCORE = {"control": {}, "destroyed": []}


async def state(client: Phone) -> dict[str, Any]:
    await client.send({"t": "sync"})
    return await client.recv_until("state")


def standing(game: dict[str, Any]) -> tuple[object, ...]:
    """What a refused command must leave as it was."""
    return (
        game["phase"],
        game["turn"],
        game["active"],
        game["running"],
        game["control_points"],
        game["interrupted"],
    )


async def refused(cheat: Phone, judge: Phone, name: str, **fields: Any) -> dict[str, Any]:
    """`cheat` sends the command: an error, and the table (as `judge` reads it) unchanged."""
    before = await state(judge)
    answer = await cheat.command(name, **fields)
    assert answer["t"] == "error" and answer["code"] == "forbidden", answer
    after = await state(judge)
    assert after["v"] == before["v"]
    assert standing(after["game"]) == standing(before["game"])
    return answer


async def test_the_seat_whose_clock_does_not_run_cannot_pass_it__DC3_TS3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    watch = await phone(links["id"], token_of(links["watch"]), "watcher")
    assert (await p1.command("start"))["t"] == "ack"

    # P1 deploys; p2 names P1's running clock and taps for it.
    fake_time.advance(30 * SECOND)
    answer = await refused(p2, p1, "pass_turn", expect="p1")
    assert "your opponent's deployment: only they may end their deployment" in answer["message"]
    for side, client in (("p1", p1), ("p2", p2), ("p1", p1), ("p2", p2)):
        fake_time.advance(30 * SECOND)
        if side == "p1":  # each of P1's steps: p2's tap for it is refused first
            await refused(p2, p1, "pass_turn", expect="p1")
        assert (await client.command("pass_turn", expect=side))["t"] == "ack"
    for side, client in (("p1", p1), ("p2", p2)):  # turn 1: nothing is due
        fake_time.advance(60 * SECOND)
        assert (await client.command("pass_turn", expect=side))["t"] == "ack"

    # P1's turn 2: the kill box is asked. p2 answers it "yes" for P1 (+2 CP to p2).
    game = (await state(p1))["game"]
    assert (game["phase"], game["turn"], game["running"]) == ("turn", 2, "p1")
    assert game["kill_box_due"] and game["control_points"] == [0, 0]
    answer = await refused(p2, p1, "pass_turn", expect="p1", kill_box=True)
    assert "your opponent's turn: only they may end their turn" in answer["message"]
    assert "P1" not in answer["message"] and "P2" not in answer["message"]
    await refused(watch, p1, "pass_turn", expect="p1", kill_box=True)  # a watcher only reads
    # Nor does it switch P1's clock to itself, or tap during an interrupt it took.
    await refused(p2, p1, "switch", to="p2")
    assert (await p1.command("switch", to="p2"))["t"] == "ack"  # P1's interrupt
    await refused(p2, p1, "pass_turn", expect="p1", kill_box=True)
    assert (await p2.command("switch", to="p1"))["t"] == "ack"  # p2 switches back

    # P1's own tap still works, with P1's own answer.
    fake_time.advance(60 * SECOND)
    assert (await p1.command("pass_turn", expect="p1", kill_box=False))["t"] == "ack"
    game = (await state(p2))["game"]
    assert (game["turn"], game["running"], game["control_points"]) == (2, "p2", [0, 0])

    # P2's turn 2 is scored; p1 cannot end it either (the same rule both ways).
    await refused(p1, p2, "pass_turn", expect="p2", kill_box=False, scoring=NO_SCORE)
    ack = await p2.command("pass_turn", expect="p2", kill_box=False, scoring=NO_SCORE)
    assert ack["t"] == "ack"
    game = (await state(p1))["game"]
    assert (game["turn"], game["running"], game["phase"]) == (3, "p1", "turn")
