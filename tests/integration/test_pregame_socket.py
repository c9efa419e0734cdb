"""The pre-game over real sockets: secret lists and objectives never reach the other
phone (nor a watcher, nor the EO) before both have chosen; the server rolls the dice;
the seats follow who goes first, into the result and the player record sheet."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx

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


async def _event_table(
    server: RunningServer,
) -> tuple[httpx.AsyncClient, str, dict[str, str], dict[str, Any]]:
    http = httpx.AsyncClient(base_url=server.base)
    body = {"name": "Pre-game night", "format": "sr2019", "lists": 2, "pregame": True}
    created = (await http.post("/api/events", json=body)).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    ids = {}
    for name, lists in (("Ann", "Haley Prime\nStryker 3"), ("Bob", "Kreoss\nSeverius")):
        added = await http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": lists}, headers=eo
        )
        assert added.status_code == 201, added.text
        ids[name] = added.json()["id"]
    paired = await http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"}, headers=eo)
    assert paired.status_code == 201, paired.text
    started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
    assert started.status_code == 200, started.text
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    return http, eid, {**ids, "eo": created["admin_token"]}, table


def without_lists(message: Any) -> Any:
    """A message less the Lists view's lists (every list of both players, public at the
    table from the pairing: SR2019 "Players can ask to see their opponent's lists at any
    time")."""
    if isinstance(message, dict):
        return {k: without_lists(v) for k, v in message.items() if k != "armies"}
    if isinstance(message, list):
        return [without_lists(v) for v in message]
    return message


def _texts(phone: Phone) -> str:
    """Every message the screen received, as sent, less the six objectives' names every
    screen has to choose from and the lists every screen shows in full."""
    text = "\n".join(json.dumps(without_lists(m)) for m in phone.received)
    return re.sub(r'"objective_choices": \[[^\]]*\]', "", text)


