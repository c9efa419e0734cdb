"""Phones that lost the venue network send their queued taps on reconnect (fake clock)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, token_of

MIN = 60_000
CLOCK = 60 * MIN


async def _table(server: RunningServer, phone: PhoneFactory) -> tuple[dict[str, Any], Phone, Phone]:
    links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    return links, p1, p2


async def _back(
    phone: PhoneFactory, links: dict[str, Any], seat: str, device: str, last: int
) -> Phone:
    """The phone reconnects: hello with the last version it saw."""
    token = token_of(links[seat]["url"]) if seat in ("p1", "p2") else token_of(links[seat])
    return await phone(links["id"], token, device, last_version=last)


async def _send_offline(
    client: Phone, base: int, cmds: list[dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """Send one offline message; return the answer (ack or error) for each seq."""
    await client.send({"t": "offline", "base": base, "cmds": cmds})
    answers: dict[int, dict[str, Any]] = {}
    wanted = {cmd["seq"] for cmd in cmds}
    while not wanted <= answers.keys():
        message = await client.recv()
        if message["t"] in ("ack", "error") and message.get("seq") in wanted:
            answers[message["seq"]] = message
    return answers


async def _state(client: Phone) -> dict[str, Any]:
    await client.send({"t": "sync"})
    return await client.recv_until("state")


def _tap(seq: int, at_ms: int, expect: str) -> dict[str, Any]:
    return {"seq": seq, "at_ms": at_ms, "c": "pass_turn", "expect": expect}


@pytest.mark.parametrize("p2_first", [True, False], ids=["p2-first", "p1-first"])
async def test_two_offline_queues_merge_as_a_physical_clock(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime, p2_first: bool
) -> None:
    links, p1, p2 = await _table(server, phone)
    assert (await p1.command("start"))["t"] == "ack"
    started = fake_time.now_ms()
    base = p1.version
    await p2.wait_version(base)
    # The venue network goes down: both sockets drop, the players go on.
    await p1.ws.close()
    await p2.ws.close()

    fake_time.advance(30_000)
    p1_tap = fake_time.now_ms()  # P1's deployment is done: P1 taps (P2's clock runs)
    fake_time.advance(20_000)
    p2_tap = fake_time.now_ms()  # P2 (who saw P1 tap) ends deployment on their phone
    fake_time.advance(40_000)  # the network is back 40 s later

    # Seqs go on from each phone's counter (P1's "start" was its seq 1).
    queues = {"p1": [_tap(2, p1_tap, "p1")], "p2": [_tap(1, p2_tap, "p2")]}
    order = [("p1", "phone-1"), ("p2", "phone-2")]
    if p2_first:
        order.reverse()
    back: dict[str, Phone] = {}
    for seat, device in order:
        client = await _back(phone, links, seat, device, base)
        answers = await _send_offline(client, base, queues[seat])
        assert [(a["t"], a["dup"]) for a in answers.values()] == [("ack", False)]
        back[seat] = client
    final = max(client.version for client in back.values())
    for client in back.values():
        await client.wait_version(final)
    assert final == base + 2  # one merged version per offline message
    assert back["p1"].game == back["p2"].game
    game = back["p1"].game
    # As a physical clock: P1 ran 30 s, P2 ran 20 s, then P1 again for the last 40 s.
    assert game["phase"] == "advance_deployment"
    assert (game["active"], game["running"]) == ("p1", "p1")
    assert game["remaining_ms"] == [CLOCK - 30_000 - 40_000, CLOCK - 20_000]
    assert game["as_of_ms"] == started + 90_000

    # The same offline message again (an ack lost on the way): a duplicate, nothing changes.
    again = await _send_offline(back["p1"], base, queues["p1"])
    assert again[2] == {"t": "ack", "seq": 2, "v": final, "dup": True}
    state = await _state(back["p1"])
    assert state["v"] == final and state["game"] == game

    async with httpx.AsyncClient(base_url=server.base) as http:
        log = (
            await http.get(
                f"/api/tables/{links['id']}/log",
                headers={"X-Table-Token": token_of(links["watch"])},
            )
        ).json()["entries"]
    assert [e["c"] for e in log] == ["start", "merge", "merge"]


async def test_p2_press_on_a_clock_not_running_does_nothing_until_p1s_tap_arrives(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await _table(server, phone)
    await p1.command("start")
    base = p1.version
    await p1.ws.close()
    await p2.ws.close()
    fake_time.advance(10_000)
    p1_tap = fake_time.now_ms()
    fake_time.advance(15_000)
    p2_tap = fake_time.now_ms()
    fake_time.advance(5_000)

    # Only P2's queue is known yet: P1's clock still runs, so P2's press did nothing.
    p2b = await _back(phone, links, "p2", "phone-2", base)
    assert (await _send_offline(p2b, base, [_tap(7, p2_tap, "p2")]))[7]["t"] == "ack"
    await p2b.wait_version(base + 1)
    assert p2b.game["phase"] == "deployment" and p2b.game["running"] == "p1"
    assert p2b.game["remaining_ms"] == [CLOCK - 30_000, CLOCK]

    # P1's tap comes before it: now P2's press counts.
    p1b = await _back(phone, links, "p1", "phone-1", base)
    assert (await _send_offline(p1b, base, [_tap(3, p1_tap, "p1")]))[3]["t"] == "ack"
    await p2b.wait_version(base + 2)
    await p1b.wait_version(base + 2)
    assert p2b.game == p1b.game
    assert p2b.game["phase"] == "advance_deployment" and p2b.game["running"] == "p1"
    assert p2b.game["remaining_ms"] == [CLOCK - 10_000 - 5_000, CLOCK - 15_000]


async def test_inconsistent_queues_are_refused_and_change_nothing(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await _table(server, phone)
    await p1.command("start")
    base = p1.version
    await p1.ws.close()
    await p2.ws.close()
    fake_time.advance(10_000)
    tapped = fake_time.now_ms()  # P2 presses while P1's clock runs: that alone does nothing
    fake_time.advance(10_000)
    conceded = fake_time.now_ms()  # P1 concedes on their phone
    fake_time.advance(20_000)
    too = fake_time.now_ms()  # ...and P2 concedes on theirs: who won? The EO decides.
    fake_time.advance(5_000)

    p1b = await _back(phone, links, "p1", "phone-1", base)
    concede = {"seq": 2, "at_ms": conceded, "c": "concede"}
    assert (await _send_offline(p1b, base, [concede]))[2]["t"] == "ack"
    await p1b.wait_version(base + 1)
    assert p1b.game["phase"] == "over"
    version, game = p1b.version, p1b.game

    p2b = await _back(phone, links, "p2", "phone-2", base)
    await p2b.wait_version(version)
    queued = [_tap(1, tapped, "p2"), {"seq": 2, "at_ms": too, "c": "concede"}]
    answers = await _send_offline(p2b, base, queued)
    for seq in (1, 2):
        assert answers[seq]["t"] == "error" and answers[seq]["code"] == "merge_refused"
        assert "EO decides" in answers[seq]["message"]
    # The server state stands, for both phones.
    for client in (p1b, p2b):
        state = await _state(client)
        assert state["v"] == version
        assert {k: v for k, v in state["game"].items() if k != "as_of_ms"} == {
            k: v for k, v in game.items() if k != "as_of_ms"
        }


async def test_a_watch_links_offline_queue_is_refused(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, _ = await _table(server, phone)
    await p1.command("start")
    watch = await phone(links["id"], token_of(links["watch"]), "watcher")
    fake_time.advance(5_000)
    await watch.send(
        {"t": "offline", "base": watch.version, "cmds": [_tap(1, fake_time.now_ms(), "p1")]}
    )
    refused = await watch.recv_until("error")
    assert refused["code"] == "forbidden" and refused["seq"] == 1
    state = await _state(watch)
    assert state["v"] == p1.version and state["game"]["running"] == "p1"


async def _classic_turn(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> tuple[dict[str, Any], Phone, Phone]:
    """A Classic Turn Timing table (75 points: 10-minute turns) in P1's turn 1."""
    links = await create_table(
        server.base,
        format="sr2019",
        points=75,
        scenario="king-of-the-hill",
        variants=["classic_turn_timing"],
    )
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    for client, seat in ((p1, "p1"), (p2, "p2")) * 2:  # deployment, advance deployment
        fake_time.advance(MIN)
        assert (await client.command("pass_turn", expect=seat))["t"] == "ack"
    await p1.wait_version(p2.version)
    assert (p1.game["phase"], p1.game["active"]) == ("turn", "p1")
    return links, p1, p2


