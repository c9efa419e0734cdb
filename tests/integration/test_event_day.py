"""A whole 9-player, 4-round Steamroller event over HTTP and WebSockets, fake clock."""

from __future__ import annotations

import json
from typing import Any

import httpx
import websockets

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, token_of

PLAYERS = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
STRENGTH = {name: rank for rank, name in enumerate(PLAYERS)}  # Ann beats everyone


async def _finish_table(phone: PhoneFactory, table: dict[str, Any], how: str) -> None:
    """Both seat phones play the table out: the weaker player loses, or a drawn game."""
    names = table["names"]
    tid = table["id"]
    p1 = await phone(tid, token_of(table["links"]["p1"]["url"]), f"{tid}-1")
    p2 = await phone(tid, token_of(table["links"]["p2"]["url"]), f"{tid}-2")
    loser, winner = (p2, p1) if STRENGTH[names[0]] < STRENGTH[names[1]] else (p1, p2)
    # Who goes first, off the clock: the dice rolled at the table go the first seat's way,
    # its player goes first and starts deployment.
    assert (await p1.command("roll", at_table=[6, 1]))["t"] == "ack"
    assert (await p1.command("choose_order", first=True))["t"] == "ack"
    assert (await p1.command("start"))["t"] == "ack"
    if how == "concession":
        assert (await loser.command("concede"))["t"] == "ack"
        await winner.command("report", army_points_destroyed=20, list_played="list 1")
    elif how == "draw":
        # Both casters fall at once and every tiebreaker is level (TS6, TS7).
        for side, client in (("p1", p1), ("p2", p2), ("p1", p1), ("p2", p2)):
            assert (await client.command("pass_turn", expect=side))["t"] == "ack"
        assert (await p1.command("caster_destroyed", both=True))["t"] == "ack"
        for client in (p1, p2):
            await client.command("report", army_points_destroyed=25, scenario_presence=10)
    else:
        for side, client in (("p1", p1), ("p2", p2), ("p1", p1), ("p2", p2)):
            assert (await client.command("pass_turn", expect=side))["t"] == "ack"
        assert (await loser.command("caster_destroyed"))["t"] == "ack"  # TS6
        await winner.command("report", army_points_destroyed=45)
        await loser.command("report", army_points_destroyed=15)
    for client in (p1, p2):
        assert (await client.command("confirm"))["t"] == "ack", client.received[-1]
    await p1.ws.close()
    await p2.ws.close()


def _expected_standings(rounds: list[dict[str, Any]], ids: dict[str, str]) -> list[tuple[Any, ...]]:
    """ST1 from the recorded games, computed independently of the app."""
    names = {v: k for k, v in ids.items()}
    tp = dict.fromkeys(PLAYERS, 0)
    cp = dict.fromkeys(PLAYERS, 0)
    apd = dict.fromkeys(PLAYERS, 0)
    opponents: dict[str, list[str]] = {n: [] for n in PLAYERS}
    for rnd in rounds:
        for pairing in rnd["pairings"]:
            a = names[pairing["p1"]["id"]]
            if pairing["p2"] is None:
                tp[a] += 1
                cp[a] += 3
                apd[a] += 38  # RP3: half of 75, rounded up
                continue
            b = names[pairing["p2"]["id"]]
            result = pairing["result"]
            opponents[a].append(b)
            opponents[b].append(a)
            for index, who in enumerate((a, b)):
                tp[who] += 1 if result["winner"] == ("p1", "p2")[index] else 0
                cp[who] += result["control_points"][index]
                apd[who] += result["army_points_destroyed"][index]
    sos = {n: sum(tp[o] for o in opponents[n]) for n in PLAYERS}
    rows = [(n, tp[n], sos[n], cp[n], apd[n]) for n in PLAYERS]
    return sorted(rows, key=lambda r: (-r[1], -r[2], -r[3], -r[4], r[0]))


