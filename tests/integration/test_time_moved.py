"""Offline time moved onto a player who stayed online is shown on both phones and to the
EO, the player can dispute it and the EO settles it; a pass cannot be dated back past
the other phone's use of the table (fake clock, real sockets)."""

from __future__ import annotations

from typing import Any

from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, token_of
from tests.integration.offline_phones import heard, offline, room_of

SECOND = 1_000
CLOCK = 60 * 60 * SECOND


async def online_for(client: Phone, time: FakeTime, ms: int) -> None:
    """`ms` go by; the phone stays online (its heartbeat every 5 s)."""
    for _ in range(ms // (5 * SECOND)):
        time.advance(5 * SECOND)
        await heard(client)
    time.advance(ms % (5 * SECOND))


def tap(seq: int, at_ms: int, expect: str) -> dict[str, Any]:
    return {"seq": seq, "at_ms": at_ms, "c": "pass_turn", "expect": expect}


async def _started(
    server: RunningServer, phone: PhoneFactory, **body: Any
) -> tuple[dict[str, Any], Phone, Phone, Phone]:
    links = await create_table(server.base, p1_name="Alice", p2_name="Bob", **body)
    alice = await phone(links["id"], token_of(links["p1"]["url"]), "alice-phone")
    bob = await phone(links["id"], token_of(links["p2"]["url"]), "bob-phone")
    eo = await phone(links["id"], token_of(links["eo"]), "eo-laptop")
    assert (await alice.command("start"))["t"] == "ack"
    return links, alice, bob, eo


async def test_a_backdated_pass_moves_time_onto_bob_who_sees_it_and_disputes_it(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, alice, bob, eo = await _started(server, phone, clock_minutes=60, scenario="bunkers")
    started, base = fake_time.now_ms(), alice.version
    await alice.ws.close()  # Alice closes her phone right after starting deployment
    await online_for(bob, fake_time, 20 * SECOND)  # Bob's phone stays online
    back = await phone(links["id"], token_of(links["p1"]["url"]), "alice-phone")
    answer = await offline(back, base, [tap(2, started + 100, "p1")])  # "I passed at +0.1 s"
    assert answer[0]["t"] == "ack"

    # Honest offline play still works: the pass counts where it was dated...
    await bob.wait_version(answer[0]["v"])
    game = bob.game
    assert game["running"] == "p2"
    assert game["remaining_ms"] == [CLOCK - 100, CLOCK - (20 * SECOND - 100)]
    # ...and what it moved is on both phones and the EO's, by name and amount.
    (note,) = game["time_moved"]
    assert note["by"] == "p1" and note["onto"] == "p2"
    assert note["moved_ms"] == 20 * SECOND - 100 and note["pass_at_ms"] == started + 100
    assert note["away"] == [started, started + 20 * SECOND]
    assert note["state"] == "open" and note["limited_from_ms"] is None
    await back.wait_version(answer[0]["v"])
    await eo.wait_version(answer[0]["v"])
    assert back.game["time_moved"] == [note] and eo.game["time_moved"] == [note]
    room = room_of(server, links["id"])
    (told,) = room.engine.detail(links["id"], room.game, fake_time.now_ms())["time_moved"]
    assert told["words"].startswith("Alice's phone was away 20 s; the pass it sent")
    assert "moved 19.9 s to Bob's clock" in told["words"] and "P1" not in told["words"]

    # Only Bob disputes it; the EO gives the time back, with the clock adjustment.
    back.seq = 2  # Alice's phone numbers its commands on from its offline tap
    refused = await back.command("dispute_time_moved", note=note["id"])
    assert refused["t"] == "error"
    disputed = await bob.command("dispute_time_moved", note=note["id"])
    assert disputed["t"] == "ack"
    await eo.wait_version(disputed["v"])
    assert eo.game["time_moved"][0]["state"] == "disputed"
    detail = room.engine.detail(links["id"], room.game, fake_time.now_ms())
    assert "Bob disputes it" in detail["time_moved"][0]["words"]
    before = eo.game["remaining_ms"]
    given = await eo.command("settle_time_moved", note=note["id"], give_back=True)
    assert given["t"] == "ack"
    await bob.wait_version(given["v"])
    assert bob.game["time_moved"][0]["state"] == "given_back"
    assert bob.game["remaining_ms"][0] == before[0] - note["moved_ms"]
    assert bob.game["remaining_ms"][1] >= before[1] + note["moved_ms"] - SECOND

    # The table's log rebuilds the notes as they stand, after a restart too.
    restarted = TableHub(room.store, fake_time)
    try:
        restarted.load()
        again = restarted.rooms[links["id"]].game
        assert again.time_moved == room.game.time_moved and again.clock == room.game.clock
    finally:
        await restarted.close()


async def test_no_note_when_both_phones_were_offline(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """The hall's Wi-Fi went down for both: the merge is the physical clock, nothing to
    flag."""
    links, alice, bob, _eo = await _started(server, phone, clock_minutes=60, scenario="bunkers")
    started, base = fake_time.now_ms(), alice.version
    await alice.ws.close()
    await bob.ws.close()
    fake_time.advance(20 * SECOND)
    back = await phone(links["id"], token_of(links["p1"]["url"]), "alice-phone")
    answer = await offline(back, base, [tap(2, started + 5 * SECOND, "p1")])
    assert answer[0]["t"] == "ack"
    await back.wait_version(answer[0]["v"])
    assert back.game["running"] == "p2" and back.game["time_moved"] == []


async def test_a_pass_cannot_go_back_past_bobs_use_of_his_phone(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """Bob, online, told the EO at +12 s that Alice paused the clock: Alice's pass dated
    +0.1 s counts from 2 s before that, and the note says so."""
    links, alice, bob, _eo = await _started(server, phone, format="ig2014", points=50)
    started, base = fake_time.now_ms(), alice.version
    await alice.ws.close()
    await online_for(bob, fake_time, 12 * SECOND)
    assert (await bob.command("report_pause"))["t"] == "ack"
    used = fake_time.now_ms()
    await online_for(bob, fake_time, 8 * SECOND)
    back = await phone(links["id"], token_of(links["p1"]["url"]), "alice-phone")
    answer = await offline(back, base, [tap(2, started + 100, "p1")])
    assert answer[0]["t"] == "ack"
    await bob.wait_version(answer[0]["v"])
    (note,) = bob.game["time_moved"]
    assert note["limited_from_ms"] == used - 2 * SECOND
    assert note["pass_at_ms"] == used - 2 * SECOND
    assert note["moved_ms"] == started + 20 * SECOND - (used - 2 * SECOND)
    room = room_of(server, links["id"])
    (told,) = room.engine.detail(links["id"], room.game, fake_time.now_ms())["time_moved"]
    assert "2 s before Bob's last command" in told["words"]
