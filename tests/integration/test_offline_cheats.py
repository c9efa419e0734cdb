"""A player with a browser console cannot use the offline merge to take time from the
opponent (fake clock, real sockets): an offline queue is taken only right after the
phone's return, its time away is its seat's (any phone of the seat heard), watch screens
cannot make the server forget a seat's phone, a queue that contradicts itself is refused
to its phone alone, and an unexpected failure refuses the queue and keeps the socket."""

from __future__ import annotations

from typing import Any

import pytest

from app.tables.offline import OFFLINE_WINDOW_MS
from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, token_of
from tests.integration.offline_phones import heard, offline, room_of, seat, state

SECOND = 1_000
MIN = 60 * SECOND
CLOCK = 60 * MIN


async def online_for(client: Phone, time: FakeTime, ms: int, every: int = 4 * SECOND) -> None:
    """`ms` go by; the phone stays online, its heartbeat every `every` ms."""
    for _ in range(ms // every):
        time.advance(every)
        await heard(client)
    time.advance(ms % every)


def tap(seq: int, at_ms: int, expect: str) -> dict[str, Any]:
    return {"seq": seq, "at_ms": at_ms, "c": "pass_turn", "expect": expect}


async def started(
    server: RunningServer, phone: PhoneFactory
) -> tuple[dict[str, Any], Phone, Phone]:
    """Alice (P1) and Bob (P2) at a 60-minute table; Alice starts her deployment."""
    links = await create_table(
        server.base, clock_minutes=60, scenario="bunkers", p1_name="Alice", p2_name="Bob"
    )
    alice = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    bob = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    assert (await alice.command("start"))["t"] == "ack"
    await bob.wait_version(alice.version)
    return links, alice, bob


# -- 1. an offline queue only right after the phone's return -------------------------


async def test_a_queue_sent_long_after_the_return_is_refused__DC3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """Alice's phone loses the network 4 s, is back online 20 minutes (pinging), then
    sends an "offline" pass dated at the blip: it would move the 20 minutes onto Bob's
    clock. It is refused, saying why, and the table is unchanged."""
    links, alice, _bob = await started(server, phone)
    started_at = fake_time.now_ms()
    await online_for(alice, fake_time, MIN)
    blip = fake_time.now_ms()
    await alice.ws.close()
    fake_time.advance(4 * SECOND)
    back = await seat(phone, links, "p1", "phone-1")
    await online_for(back, fake_time, 20 * MIN)
    before = await state(back)
    (answer,) = await offline(back, before["v"], [tap(2, blip, "p1")])
    assert answer["t"] == "error" and answer["code"] == "bad_input"
    assert "too late for an offline queue" in answer["message"]
    assert "came back 20 min 00 s ago" in answer["message"]
    after = await state(back)
    assert after["v"] == before["v"] and after["game"]["running"] == "p1"
    now = fake_time.now_ms()
    assert after["game"]["remaining_ms"] == [CLOCK - (now - started_at), CLOCK]
    assert not room_of(server, links["id"]).merge_refused


async def test_a_queue_after_the_seat_played_online_since_the_return_is_refused__DC3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """Back from a blip, Alice ends her deployment online, then sends an "offline"
    pass dated at the blip: too late, she has used the table online since she came
    back."""
    links, alice, _bob = await started(server, phone)
    blip = fake_time.now_ms()
    await alice.ws.close()
    fake_time.advance(4 * SECOND)
    back = await seat(phone, links, "p1", "phone-1")
    back.seq = 5
    fake_time.advance(2 * SECOND)
    assert (await back.command("pass_turn", expect="p1"))["t"] == "ack"
    before = await state(back)
    (answer,) = await offline(back, before["v"], [tap(2, blip, "p1")])
    assert answer["t"] == "error" and "too late for an offline queue" in answer["message"]
    assert "Alice has used the table online since this phone came back" in answer["message"]
    assert "P1" not in answer["message"]
    after = await state(back)
    assert after["v"] == before["v"] and after["game"]["running"] == "p2"


async def test_a_command_sent_before_the_drop_and_sent_again_first_keeps_the_queue__DC3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """An honest phone (IG2014, where a player reports the opponent's pause: DC5): Alice
    reported one (seq 2) just before her network went; it never arrived. Offline, she
    ends her deployment (seq 3). Back, her page sends the unacked report again first,
    then the queue: the report is from before her queue, not a use of the table since
    her return, and her pass is merged (counted from the report, which stands)."""
    links = await create_table(
        server.base, format="ig2014", points=50, p1_name="Alice", p2_name="Bob"
    )
    alice = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    assert (await alice.command("start"))["t"] == "ack"
    seen = alice.version  # what her page had when the network went
    await alice.ws.close()
    fake_time.advance(2 * SECOND)
    pressed = fake_time.now_ms()
    fake_time.advance(2 * SECOND)
    returned = fake_time.now_ms()
    back = await seat(phone, links, "p1", "phone-1")
    reply = await back.command("report_pause", seq=2)
    assert reply["t"] == "ack", reply
    (answer,) = await offline(back, seen, [tap(3, pressed, "p1")])
    assert answer["t"] == "ack", answer
    after = await state(back)
    assert after["game"]["running"] == "p2"
    # What the table took online since her return stands: her pass counts after it.
    clock = after["game"]["remaining_ms"][1] + (fake_time.now_ms() - returned)
    assert pressed < returned and clock == room_of(server, links["id"]).game.setup.player_clock_ms


async def test_the_same_queue_sent_again_after_the_window_is_still_a_duplicate__DC3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """An honest phone whose ack was lost sends its merged queue again, late: the same
    ack, nothing changes (the window bounds new commands only)."""
    links, alice, _bob = await started(server, phone)
    await heard(alice)
    left = fake_time.now_ms()
    await alice.ws.close()
    fake_time.advance(10 * SECOND)
    back = await seat(phone, links, "p1", "phone-1")
    queue = [tap(2, left + 5 * SECOND, "p1")]
    (first,) = await offline(back, back.version, queue)
    assert first["t"] == "ack" and not first["dup"]
    await online_for(back, fake_time, OFFLINE_WINDOW_MS + 10 * SECOND)
    (again,) = await offline(back, back.version, queue)
    assert again == {"t": "ack", "seq": 2, "v": first["v"], "dup": True}


# -- 2. the time away is the seat's ---------------------------------------------------


async def test_the_time_away_starts_when_any_phone_of_the_seat_was_last_heard__DC3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """Alice opened the table on an old device once; 20 minutes later, while her phone
    stays online, that old device says hello with a pass dated back then: it counts no
    earlier than the server last heard her phone, so Bob loses nothing."""
    links = await create_table(
        server.base, clock_minutes=60, scenario="bunkers", p1_name="Alice", p2_name="Bob"
    )
    old = await seat(phone, links, "p1", "old")
    await old.ws.close()
    alice = await seat(phone, links, "p1", "phone-1")
    await seat(phone, links, "p2", "phone-2")  # Bob's phone, quiet
    assert (await alice.command("start"))["t"] == "ack"
    started_at = fake_time.now_ms()
    await online_for(alice, fake_time, 20 * MIN)
    heard_at = fake_time.now_ms()
    fake_time.advance(SECOND)
    again = await seat(phone, links, "p1", "old")
    (answer,) = await offline(again, again.version, [tap(1, started_at + SECOND, "p1")])
    assert answer["t"] == "ack"
    game = (await state(again))["game"]
    assert game["running"] == "p2"
    now = fake_time.now_ms()
    # Alice's deployment ran until her phone was last heard; Bob's clock since then only.
    assert game["remaining_ms"] == [CLOCK - (heard_at - started_at), CLOCK - (now - heard_at)]


# -- 3. watch screens never push a seat's phone out ------------------------------------


async def test_watch_screens_cannot_make_the_server_forget_bobs_phone(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """Sixteen watch screens open while Alice's phone is away: the server still knows
    Bob's phone was online, so the time Alice's backdated pass moves onto him is noted;
    and it still knows when it last heard Alice's phone."""
    links, alice, bob = await started(server, phone)
    for _ in range(15):  # both phones online a minute
        fake_time.advance(4 * SECOND)
        await heard(alice)
        await heard(bob)
    left = fake_time.now_ms()
    await alice.ws.close()
    await online_for(bob, fake_time, 20 * SECOND)
    for i in range(16):
        watcher = await phone(links["id"], token_of(links["watch"]), f"watch-{i}")
        await watcher.ws.close()
    back = await seat(phone, links, "p1", "phone-1")
    (answer,) = await offline(back, back.version, [tap(2, left - 5 * MIN, "p1")])
    assert answer["t"] == "ack"
    await bob.wait_version(answer["v"])
    (note,) = bob.game["time_moved"]
    assert note["by"] == "p1" and note["onto"] == "p2"
    # The pass counts no earlier than the server last heard Alice's phone (not the
    # table's load, a minute before).
    assert note["pass_at_ms"] == left and note["away"] == [left, left + 20 * SECOND]


# -- 5. a queue that contradicts itself ------------------------------------------------


async def test_a_queue_that_contradicts_itself_is_refused_without_flagging_the_eo(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    """Alice's console answers an undo nobody proposed: her phone is refused, plainly;
    the EO's dashboard does not say the phones' offline taps could not be merged."""
    links, alice, _bob = await started(server, phone)
    await alice.ws.close()
    fake_time.advance(5 * SECOND)
    back = await seat(phone, links, "p1", "phone-1")
    before = await state(back)
    cmds = [{"seq": 7, "at_ms": 0, "c": "answer_undo", "accept": True}]
    for _ in range(3):
        (answer,) = await offline(back, before["v"], cmds)
        assert answer["t"] == "error" and answer["code"] == "rule"
        assert "as this phone had it" in answer["message"]
        assert "EO decides" not in answer["message"]
    room = room_of(server, links["id"])
    assert not room.merge_refused
    after = await state(back)
    assert after["v"] == before["v"] and after["game"]["running"] == "p1"


# -- 6. an unexpected failure ----------------------------------------------------------


async def test_an_unexpected_failure_refuses_the_queue_and_keeps_the_socket(
    server: RunningServer,
    phone: PhoneFactory,
    fake_time: FakeTime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    links, alice, _bob = await started(server, phone)
    await alice.ws.close()
    fake_time.advance(5 * SECOND)
    back = await seat(phone, links, "p1", "phone-1")
    placement = server.server.config.app.state.placement  # type: ignore[attr-defined]

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(placement, "merge_offline", broken)
    (answer,) = await offline(back, back.version, [tap(2, fake_time.now_ms(), "p1")])
    assert answer["t"] == "error" and answer["code"] == "internal"
    await heard(back)  # the socket's reader carries on
    assert (await state(back))["game"]["running"] == "p1"
