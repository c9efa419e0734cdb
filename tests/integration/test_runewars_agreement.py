"""A Runewars event's results over real sockets and HTTP (TS11, ST5, DC11): the event
takes a table's result once both phones confirm it; a dispute reaches the organiser
with both players' entries and reasons, and the organiser's decision (with its reason)
reaches both phones; after time is called the organiser enters a table that never
scored; the round counter steps back when both players agree."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import Phone, PhoneFactory, RunewarsRound, RunningServer, runewars_round
from tests.conftest import token_of as key


async def _seats(rw: RunewarsRound, phone: PhoneFactory) -> tuple[Phone, Phone]:
    links = rw.table["links"]
    p1 = await phone(rw.table["id"], key(links["p1"]["url"]), "phone-1")
    p2 = await phone(rw.table["id"], key(links["p2"]["url"]), "phone-2")
    return p1, p2


async def _start_and_set_up(
    http: httpx.AsyncClient, rw: RunewarsRound, p1: Phone, p2: Phone
) -> None:
    """The organiser starts the round; the chooser (the lower army) makes the pairing's
    first player go first, and the other player takes red."""
    started = await http.post(
        f"/api/events/{rw.event_id}/tournament/rounds/current/start", headers=rw.eo
    )
    assert started.status_code == 200, started.text
    await p1.recv_until("state")  # the round started: the whole table comes
    await p2.recv_until("state")
    chooser = p1 if p1.game["chooser"] == "p1" else p2
    assert (await chooser.command("choose_first", first="p1"))["t"] == "ack"
    assert (await p2.command("choose_area", area="red"))["t"] == "ack"


async def _pairing(http: httpx.AsyncClient, rw: RunewarsRound) -> dict[str, Any]:
    view = (await http.get(f"/api/events/{rw.event_id}/tournament", headers=rw.eo)).json()
    pairing: dict[str, Any] = view["rounds"][0]["pairings"][0]
    return pairing


async def _tp(http: httpx.AsyncClient, rw: RunewarsRound) -> list[int]:
    """Each seat's player's TP, in seat order."""
    view = (await http.get(f"/api/events/{rw.event_id}/tournament")).json()
    tp = {s["name"]: s["tp"] for s in view["standings"]}
    return [tp[rw.table["links"][seat]["name"]] for seat in ("p1", "p2")]


async def test_the_event_takes_a_result_once_both_phones_confirm_it__TS11_ST5(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Agree")
        p1, p2 = await _seats(rw, phone)
        await _start_and_set_up(http, rw, p1, p2)
        assert (await p2.command("army_destroyed", side="p2"))["t"] == "ack"
        assert (await p1.command("enter_score", destroyed=190, objectives=0))["t"] == "ack"
        assert (await p2.command("enter_score", destroyed=60, objectives=10))["t"] == "ack"
        assert p2.game["result"]["winner"] == "p1" and p2.game["settled"] is False
        pairing = await _pairing(http, rw)
        assert pairing["status"] == "awaiting_confirmation" and pairing["result"] is None
        assert await _tp(http, rw) == [0, 0]

        assert (await p1.command("confirm"))["t"] == "ack"
        assert (await _pairing(http, rw))["result"] is None  # one player is not both
        assert (await p2.command("confirm"))["t"] == "ack"
        pairing = await _pairing(http, rw)
        assert pairing["status"] == "confirmed"
        assert pairing["result"]["tp"] == [9, 2]  # 200 against 70: MoV 130 (ST5)
        assert await _tp(http, rw) == [9, 2]
        late = await p2.command("dispute", reason="changed my mind")
        assert late["t"] == "error" and "only the organiser corrects it" in late["message"]


async def test_a_dispute_goes_to_the_organiser_with_both_reports__TS11_ST5(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Dispute")
        p1, p2 = await _seats(rw, phone)
        await _start_and_set_up(http, rw, p1, p2)
        for n in (1, 2, 3, 4, 5, 6, 7, 8):
            assert (await p1.command("end_game_round", expect=n))["t"] == "ack"
        assert (await p1.command("enter_score", destroyed=120, objectives=20))["t"] == "ack"
        early = await p2.command("dispute", reason="not yet")  # one score: no result yet
        assert early["t"] == "error" and early["code"] == "rule"
        assert early["message"].startswith("nothing to dispute yet")
        assert (await p2.command("enter_score", destroyed=80, objectives=0))["t"] == "ack"
        assert (await p1.command("confirm"))["t"] == "ack"
        reason = "the objective token was mine at the end"
        assert (await p2.command("dispute", reason=reason))["t"] == "ack"
        refused = await p1.command("confirm")
        assert refused["t"] == "error" and "the organiser decides" in refused["message"]

        tid = rw.table["id"]
        detail = (await http.get(f"/api/events/{rw.event_id}/tables/{tid}", headers=rw.eo)).json()
        assert [r["entry"] for r in detail["reports"]] == [[120, 20], [80, 0]]
        assert [r["disputed"] for r in detail["reports"]] == [None, reason]
        assert [r["confirmed"] for r in detail["reports"]] == [True, False]
        pairing = await _pairing(http, rw)
        assert pairing["status"] == "disputed" and pairing["judging"]["disputed"] is True
        assert pairing["judging"]["needs_reason"] is True

        url = f"/api/events/{rw.event_id}/tables/{tid}/result"
        body = {"entries": [[120, 0], [80, 20]]}
        bare = await http.put(url, json=body, headers=rw.eo)
        assert bare.status_code == 400 and "players disagree" in bare.json()["detail"]
        decided = await http.put(url, json={**body, "reason": "it was held"}, headers=rw.eo)
        assert decided.status_code == 200, decided.text
        assert decided.json()["result"]["scores"] == [120, 100]
        while not p2.game.get("settled"):
            await p2.recv()
        assert p2.game["judged"] is True and p2.game["judged_reason"] == "it was held"
        assert p2.game["disputed"] == [None, None]
        assert await _tp(http, rw) == [6, 5]  # MoV 20 (ST5)


async def test_after_time_is_called_the_organiser_enters_a_table_that_never_scored__DC11_ST5(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Time")
        p1, p2 = await _seats(rw, phone)
        await _start_and_set_up(http, rw, p1, p2)
        called = await http.post(
            f"/api/events/{rw.event_id}/tournament/rounds/current/time", headers=rw.eo
        )
        assert called.status_code == 200
        assert called.json()["rounds"][0]["time_called"] is True
        while not p1.game.get("time_called"):
            await p1.recv()
        assert p1.game["phase"] == "playing"  # the game round is not finished yet

        url = f"/api/events/{rw.event_id}/tables/{rw.table['id']}/result"
        body = {"entries": [[100, 0], [40, 0]]}
        bare = await http.put(url, json=body, headers=rw.eo)
        assert bare.status_code == 400 and "has not ended at the table" in bare.text
        entered = await http.put(url, json={**body, "reason": "never scored"}, headers=rw.eo)
        assert entered.status_code == 200, entered.text
        assert entered.json()["result"]["ended_by"] == "time"
        while not p2.game.get("settled"):
            await p2.recv()
        assert p2.game["phase"] == "over" and p2.game["judged_reason"] == "never scored"
        assert await _tp(http, rw) == [7, 4]  # MoV 60 (ST5)
        over = await p1.command("end_game_round", expect=1)
        assert over["t"] == "error" and "result stands" in over["message"]


async def test_the_round_counter_steps_back_when_both_players_agree__TS11(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Back")
        p1, p2 = await _seats(rw, phone)
        await _start_and_set_up(http, rw, p1, p2)
        for n in (1, 2):
            assert (await p1.command("end_game_round", expect=n))["t"] == "ack"
        assert (await p2.command("step_back", expect=3))["t"] == "ack"
        await p1.wait_version(p2.version)
        assert p1.game["step_back"] == "p2" and p1.game["game_round"] == 3
        assert (await p1.command("keep_round"))["t"] == "ack"  # turned down
        await p2.wait_version(p1.version)
        assert p2.game["step_back"] is None and p2.game["game_round"] == 3
        assert (await p2.command("step_back", expect=3))["t"] == "ack"
        assert (await p1.command("step_back", expect=3))["t"] == "ack"  # agreed
        await p2.wait_version(p1.version)
        assert p2.game["game_round"] == 2 and p2.game["step_back"] is None
        stale = await p2.command("step_back", expect=3)
        assert stale["t"] == "error" and "game round 2" in stale["message"]
        watcher = await phone(rw.table["id"], key(rw.table["links"]["watch"]), "watch")
        refused = await watcher.command("step_back", expect=2)
        assert refused["t"] == "error"