async def test_offline_turn_timer_presses_merge_within_the_time_away__DC10(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await _classic_turn(server, phone, fake_time)
    assert (await p1.command("start_timer"))["t"] == "ack"
    started, base = fake_time.now_ms(), p1.version
    await p2.wait_version(base)
    await p1.ws.close()
    await p2.ws.close()  # the hall Wi-Fi goes down

    fake_time.advance(90_000)
    stopped = fake_time.now_ms()  # Ann stops the timer while Bob rolls
    fake_time.advance(60_000)
    # A double press, and a restart the phone dated a minute after its return: untrusted,
    # it counts at the return, as a tap on the chess clock would.
    queued = [
        {"seq": 20, "at_ms": stopped, "c": "stop_timer"},
        {"seq": 21, "at_ms": stopped + 1_000, "c": "stop_timer"},
        {"seq": 22, "at_ms": fake_time.now_ms() + MIN, "c": "start_timer"},
    ]
    p1b = await _back(phone, links, "p1", "phone-1", base)
    back_at = fake_time.now_ms()
    answers = await _send_offline(p1b, base, queued)
    assert {a["t"] for a in answers.values()} == {"ack"}
    p2b = await _back(phone, links, "p2", "phone-2", base)
    await p1b.wait_version(base + 1)
    await p2b.wait_version(base + 1)
    assert p1b.game == p2b.game
    timer = p1b.game["timer"]
    assert timer["running"] and not p1b.game["paused"]
    # 90 s ran before the stop; it runs again from the return, never from the phone's future.
    assert timer["left_ms"] == 10 * MIN - 90_000 - (timer["as_of_ms"] - back_at)
    assert timer["left_ms"] <= 10 * MIN - (stopped - started)


async def test_offline_turn_extension_refused_on_merge_leaves_the_servers_timer__DC10(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, _ = await _classic_turn(server, phone, fake_time)
    base = p1.version
    await p1.ws.close()
    fake_time.advance(MIN)
    taken = fake_time.now_ms()  # Ann takes her extension on her phone, offline...
    fake_time.advance(MIN)
    eo = await phone(links["id"], token_of(links["eo"]), "eo-laptop")
    assert (await eo.command("pause"))["t"] == "ack"  # ...and the EO pauses the table
    version, game = eo.version, eo.game
    p1b = await _back(phone, links, "p1", "phone-1", base)
    answers = await _send_offline(p1b, base, [{"seq": 9, "at_ms": taken, "c": "take_extension"}])
    assert answers[9]["t"] == "error" and answers[9]["code"] == "merge_refused"
    assert "turn extension" in answers[9]["message"] and "EO decides" in answers[9]["message"]
    state = await _state(p1b)
    assert state["v"] == version and state["game"]["paused"]
    assert state["game"]["timer"]["extensions_taken"] == [False, False]
    shown = state["game"]["timer"]
    assert shown == {**game["timer"], "as_of_ms": shown["as_of_ms"]}
