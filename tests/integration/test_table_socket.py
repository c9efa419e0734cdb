"""Two phones and a watcher over real WebSockets against a real server, fake clock."""

from __future__ import annotations

import itertools

import httpx
import websockets

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, start_server, token_of

MIN = 60_000
NO_SCORE = {"control": {}, "destroyed": []}


async def _table(server: RunningServer, phone: PhoneFactory, **body: object):  # type: ignore[no-untyped-def]
    clock = {} if "clock_seconds" in body else {"clock_minutes": 60}
    links = await create_table(server.base, **{**clock, "scenario": "bunkers", **body})
    tid = links["id"]
    p1 = await phone(tid, token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(tid, token_of(links["p2"]["url"]), "phone-2")
    return links, p1, p2


async def test_scripted_game_to_a_confirmed_result__DC3_TS1_TS2_TS3_TS4_TS9(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await _table(server, phone)
    watch = await phone(links["id"], token_of(links["watch"]), "watcher")
    assert (p1.role, p2.role, watch.role) == ("p1", "p2", "watch")

    assert (await p1.command("start"))["t"] == "ack"
    # DC3: deployment, then advance deployment, then P1's turn 1.
    taps = [("p1", p1), ("p2", p2), ("p1", p1), ("p2", p2)]
    for side, client in taps:
        fake_time.advance(30_000)
        assert (await client.command("pass_turn", expect=side))["t"] == "ack"
    await p2.wait_version(p1.version)
    assert p2.game["phase"] == "turn" and p2.game["turn"] == 1 and p2.game["running"] == "p1"
    assert p2.game["remaining_ms"] == [60 * MIN - 60_000, 60 * MIN - 60_000]

    fake_time.advance(5 * MIN)
    await p1.command("pass_turn", expect="p1")  # end of P1's turn 1: nothing due
    fake_time.advance(5 * MIN)
    await p2.command("pass_turn", expect="p2")
    assert p2.game["kill_box_due"] and not p2.game["scoring_due"]  # P1's turn 2 (TS3)
    fake_time.advance(MIN)
    no_answer = await p1.command("pass_turn", expect="p1")
    assert no_answer["t"] == "error" and "kill box" in no_answer["message"].lower()
    await p1.command("pass_turn", expect="p1", kill_box=False)
    assert p1.game["scoring_due"]  # end of P2's turn 2 is scored (TS2)
    await p2.command(
        "pass_turn",
        expect="p2",
        kill_box=False,
        scoring={"control": {"rect-1": "p2"}, "destroyed": []},
    )
    assert p2.game["control_points"] == [0, 1]
    await p1.command(
        "pass_turn",
        expect="p1",
        kill_box=False,
        scoring={
            "control": {"rect-1": "p1", "rect-2": "p1", "flag-1": "p1", "flag-2": "p1"},
            "destroyed": ["objective-p2"],
        },
    )
    assert p1.game["control_points"] == [5, 1] and p1.game["phase"] == "turn"
    # P2 ends turn 3 with their caster in the kill box: P1 +2, a 6 CP lead wins at once.
    await p2.command("pass_turn", expect="p2", kill_box=True, scoring=NO_SCORE)
    assert p2.game["phase"] == "over"
    assert p2.game["ending"]["method"] == "scenario" and p2.game["ending"]["winner"] == "p1"
    assert p2.game["running"] is None

    await p1.command("report", army_points_destroyed=31, list_played="Haley")
    await p2.command("report", army_points_destroyed=12, list_played="Butcher")
    for client in (p1, p2):
        assert (await client.command("confirm"))["t"] == "ack"
    await watch.wait_version(p2.version)
    for client in (p1, p2, watch):
        await client.wait_version(p2.version)
        assert client.game == p2.game
    result = watch.game["result"]
    assert result == {
        "winner": "p1",
        "method": "scenario",
        "control_points": [7, 1],
        "army_points_destroyed": [31, 12],
        "lists": ["Haley", "Butcher"],
        "words": f"{watch.received[0]['table']['names'][0]} wins by scenario",
        "reason": "",
        "conceded_army": None,  # a scenario win: no conceded army to halve (TS8)
    }
    assert watch.game["confirmed"] == [True, True]

    async with httpx.AsyncClient(base_url=server.base) as http:
        log = (
            await http.get(
                f"/api/tables/{links['id']}/log",
                headers={"X-Table-Token": token_of(links["watch"])},
            )
        ).json()["entries"]
        denied = await http.get(f"/api/tables/{links['id']}/log")
    assert denied.status_code == 403
    assert [e["v"] for e in log] == list(range(1, p2.version + 1))
    assert [e["c"] for e in log][:6] == ["start"] + ["pass_turn"] * 5
    assert all(later["at_ms"] >= earlier["at_ms"] for earlier, later in itertools.pairwise(log))


async def test_resent_command_changes_nothing(server: RunningServer, phone: PhoneFactory) -> None:
    _, p1, p2 = await _table(server, phone)
    first = await p1.command("start")
    version = p1.version
    again = await p1.command("start", seq=first["seq"])
    assert again == {"t": "ack", "seq": first["seq"], "v": first["v"], "dup": True}
    tap = await p1.command("pass_turn", expect="p1")
    resent = await p1.command("pass_turn", expect="p1", seq=tap["seq"])
    assert resent["dup"] and resent["v"] == tap["v"] == version + 1
    await p2.wait_version(version + 1)
    assert p2.game["running"] == "p2" and p1.version == version + 1


async def test_stale_double_tap_cannot_pass_the_clock_twice__TS1(
    server: RunningServer, phone: PhoneFactory
) -> None:
    _, p1, p2 = await _table(server, phone)
    await p1.command("start")
    # Both phones saw P1 running and both tap.
    one = await p1.command("pass_turn", expect="p1")
    two = await p2.command("pass_turn", expect="p1")
    assert one["t"] == "ack"
    assert two["t"] == "error" and two["code"] == "stale"
    await p2.wait_version(one["v"])
    assert p2.game["running"] == "p2" and p2.version == one["v"]


async def test_bad_messages_get_an_error_and_change_nothing(
    server: RunningServer, phone: PhoneFactory
) -> None:
    links, p1, _ = await _table(server, phone)
    await p1.command("start")
    version, game = p1.version, p1.game
    bad: list[str | bytes] = [
        "not json",
        "[1, 2]",
        '{"t": "dance"}',
        '{"t": "cmd", "seq": 9, "c": "fly"}',
        '{"t": "cmd", "c": "start"}',
        '{"t": "cmd", "seq": 10, "c": "pass_turn", "expect": "p3"}',
        '{"t": "cmd", "seq": 11, "c": "pause"}',
        '{"t": "cmd", "seq": 12, "c": "adjust_clock", "side": "p1", "remaining_ms": 1}',
        b"\x00\x01binary",
        "x" * 20_000,
    ]
    for message in bad:
        await p1.send(message)
        reply = await p1.recv_until("error")
        assert reply["message"], message
    await p1.send({"t": "sync"})
    state = await p1.recv_until("state")
    assert state["v"] == version
    assert state["game"]["running"] == game["running"] == "p1"

    watch = await phone(links["id"], token_of(links["watch"]), "watcher")
    refused = await watch.command("pass_turn", expect="p1")
    assert refused["t"] == "error" and refused["code"] == "forbidden"
    assert watch.version == version


async def test_unknown_token_is_refused(server: RunningServer) -> None:
    links = await create_table(server.base, clock_minutes=1)
    async with websockets.connect(f"{server.ws_base}/ws/tables/{links['id']}") as ws:
        await ws.send('{"t": "hello", "token": "guess", "device": "x"}')
        reply = await ws.recv()
        assert '"forbidden"' in str(reply)


async def test_server_flags_the_running_clock_at_zero__DC7(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    _, p1, p2 = await _table(server, phone, clock_seconds=90)
    await p1.command("start")
    started = p1.version
    fake_time.advance(90_000)
    await p2.wait_version(started + 1)
    await p1.wait_version(started + 1)
    for client in (p1, p2):
        assert client.game["flagged"] == "p1"
        assert client.game["remaining_ms"][0] == 0
        # Ran out during deployment, not in their own turn: P1 loses on time.
        assert client.game["ending"]["method"] == "clock"
        assert client.game["ending"]["winner"] == "p2"


async def test_eo_pauses_and_players_cannot__DC5(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await _table(server, phone)
    eo = await phone(links["id"], token_of(links["eo"]), "eo-laptop")
    assert eo.role == "eo"
    await p1.command("start")
    assert (await p2.command("pause"))["code"] == "forbidden"
    fake_time.advance(10_000)
    assert (await eo.command("pause"))["t"] == "ack"
    fake_time.advance(10 * MIN)
    assert (await eo.command("resume"))["t"] == "ack"
    assert eo.game["remaining_ms"][0] == 60 * MIN - 10_000


async def test_restart_keeps_acked_commands_and_running_clock(
    database_url: str, fake_time: FakeTime, phone: PhoneFactory, server: RunningServer
) -> None:
    links, p1, _p2 = await _table(server, phone)
    await p1.command("start")
    fake_time.advance(20_000)
    await p1.command("pass_turn", expect="p1")
    fake_time.advance(5_000)
    version = p1.version
    await server.stop()

    fake_time.advance(60_000)  # the server is down for a minute; P2's clock keeps running
    again = await start_server(database_url, fake_time)
    try:
        p2b = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2", at=again)
        assert p2b.version == version
        assert p2b.game["running"] == "p2"
        assert p2b.game["remaining_ms"] == [60 * MIN - 20_000, 60 * MIN - 65_000]
        # The command acked before the restart is known: re-sending it is a duplicate.
        resent = await p2b.command("pass_turn", expect="p1", seq=1)
        assert resent["t"] == "error"  # phone-2 never sent seq 1: evaluated, stale
        p1b = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1", at=again)
        dup = await p1b.command("pass_turn", expect="p1", seq=2)
        assert dup["dup"] and dup["v"] == version
    finally:
        await again.stop()


async def test_reconnect_with_last_version_gets_missed_events(
    server: RunningServer, phone: PhoneFactory
) -> None:
    links, p1, p2 = await _table(server, phone)
    seen = p2.version
    await p2.ws.close()
    await p1.command("start")
    await p1.command("pass_turn", expect="p1")
    back = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2", last_version=seen)
    await back.wait_version(p1.version)
    kinds = [m["t"] for m in back.received]
    assert kinds == ["event", "event"]
    assert back.game == p1.game


async def test_undo_within_ten_seconds_when_both_agree(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    _, p1, p2 = await _table(server, phone)
    await p1.command("start")
    fake_time.advance(15_000)
    await p1.command("pass_turn", expect="p1")
    fake_time.advance(3_000)
    await p1.command("propose_undo")
    assert (await p1.command("answer_undo", accept=True))["code"] == "forbidden"
    fake_time.advance(2_000)
    assert (await p2.command("answer_undo", accept=True))["t"] == "ack"
    # As if the tap never happened: P1 has been running all 20 s.
    assert p2.game["running"] == "p1" and p2.game["phase"] == "deployment"
    assert p2.game["remaining_ms"] == [60 * MIN - 20_000, 60 * MIN]