async def test_secret_choices_reach_no_other_screen_before_both_have_chosen__TS9_ST6(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    http, eid, ids, table = await _event_table(server)
    tid = table["id"]
    hub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    seat_of = {table["names"][0]: "p1", table["names"][1]: "p2"}
    ann = await phone(tid, token_of(table["links"][seat_of["Ann"]]["url"]), "ann")
    bob = await phone(tid, token_of(table["links"][seat_of["Bob"]]["url"]), "bob")
    watch = await phone(tid, token_of(table["links"]["watch"]), "watch")
    assert ann.game["phase"] == "ready" and ann.game["pregame"]["step"] == "lists"
    assert ann.received[0]["game"]["pregame"]["mine"]["choices"] == ["Haley Prime", "Stryker 3"]
    # Neither phone has the other's lists to choose from.
    assert "Kreoss" not in _texts(ann) and "Haley" not in _texts(bob)

    assert (await ann.command("choose_list", list="Stryker 3"))["t"] == "ack"
    await bob.wait_version(ann.version)
    await watch.wait_version(ann.version)
    assert bob.game["pregame"]["lists_chosen"] == [True, False] or bob.game["pregame"][
        "lists_chosen"
    ] == [False, True]
    for other in (bob, watch):
        assert "Stryker" not in _texts(other), "a list reached another screen before the reveal"
    watch_token = {"X-Table-Token": token_of(table["links"]["watch"])}
    log = await http.get(f"/api/tables/{tid}/log", headers=watch_token)
    assert log.status_code == 200 and "choose_list" in log.text
    assert "Stryker" not in log.text  # the table log keeps the secret too
    # Ann's own screens know her choice (and only hers).
    assert ann.received[-1]["t"] in ("state", "ack")

    assert (await bob.command("choose_list", list="Kreoss"))["t"] == "ack"
    await ann.wait_version(bob.version)
    assert sorted(ann.game["pregame"]["lists"]) == ["Kreoss", "Stryker 3"]  # both at once

    assert (await ann.command("choose_objective", objective="Armory"))["t"] == "ack"
    await bob.wait_version(ann.version)
    assert "Armory" not in _texts(bob) and "Armory" not in _texts(watch)
    assert (await bob.command("choose_objective", objective="Stockpile"))["t"] == "ack"
    await ann.wait_version(bob.version)
    assert ann.game["pregame"]["objectives"] == [None, None]  # revealed after the sides
    assert "Stockpile" not in _texts(ann)

    # The starting roll: the server's dice, a tie rolled again; the second seat wins.
    first_seat, second_seat = (ann, bob) if seat_of["Ann"] == "p1" else (bob, ann)
    hub.rooms[tid].dice = LoadedDice([3, 3, 2, 5])
    roll = await first_seat.command("roll", value=6)  # a phone cannot choose its die
    assert roll["t"] == "ack"
    await second_seat.command("roll")
    await first_seat.wait_version(second_seat.version)
    assert first_seat.game["pregame"]["rolls"] == [[3, 3]]
    assert first_seat.game["pregame"]["step"] == "roll"
    await first_seat.command("roll")
    await second_seat.command("roll")
    await first_seat.wait_version(second_seat.version)
    pregame = first_seat.game["pregame"]
    assert pregame["step"] == "order" and pregame["winner"] == "p2"
    assert pregame["rolls"] == [[3, 3], [2, 5]]
    refused = await first_seat.command("choose_order", first=True)
    assert refused["t"] == "error" and "winner of the starting roll" in refused["message"]
    # The second seat goes first: it is P1 from now on, for the clock and the result.
    assert (await second_seat.command("choose_order", first=True))["t"] == "ack"
    # The seats' sides changed: each screen gets the table afresh (the sender's own
    # before its ack).
    assert [m["t"] for m in second_seat.received[-3:]] == ["event", "state", "ack"]
    await first_seat.recv_until("state")
    assert (second_seat.role, first_seat.role) == ("p1", "p2")
    names = table["names"]
    assert first_seat.received[-1]["table"]["names"] == [names[1], names[0]]
    assert (await second_seat.command("choose_edge", swap=True))["t"] == "error"
    assert (await first_seat.command("choose_edge", swap=False))["t"] == "ack"
    await second_seat.wait_version(first_seat.version)
    pregame = second_seat.game["pregame"]
    assert pregame["step"] == "done"
    chosen = {"ann": ("Stryker 3", "Armory"), "bob": ("Kreoss", "Stockpile")}
    first, second = chosen[first_seat.device], chosen[second_seat.device]
    assert pregame["lists"] == [second[0], first[0]]  # P1's (the second seat's) first
    assert pregame["objectives"] == [second[1], first[1]]

    # P1 (the second seat) starts the clock; the first seat concedes; the lists played
    # are in the result and on both record sheets, each against its own player.
    assert (await first_seat.command("start"))["t"] == "error"
    assert (await second_seat.command("start"))["t"] == "ack"
    assert (await first_seat.command("concede"))["t"] == "ack"
    assert (await second_seat.command("report", army_points_destroyed=40))["t"] == "ack"
    for client in (ann, bob):
        assert (await client.command("confirm"))["t"] == "ack"
    winner, loser = ("Ann", "Bob") if second_seat is ann else ("Bob", "Ann")
    played = {"Ann": "Stryker 3", "Bob": "Kreoss"}
    sheet = (await http.get(f"/api/events/{eid}/players/{ids[winner]}/sheet")).json()
    assert sheet["rounds"][0]["result"] == "Win"
    assert sheet["rounds"][0]["list_played"] == played[winner]
    sheet = (await http.get(f"/api/events/{eid}/players/{ids[loser]}/sheet")).json()
    assert sheet["rounds"][0]["result"] == "Loss"
    assert sheet["rounds"][0]["list_played"] == played[loser]
    standings = (await http.get(f"/api/events/{eid}")).json()["standings"]
    assert standings[0]["name"] == winner
    await http.aclose()


async def test_a_quick_game_has_no_pregame_unless_asked(
    server: RunningServer, phone: PhoneFactory
) -> None:
    """Quick games start as they always did; asked for, the pre-game takes free lists."""
    plain = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    p1 = await phone(plain["id"], token_of(plain["p1"]["url"]), "plain-1")
    assert p1.game["pregame"] is None
    assert p1.game["due"] == [{"kind": "start", "by": "p1"}]

    links = await create_table(server.base, **PREGAME_QUICK)
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "quick-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "quick-2")
    assert p1.game["pregame"]["step"] == "lists"
    assert p1.received[0]["game"]["pregame"]["mine"]["choices"] == []
    assert (await p1.command("start"))["t"] == "error"
    assert (await p1.command("choose_list", list="Butcher 3"))["t"] == "ack"
    assert (await p2.command("choose_list", list="Haley 2"))["t"] == "ack"
    await p1.wait_version(p2.version)
    assert p1.game["pregame"]["lists"] == ["Butcher 3", "Haley 2"]
    # Stuck at the roll (a phone gone): the EO starts the clock over the pre-game.
    eo = await phone(links["id"], token_of(links["eo"]), "eo")
    assert (await eo.command("start"))["t"] == "ack"
    assert eo.game["phase"] == "deployment" and eo.game["running"] == "p1"
    refused = await p2.command("roll")
    assert refused["t"] == "error" and "pre-game is over" in refused["message"]


async def test_the_new_event_form_asks_for_the_pregame(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        form = await http.get("/events/new")
        assert 'name="pregame"' in form.text and "checked" in form.text
        for sent, wanted in (({"pregame": "1"}, True), ({}, False)):
            created = await http.post("/events", data={"name": "Form night", **sent})
            assert created.status_code == 303
            eid = created.headers["location"].split("/")[2]
            events = server.server.config.app.state.events  # type: ignore[attr-defined]
            assert events.book.event(eid).pregame is wanted