async def test_nine_player_four_round_event__RP1_RP2_RP3_ST1_DC4(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = (
            await http.post("/api/events", json={"name": "Steamroller at the Hall", "points": 75})
        ).json()
        eid = created["id"]
        eo = {"X-EO-Token": created["admin_token"]}
        assert "#k=" in created["admin_url"]
        # Nothing changes without the EO's link (its key), and the refusal says so in words.
        refused = await http.post(f"/api/events/{eid}/players", json={"name": "Mallory"})
        assert refused.status_code == 401 and "EO's link" in refused.json()["detail"]

        csv_body = "name,faction\n" + "\n".join(f"{n},Cygnar" for n in PLAYERS[:6])
        imported = (
            await http.post(f"/api/events/{eid}/players/import", content=csv_body, headers=eo)
        ).json()
        assert len(imported["added"]) == 6 and imported["errors"] == []
        for name in PLAYERS[6:]:
            response = await http.post(
                f"/api/events/{eid}/players", json={"name": name}, headers=eo
            )
            assert response.status_code == 201
        ids = {p["name"]: p["id"] for p in (await http.get(f"/api/events/{eid}")).json()["players"]}

        dashboard = await websockets.connect(f"{server.ws_base}/ws/events/{eid}")
        await dashboard.send(json.dumps({"t": "hello", "token": created["admin_token"]}))
        snapshot = json.loads(await dashboard.recv())
        assert snapshot["t"] == "dashboard" and snapshot["role"] == "eo"

        scenarios = set()
        for number in range(1, 5):
            paired = await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)
            assert paired.status_code == 201, paired.text
            rnd = paired.json()
            scenarios.add(rnd["scenario"]["id"])
            byes = [p for p in rnd["pairings"] if p["p2"] is None]
            assert len(byes) == 1  # RP3: 9 players, one bye
            assert len(rnd["pairings"]) == 5
            early = await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)
            assert early.status_code == 400  # not started yet

            started = (
                await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
            ).json()
            assert started["expected_end_ms"] is None  # set once every table has begun
            blocked = await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)
            assert blocked.status_code == 400 and "results" in blocked.json()["detail"]

            tables = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
            current = [t for t in tables if t["round"] == number]
            assert len(current) == 4 and all(t["status"] == "pregame" for t in current)
            for i, table in enumerate(sorted(current, key=lambda t: t["table_no"])):
                fake_time.advance(60_000)
                last_start = fake_time.now_ms()
                # Round 3 is all draws, so no player can lead alone before round 4 (RP1).
                how = "draw" if number == 3 else "concession" if i == 0 else "assassination"
                await _finish_table(phone, table, how)

            view = (await http.get(f"/api/events/{eid}")).json()
            assert view["rounds"][-1]["complete"]
            # DC4: the last table's deployment start plus both player clocks.
            assert view["rounds"][-1]["expected_end_ms"] == last_start + 2 * 60 * 60_000
        assert len(scenarios) == 4  # RP4: never repeated

        view = (await http.get(f"/api/events/{eid}")).json()
        assert view["event"]["planned_rounds"] == 4  # RP1: 9 players
        assert view["event"]["over"]
        after = await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)
        assert after.status_code == 400

        # RP2: nobody met the same opponent twice.
        met = set()
        for rnd in view["rounds"]:
            for p in rnd["pairings"]:
                if p["p2"]:
                    pair = frozenset((p["p1"]["id"], p["p2"]["id"]))
                    assert pair not in met
                    met.add(pair)

        standings = view["standings"]
        expected = _expected_standings(view["rounds"], ids)
        got = [
            (s["name"], s["tp"], s["sos"], s["control_points"], s["army_points_destroyed"])
            for s in standings
        ]
        assert sorted(got, key=lambda r: (-r[1], -r[2], -r[3], -r[4], r[0])) == expected
        # Hand count: 3 decisive rounds of 4 games, and a bye in each of the 4 rounds.
        assert sum(s["tp"] for s in standings) == 3 * 4 + 4
        ties = [p for p in view["rounds"][2]["pairings"] if p["p2"] is not None]
        assert all(p["result"]["winner"] is None for p in ties)
        assert all(p["result"]["army_points_destroyed"] == [25, 25] for p in ties)
        byes = [p["p1"]["id"] for r in view["rounds"] for p in r["pairings"] if p["p2"] is None]
        assert len(set(byes)) == 4  # RP3: nobody gets two byes

        sheet = (await http.get(f"/api/events/{eid}/players/{ids['Ann']}/sheet")).json()
        assert [r["result"] for r in sheet["rounds"]].count("Loss") == 0
        assert len(sheet["rounds"]) == 4 and sheet["rounds"][2]["result"] in ("Tie", "Bye")
        csv_text = (await http.get(f"/api/events/{eid}/standings.csv")).text
        assert csv_text.splitlines()[0].startswith("rank,") and "Ann" in csv_text

        # The dashboard got coalesced table updates along the way.
        updates = 0
        while True:
            try:
                message = json.loads(await __import__("asyncio").wait_for(dashboard.recv(), 0.5))
            except TimeoutError:
                break
            updates += message["t"] == "tables"
        await dashboard.close()
        assert updates > 0


async def test_scenario_and_draft_pairings_are_not_public_before_the_round_starts__RP4(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = (await http.post("/api/events", json={"name": "Quiet draft"})).json()
        eid = created["id"]
        eo = {"X-EO-Token": created["admin_token"]}
        for name in PLAYERS[:5]:
            await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        paired = (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).json()
        scenario = paired["scenario"]["name"]

        public = (await http.get(f"/api/events/{eid}")).json()
        [draft] = public["rounds"]
        assert draft["number"] == 1 and not draft["announced"]
        assert draft["scenario"] is None and draft["pairings"] == []
        assert scenario not in json.dumps(public)
        assert all(s["tp"] == 0 for s in public["standings"])  # nor who has the bye
        csv_text = (await http.get(f"/api/events/{eid}/pairings.csv")).text
        assert scenario not in csv_text and "Bye" not in csv_text

        watcher = await websockets.connect(f"{server.ws_base}/ws/events/{eid}")
        await watcher.send(json.dumps({"t": "hello", "token": ""}))
        snapshot = json.loads(await watcher.recv())
        assert snapshot["role"] == "public" and snapshot["tables"] == []
        assert scenario not in json.dumps(snapshot)
        await watcher.close()

        admin = (await http.get(f"/api/events/{eid}/admin", headers=eo)).json()
        assert admin["rounds"][0]["scenario"]["name"] == scenario  # the EO still sees it all
        assert len(admin["rounds"][0]["pairings"]) == 3

        await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
        public = (await http.get(f"/api/events/{eid}")).json()
        assert public["rounds"][0]["announced"]
        assert public["rounds"][0]["scenario"]["name"] == scenario
        assert len(public["rounds"][0]["pairings"]) == 3


async def test_new_event_form_offers_the_lists_of_each_format__lists(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert "Masters Dyad, 2 lists" in page and "Masters Trinity, 3 lists" in page
        assert "Champions, 1 list, a 2nd optional" in page
        form = {"name": "Masters night", "format": "masters2019", "points": "75"}
        refused = await http.post("/events", data=form)
        assert refused.status_code == 400 and "Dyad" in refused.text
        made = await http.post("/events", data={**form, "lists": "3", "cut_to_top": "3"})
        assert made.status_code == 303
        eid = made.headers["location"].split("/")[2]
        event = (await http.get(f"/api/events/{eid}")).json()["event"]
        assert (event["lists"], event["cut_to_top"]) == (3, 3)
