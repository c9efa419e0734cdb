"""The Lists view and the specialist step over real sockets (IG2014 "Specialists"): both
phones hold every list of both players from the pairing, whole; the list each plays and
each one's specialist swap reach no other screen before both have chosen, then both at
once; an illegal swap is refused in the list's words; the swap is kept to the result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import Phone, PhoneFactory, RunningServer, token_of
from tests.integration.test_pregame_socket import LoadedDice, without_lists

FIXTURES = Path(__file__).parent.parent / "fixtures" / "army_lists"
IRUSK = (FIXTURES / "written_with_specialists.txt").read_text(encoding="utf-8").strip()
IRUSK_NAME = IRUSK.splitlines()[0]
HALEY = (
    "Haley 2 / Storm Division (75)\n- Stormclad (19)\nStorm Lances (22)\nSpecialists:\nArcher (6)"
)
LISTS = {
    "Ann": IRUSK + "\n\nButcher 3 / Jaws of the Wolf (75)\n- Juggernaut (16)",
    "Bob": HALEY + "\n\nKreoss 1 (74)\n- Repenter (6)",
}


async def ig2014_table(server: RunningServer) -> tuple[httpx.AsyncClient, dict[str, Any]]:
    http = httpx.AsyncClient(base_url=server.base)
    body = {"name": "Gauntlet", "format": "ig2014", "lists": 2, "points": 75, "pregame": True}
    created = await http.post("/api/events", json=body)
    assert created.status_code == 201, created.text
    eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
    ids = {}
    for name, lists in LISTS.items():
        added = await http.post(
            f"/api/events/{eid}/players",
            json={"name": name, "lists": lists, "painted": True},
            headers=eo,
        )
        assert added.status_code == 201, added.text
        ids[name] = added.json()["id"]
    paired = await http.post(
        f"/api/events/{eid}/rounds", json={"scenario": "destruction"}, headers=eo
    )
    assert paired.status_code == 201, paired.text
    assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    return http, {**table, "event_id": eid, "ids": ids}


def _frames(phone: Phone) -> str:
    """What the screen received outside the Lists view's lists."""
    return "\n".join(json.dumps(without_lists(m)) for m in phone.received)


async def test_the_lists_in_full_and_a_secret_specialist_swap_revealed_at_once(
    server: RunningServer, phone: PhoneFactory
) -> None:
    http, table = await ig2014_table(server)
    tid = table["id"]
    seat_of = {table["names"][0]: "p1", table["names"][1]: "p2"}
    ann = await phone(tid, token_of(table["links"][seat_of["Ann"]]["url"]), "ann")
    bob = await phone(tid, token_of(table["links"][seat_of["Bob"]]["url"]), "bob")
    watch = await phone(tid, token_of(table["links"]["watch"]), "watch")
    # From the pairing, each phone holds the opponent's lists in full: every model.
    ann_side = 0 if seat_of["Ann"] == "p1" else 1
    armies = ann.game["pregame"]["armies"]
    assert bob.game["pregame"]["armies"] == armies
    haley, kreoss = armies[1 - ann_side]
    assert [m["name"] for m in haley["models"]] == ["Stormclad", "Storm Lances"]
    assert [m["name"] for m in haley["specialists"]] == ["Archer"]
    assert [m["name"] for m in kreoss["models"]] == ["Repenter"]
    irusk = armies[ann_side][0]
    assert irusk["name"] == IRUSK_NAME and len(irusk["models"]) == 5

    assert (await ann.command("choose_list", list=IRUSK_NAME))["t"] == "ack"
    assert (await bob.command("choose_list", list=haley["name"]))["t"] == "ack"
    await ann.wait_version(bob.version)
    assert ann.game["pregame"]["step"] == "specialists"

    refused = await ann.command("choose_specialists", removed=["Widowmaker Marksman"], added=[])
    assert refused["t"] == "error"
    assert "would total 71 points" in refused["message"]
    assert "specialist substitutions cannot result in an illegal army list" in refused["message"]

    swap = {"removed": ["Widowmaker Marksman"], "added": ["Kovnik Jozef"]}
    assert (await ann.command("choose_specialists", **swap))["t"] == "ack"
    await bob.wait_version(ann.version)
    await watch.wait_version(ann.version)
    for other in (bob, watch):
        seen = _frames(other)
        assert "Kovnik" not in seen and "Widowmaker" not in seen, "a swap leaked before both chose"
    assert bob.game["pregame"]["specialists"] == [None, None]
    assert sorted(bob.game["pregame"]["specialists_chosen"]) == [False, True]
    watch_token = {"X-Table-Token": token_of(table["links"]["watch"])}
    log = await http.get(f"/api/tables/{tid}/log", headers=watch_token)
    assert "choose_specialists" in log.text and "Kovnik" not in log.text

    assert (await bob.command("choose_specialists", removed=[], added=[]))["t"] == "ack"
    await ann.wait_version(bob.version)
    revealed = ann.game["pregame"]["specialists"]
    assert revealed[ann_side] == {
        "removed": ["Widowmaker Marksman: 4"],
        "added": ["Kovnik Jozef (C) (4)"],
    }
    assert revealed[1 - ann_side] == {"removed": [], "added": []}
    assert ann.game["pregame"]["step"] == "roll"

    # Through the pre-game to the result: the swap is kept with it, on the record sheet.
    hub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    hub.rooms[tid].dice = LoadedDice([6, 1])
    first, second = (ann, bob) if seat_of["Ann"] == "p1" else (bob, ann)
    await first.command("roll")
    await second.command("roll")
    await second.wait_version(first.version)
    assert (await first.command("choose_order", first=True))["t"] == "ack"
    await second.wait_version(first.version)
    assert (await second.command("choose_edge", swap=False))["t"] == "ack"
    await first.wait_version(second.version)
    assert (await first.command("start"))["t"] == "ack"
    assert (await second.command("concede"))["t"] == "ack"
    assert (await first.command("report", army_points_destroyed=40))["t"] == "ack"
    for client in (ann, bob):
        assert (await client.command("confirm"))["t"] == "ack"
    eid = table["event_id"]
    players = table["ids"]
    sheet = (await http.get(f"/api/events/{eid}/players/{players['Ann']}/sheet")).json()
    assert sheet["rounds"][0]["list_played"] == IRUSK_NAME
    assert (
        sheet["rounds"][0]["specialists"] == "out Widowmaker Marksman: 4; in Kovnik Jozef (C) (4)"
    )
    sheet = (await http.get(f"/api/events/{eid}/players/{players['Bob']}/sheet")).json()
    assert "specialists" not in sheet["rounds"][0]  # no swap
    await http.aclose()
