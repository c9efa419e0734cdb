"""A player with a browser console cannot rewrite, block or stall a table (fake clock).

Each test plays the attack over real sockets and shows it refused, the game unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import websockets

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, start_server, token_of
from tests.integration.offline_phones import heard, offline, room_of, seat, state

SECOND = 1_000
MIN = 60 * SECOND


async def away(
    phone: PhoneFactory, links: dict[str, Any], p1: Phone, time: FakeTime, ms: int = 5 * SECOND
) -> Phone:
    """P1's phone loses the network for `ms` and comes back on a new socket."""
    await p1.ws.close()
    time.advance(ms)
    return await seat(phone, links, "p1", "phone-1")


def tap(seq: int, at_ms: int, expect: str) -> dict[str, Any]:
    return {"seq": seq, "at_ms": at_ms, "c": "pass_turn", "expect": expect}


async def started(
    server: RunningServer, phone: PhoneFactory, **body: Any
) -> tuple[dict[str, Any], Phone, Phone]:
    links = await create_table(server.base, scenario="bunkers", **body)
    p1 = await seat(phone, links, "p1", "phone-1")
    p2 = await seat(phone, links, "p2", "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    return links, p1, p2


async def test_a_phone_that_never_left_cannot_send_an_offline_queue(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    _links, p1, _p2 = await started(server, phone, clock_minutes=60)
    t0 = fake_time.now_ms()
    fake_time.advance(20 * SECOND)
    before = await state(p1)
    # P1's deployment ran 20 s; a console says "I tapped at +1 s, while offline".
    answer = await offline(p1, p1.version, [tap(2, t0 + SECOND, "p1")])
    assert answer[0]["t"] == "error" and "not offline" in answer[0]["message"]
    after = await state(p1)
    assert after["v"] == before["v"] and after["game"]["running"] == "p1"
    assert after["game"]["remaining_ms"] == [60 * MIN - 20 * SECOND, 60 * MIN]


async def test_an_offline_tap_counts_only_within_the_time_the_phone_was_gone(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, _p2 = await started(server, phone, clock_minutes=60)
    t0 = fake_time.now_ms()
    fake_time.advance(20 * SECOND)
    await heard(p1)  # the server last hears from P1's phone at +20 s
    last_heard = fake_time.now_ms()
    back = await away(phone, links, p1, fake_time)
    # The queue claims the tap came at +1 s: moving 19 s of P1's time onto P2.
    answer = await offline(back, back.version, [tap(2, t0 + SECOND, "p1")])
    assert answer[0]["t"] == "ack"
    game = (await state(back))["game"]
    assert game["phase"] == "deployment" and game["running"] == "p2"
    # P1 is charged up to the last moment the server heard from their phone.
    now = fake_time.now_ms()
    assert game["remaining_ms"] == [60 * MIN - (last_heard - t0), 60 * MIN - (now - last_heard)]


async def test_an_offline_queue_from_a_version_never_sent_is_refused(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, _p2 = await started(server, phone, clock_minutes=60)
    back = await away(phone, links, p1, fake_time)
    before = await state(back)
    answer = await offline(back, back.version + 50, [tap(2, fake_time.now_ms(), "p1")])
    assert answer[0]["t"] == "error" and "base version" in answer[0]["message"]
    assert (await state(back))["v"] == before["v"]


async def test_an_offline_merge_cannot_undo_a_clock_loss__DC7(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await started(server, phone, clock_seconds=30)
    t0 = fake_time.now_ms()
    await p1.ws.close()
    fake_time.advance(40 * SECOND)  # P1's deployment clock runs out at +30 s: the server flags
    await p2.wait_version(2)
    flagged = await state(p2)
    assert flagged["game"]["flagged"] == "p1"
    back = await seat(phone, links, "p1", "phone-1")
    # "I tapped at +10 s": replayed before the flag, it would undo the clock loss.
    await offline(back, 1, [tap(2, t0 + 10 * SECOND, "p1")])
    after = await state(back)
    assert after["game"]["flagged"] == "p1"
    assert after["game"]["phase"] == flagged["game"]["phase"]
    assert after["game"]["ending"] == flagged["game"]["ending"]
    assert after["game"]["remaining_ms"] == flagged["game"]["remaining_ms"] == [0, 30 * SECOND]


async def test_an_offline_merge_cannot_flip_a_confirmed_result__TS9(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await started(server, phone, clock_minutes=60)
    t0 = fake_time.now_ms()
    fake_time.advance(SECOND)
    assert (await p1.command("concede"))["t"] == "ack"
    assert (await p2.command("report", army_points_destroyed=30))["t"] == "ack"
    assert (await p1.command("confirm"))["t"] == "ack"
    assert (await p2.command("confirm"))["t"] == "ack"
    await p1.wait_version(p2.version)
    settled = await state(p1)
    assert settled["game"]["result"]["winner"] == "p2"
    back = await away(phone, links, p1, fake_time, SECOND)
    # P1 queued "my caster was destroyed by... no: P2 conceded first" and a new report.
    queued = [
        {"seq": 10, "at_ms": t0 + 1, "c": "report", "army_points_destroyed": 75},
        {"seq": 11, "at_ms": t0 + 2, "c": "dispute", "reason": "never conceded"},
    ]
    await offline(back, 1, queued)
    after = await state(back)
    assert after["game"]["result"] == settled["game"]["result"]
    assert after["game"]["confirmed"] == [True, True] and after["game"]["disputed"] is None
    # Online, too, a confirmed result is the EO's alone now.
    refused = await back.command("report", seq=20, army_points_destroyed=75)
    assert refused["t"] == "error" and "only the EO" in refused["message"]


async def test_a_console_cannot_dispute_a_result_nobody_has_reported__TS9(
    server: RunningServer, phone: PhoneFactory
) -> None:
    _links, p1, p2 = await started(server, phone, clock_minutes=60)
    assert (await p1.command("concede"))["t"] == "ack"
    await p2.wait_version(p1.version)
    before = await state(p1)
    refused = await p1.command("dispute", reason="I never conceded")
    assert refused["t"] == "error" and refused["code"] == "rule"
    assert refused["message"] == (
        "nothing to dispute yet: a result can be disputed once a player has reported it"
    )
    after = await state(p1)
    assert after["v"] == before["v"] and after["game"]["disputed"] is None
    # The winner's report makes the result: now the conceding player may dispute it.
    assert (await p2.command("report", army_points_destroyed=30))["t"] == "ack"
    await p1.wait_version(p2.version)
    assert (await p1.command("dispute", reason="I never conceded"))["t"] == "ack"
    assert (await state(p1))["game"]["disputed"].endswith("I never conceded")


async def test_another_seat_using_my_device_id_does_not_silence_my_taps(
    server: RunningServer, phone: PhoneFactory
) -> None:
    links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    p1 = await seat(phone, links, "p1", "shared-id")
    p2 = await seat(phone, links, "p2", "shared-id")  # P2 says hello with P1's device id
    assert (await p1.command("start"))["t"] == "ack"
    assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"
    # P2's tap with a huge sequence number: dedupe used to take every later P1 tap as seen.
    assert (await p2.command("pass_turn", seq=2**52, expect="p2"))["t"] == "ack"
    ack = await p1.command("pass_turn", expect="p1")
    assert ack["t"] == "ack" and not ack["dup"]
    game = (await state(p1))["game"]
    assert (game["phase"], game["active"]) == ("advance_deployment", "p2")


async def test_device_ids_are_never_shown_to_other_screens(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, _p2 = await started(server, phone, clock_minutes=60)
    watcher = await phone(links["id"], token_of(links["watch"]), "projector")
    back = await away(phone, links, p1, fake_time)
    answer = await offline(back, back.version, [tap(2, fake_time.now_ms(), "p1")])
    assert answer[0]["t"] == "ack"
    await watcher.wait_version(answer[0]["v"])
    assert watcher.received[-1]["what"]["c"] == "merge"
    seen = json.dumps(watcher.received)
    async with httpx.AsyncClient(base_url=server.base) as http:
        log = await http.get(
            f"/api/tables/{links['id']}/log", headers={"X-Table-Token": token_of(links["watch"])}
        )
    assert log.status_code == 200 and '"merge"' in log.text
    for device in ("phone-1", "phone-2"):
        assert device not in seen and device not in log.text


async def test_a_player_cannot_mark_the_table_disputed_with_an_eo_command(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, _p2 = await started(server, phone, clock_minutes=60)
    back = await away(phone, links, p1, fake_time)
    before = await state(back)
    for command in ({"c": "pause"}, {"c": "adjust_clock", "side": "p2", "remaining_ms": 1}):
        answer = await offline(back, 1, [{"seq": 7, "at_ms": fake_time.now_ms(), **command}])
        assert answer[0]["code"] == "forbidden"
    room = room_of(server, links["id"])
    assert not room.merge_refused and room.game.disputed is None
    assert (await state(back))["v"] == before["v"]


async def test_a_table_log_comes_in_pages(server: RunningServer, phone: PhoneFactory) -> None:
    links, p1, p2 = await started(server, phone, clock_minutes=60)
    for who, client in (("p1", p1), ("p2", p2), ("p1", p1), ("p2", p2)):  # deployment
        assert (await client.command("pass_turn", expect=who))["t"] == "ack"
    for _ in range(130):  # interrupts in P1's turn 1: 260 more entries
        assert (await p1.command("switch", to="p2"))["t"] == "ack"
        assert (await p2.command("switch", to="p1"))["t"] == "ack"
    await p1.wait_version(p2.version)
    total = p1.version
    assert total == 265
    async with httpx.AsyncClient(base_url=server.base) as http:
        headers = {"X-Table-Token": token_of(links["watch"])}
        url = f"/api/tables/{links['id']}/log"
        first = (await http.get(url, headers=headers)).json()
        assert len(first["entries"]) == 200 and first["next"] == 200
        rest = (await http.get(url, params={"after": first["next"]}, headers=headers)).json()
        assert [e["v"] for e in rest["entries"]] == list(range(201, total + 1))
        assert rest["next"] is None
        too_many = await http.get(url, params={"limit": 5000}, headers=headers)
        assert too_many.status_code == 422
    await p1.send({"t": "log"})
    page = await p1.recv_until("log")
    assert len(page["entries"]) == 200 and page["next"] == 200


async def test_watchers_never_take_a_seat_or_the_eos_place(
    database_url: str, fake_time: FakeTime
) -> None:
    server = await start_server(database_url, fake_time, sockets_per_table=4)
    try:
        links = await create_table(server.base, clock_minutes=60)
        url = f"{server.ws_base}/ws/tables/{links['id']}"
        watchers = []
        for i in range(5):
            ws = await websockets.connect(url)
            await ws.send(
                json.dumps({"t": "hello", "token": token_of(links["watch"]), "device": f"w{i}"})
            )
            watchers.append((ws, json.loads(await ws.recv())))
        assert [reply["t"] for _, reply in watchers] == ["state"] * 4 + ["error"]
        for who in ("p1", "p2", "eo"):
            token = token_of(links[who]["url"]) if who in ("p1", "p2") else token_of(links[who])
            ws = await websockets.connect(url)
            await ws.send(json.dumps({"t": "hello", "token": token, "device": who}))
            reply = json.loads(await ws.recv())
            assert reply["t"] == "state" and reply["role"] == who
            await ws.close()
        for ws, _ in watchers:
            await ws.close()
    finally:
        await server.stop()


async def test_a_seats_commands_are_limited_across_its_sockets(
    database_url: str, fake_time: FakeTime
) -> None:
    server = await start_server(
        database_url, fake_time, io_time=FakeTime(), command_rate_per_s=1.0, command_burst=10.0
    )
    try:
        links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
        token = token_of(links["p1"]["url"])
        url = f"{server.ws_base}/ws/tables/{links['id']}"
        screens = []
        for device in ("a", "b"):
            ws = await websockets.connect(url)
            await ws.send(json.dumps({"t": "hello", "token": token, "device": device}))
            screens.append(Phone(ws=ws, device=device))
            await screens[-1].recv_until("state")
        # An offline message of 11 commands is 11 commands, not one message.
        cmds = [tap(i, fake_time.now_ms(), "p1") for i in range(1, 12)]
        answers = await offline(screens[0], 0, cmds)
        assert {a["code"] for a in answers} == {"rate_limited"}
        # Ten commands in all, whichever of the seat's sockets they come from.
        codes = []
        for i in range(12):
            reply = await screens[i % 2].command("propose_undo", seq=100 + i)
            codes.append(reply.get("code"))
        assert codes.count("rate_limited") == 2
        for screen in screens:
            await screen.ws.close()
    finally:
        await server.stop()
