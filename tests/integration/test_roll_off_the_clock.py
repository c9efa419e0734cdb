"""Who goes first is settled off the clock, with the pre-game on the phones off (the
default), over the API and real sockets ("Starting the Game", DC3, DC4).

The EO starts the round: no clock runs, and the round has no end yet. The starting roll
is made (the server's dice, or the dice rolled at the table entered on a phone); the
second seat's player wins it and chooses to go first; they start deployment and their
clock runs; the round's end is set from that moment; the table log says who won the
roll and went first."""

from __future__ import annotations

import random
from typing import Any

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, token_of

MINUTE = 60_000


class LoadedDice(random.Random):
    """The server's dice, loaded by the test: these faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


async def _paired(http: httpx.AsyncClient) -> tuple[str, dict[str, str], dict[str, Any]]:
    """An SR2019 event without the pre-game on the phones, round 1 paired, not started."""
    created = (await http.post("/api/events", json={"name": "Thursday", "format": "sr2019"})).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    assert created.get("pregame") in (None, False)
    for name in ("Ann", "Bob"):
        added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        assert added.status_code == 201, added.text
    paired = await http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    return eid, eo, table


async def _round(http: httpx.AsyncClient, eid: str) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = (await http.get(f"/api/events/{eid}")).json()["rounds"]
    return rounds[-1]


async def _seats(phone: PhoneFactory, table: dict[str, Any]) -> tuple[Phone, Phone, dict[str, str]]:
    first = await phone(table["id"], token_of(table["links"]["p1"]["url"]), "first-seat")
    second = await phone(table["id"], token_of(table["links"]["p2"]["url"]), "second-seat")
    names = {"first": table["names"][0], "second": table["names"][1]}
    return first, second, names


async def test_the_second_seat_wins_the_roll_goes_first_and_its_clock_runs__DC3_DC4(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    http = httpx.AsyncClient(base_url=server.base)
    eid, eo, table = await _paired(http)
    tid = table["id"]
    hub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    first, second, names = await _seats(phone, table)

    started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.status_code == 200, started.text
    await first.recv_until("state")  # the round's start: the whole table afresh
    await second.recv_until("state")
    clock_ms = first.game["remaining_ms"][0]

    # No clock runs: the table settles who goes first, and the round has no end yet.
    for seat in (first, second):
        assert seat.game["phase"] == "ready" and seat.game["running"] is None
        assert seat.game["pregame"]["steps"] == ["roll", "order"]
        assert seat.game["pregame"]["step"] == "roll"
    rows = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    assert rows[0]["status"] == "pregame"
    assert (await _round(http, eid))["expected_end_ms"] is None
    fake_time.advance(4 * MINUTE)  # four minutes at the table: nobody's time is spent
    refused = await first.command("start")
    assert refused["t"] == "error" and "starting roll" in refused["message"]

    # The starting roll: the server's dice; the second seat's player wins it.
    hub.rooms[tid].dice = LoadedDice([2, 5])
    assert (await first.command("roll"))["t"] == "ack"
    assert (await second.command("roll"))["t"] == "ack"
    await first.wait_version(second.version)
    pregame = first.game["pregame"]
    assert pregame["step"] == "order" and pregame["winner"] == "p2"
    assert pregame["rolls"] == [[2, 5]]
    refused = await first.command("choose_order", first=False)
    assert refused["t"] == "error" and "winner of the starting roll" in refused["message"]
    assert first.game["running"] is None

    # The winner goes first: the second seat is P1 from now on, the first seat P2.
    assert (await second.command("choose_order", first=True))["t"] == "ack"
    await first.recv_until("state")
    assert (second.role, first.role) == ("p1", "p2")
    assert second.received[-2]["table"]["names"] == [names["second"], names["first"]]
    assert second.game["pregame"]["step"] == "done"
    assert (await first.command("start"))["t"] == "error"  # only who goes first starts
    assert first.game["running"] is None

    # They start deployment: their clock runs, from full; the round's end counts from here.
    deployment_at = fake_time.now_ms()
    assert (await second.command("start"))["t"] == "ack"
    assert second.game["phase"] == "deployment" and second.game["running"] == "p1"
    assert second.game["remaining_ms"] == [clock_ms, clock_ms]
    fake_time.advance(MINUTE)
    await second.send({"t": "sync"})
    state = await second.recv_until("state")
    assert state["game"]["remaining_ms"] == [clock_ms - MINUTE, clock_ms]
    assert state["table"]["names"][0] == names["second"]
    assert (await _round(http, eid))["expected_end_ms"] == deployment_at + 2 * clock_ms

    # The table log: who won the roll and went first, who started the clock.
    watch = {"X-Table-Token": token_of(table["links"]["watch"])}
    log = (await http.get(f"/api/tables/{tid}/log", headers=watch)).json()
    entries = log["entries"]
    order = next(e for e in entries if e["c"] == "choose_order")
    assert order["first"] is True and order["by"] == "p2"  # the second seat's player
    assert [e["c"] for e in entries].index("start") > [e["c"] for e in entries].index(
        "choose_order"
    )
    await http.aclose()


async def test_the_roll_made_at_the_table_is_entered_on_a_phone__DC3(
    server: RunningServer, phone: PhoneFactory
) -> None:
    """Real dice: a player enters both as rolled; equal dice are rolled again."""
    http = httpx.AsyncClient(base_url=server.base)
    eid, eo, table = await _paired(http)
    first, second, _names = await _seats(phone, table)
    started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.status_code == 200, started.text
    await first.recv_until("state")

    tie = await first.command("roll", at_table=[4, 4])
    assert tie["t"] == "error" and "roll again" in tie["message"]
    assert (await first.command("roll", at_table=[3, 6]))["t"] == "ack"
    await second.wait_version(first.version)
    assert second.game["pregame"]["winner"] == "p2"
    assert second.game["pregame"]["rolls"] == [[3, 6]]
    assert (await second.command("choose_order", first=False))["t"] == "ack"
    await first.wait_version(second.version)
    assert first.game["pregame"]["step"] == "done" and not first.game["pregame"]["swapped"]
    assert first.role == "p1" and first.game["running"] is None  # the first seat goes first
    assert (await first.command("start"))["t"] == "ack"
    assert first.game["running"] == "p1"
    await http.aclose()
