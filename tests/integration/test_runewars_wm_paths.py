"""The Warmachine event and table paths a Runewars event or table can reach: each
either works by the Runewars rules (its ST5 standings, its round timer commands, what
the EO sees of a table) or answers 400 `unsupported` with the reason its ruleset gives,
and changes nothing (the event, the EO's actions, the table's log stay as they were)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import PhoneFactory, RunningServer, create_table, runewars_round, token_of

#: (method, path under /api/events/{id}, JSON body, words of the reason).
REFUSED: tuple[tuple[str, str, Any, str], ...] = (
    ("POST", "/players", {"name": "Zed"}, "army value, not army lists"),
    ("PUT", "/players/{a}", {"name": "Ann"}, "army value, not army lists"),
    ("POST", "/players/{a}/drop", {"dropped": True}, "army value, not army lists"),
    ("DELETE", "/players/{a}", None, "army value, not army lists"),
    ("POST", "/players/{a}/disqualify", {}, "army value, not army lists"),
    ("POST", "/rounds", {}, "pairs by the Runewars rules"),
    ("POST", "/rounds/current/swap", {"a": "{a}", "b": "{b}"}, "no seat swap"),
    ("POST", "/rounds/current/start", None, "one round timer"),
    ("POST", "/rounds/current/end", None, "one round timer"),
    ("GET", "/rounds/current/end-preview", None, "one round timer"),
    ("POST", "/rounds/current/repair", None, "one round timer"),
    ("DELETE", "/rounds/current", None, "one round timer"),
    ("GET", "/players/{a}/sheet", None, "margin of victory, not control points"),
    ("GET", "/pairings.csv", None, "margin of victory, not control points"),
    ("GET", "/results.csv", None, "margin of victory, not control points"),
    ("GET", "/prizes", None, "no prize list or votes"),
    ("POST", "/prizes/best_painted/vote", {}, "no prize list or votes"),
    ("POST", "/prizes/best_painted/close", None, "no prize list or votes"),
    ("POST", "/prizes/best_painted/award", {"player": "{a}"}, "no prize list or votes"),
    ("POST", "/tables/{t}/command", {"c": "pause"}, "no chess clock"),
    ("POST", "/tables/{t}/command", {"c": "resume"}, "no chess clock"),
    ("POST", "/tables/{t}/command", {"c": "adjust_clock", "side": "p1"}, "no chess clock"),
    ("POST", "/tables/{t}/command", {"c": "call_tie"}, "does not end in a tie"),
    ("POST", "/tables/{t}/command", {"c": "dice_down"}, "no dice down"),
    ("POST", "/tables/{t}/command", {"c": "concede"}, "round timer or call time"),
)


def _fill(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {k: _fill(v, names) for k, v in value.items()}
    return value


async def test_a_runewars_event_answers_every_warmachine_path_or_refuses_it__RP6_ST5_DC11(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Paths")
        eid, eo, ids, table = rw.event_id, rw.eo, rw.players, rw.table
        base, api = f"/api/events/{eid}/tournament", f"/api/events/{eid}"
        names = {"a": ids[0], "b": ids[1], "t": table["id"]}

        async def snapshot() -> tuple[Any, Any, Any]:
            view = (await http.get(base)).json()
            actions = (await http.get(f"{api}/actions", headers=eo)).json()
            log = await http.get(
                f"/api/tables/{table['id']}/log",
                headers={"X-Table-Token": token_of(table["links"]["eo"])},
            )
            return view, actions, log.json()["entries"]

        before = await snapshot()
        for method, path, body, words in REFUSED:
            response = await http.request(
                method, api + _fill(path, names), json=_fill(body, names), headers=eo
            )
            assert response.status_code == 400, (method, path, response.text)
            assert response.json()["code"] == "unsupported", (path, response.text)
            assert words in response.json()["detail"], (path, response.text)
        assert await snapshot() == before  # nothing changed
        sheet = await http.get(f"/e/{eid}/players/{ids[0]}/sheet")
        assert sheet.status_code == 400 and "margin of victory, not control points" in sheet.text

        # ST5: the event's own standings, also as CSV.
        standings = (await http.get(f"{api}/standings")).json()
        assert [s["name"] for s in standings] and {"tp", "mov", "sos"} <= set(standings[0])
        csv = await http.get(f"{api}/standings.csv")
        assert csv.status_code == 200 and csv.text.startswith("rank,player_id,name,tp,mov")

        # What the EO sees of the table: where it stands, each player's report (none yet).
        detail = (await http.get(f"{api}/tables/{table['id']}", headers=eo)).json()
        assert detail["game"] == "runewars" and detail["phase"] == "first_player"
        assert detail["scenario"] == table["scenario"]
        assert [r["entry"] for r in detail["reports"]] == [None, None]

        # DC11: one table's round timer waits for the round's start (every table's at
        # once); then the EO calls time on one table by itself.
        url = f"{api}/tables/{table['id']}/command"
        early = await http.post(url, json={"c": "start_round"}, headers=eo)
        assert early.status_code == 400 and "Round 1 has not started" in early.text
        started = await http.post(f"{base}/rounds/current/start", headers=eo)
        assert started.status_code == 200, started.text
        again = await http.post(url, json={"c": "start_round"}, headers=eo)
        assert again.status_code == 400 and "already running" in again.text
        called = await http.post(url, json={"c": "call_time"}, headers=eo)
        assert called.status_code == 200 and called.json()["v"] == 2
        actions = [a["action"] for a in (await http.get(f"{api}/actions", headers=eo)).json()]
        assert actions[-2:] == ["start_round", "table_call_time"]


async def test_warmachine_commands_at_a_runewars_table_are_refused_with_reasons__TS3_TS7(
    server: RunningServer, phone: PhoneFactory
) -> None:
    links = await create_table(
        server.base,
        format="runewars2017",
        p1_name="Ann",
        p2_name="Bob",
        p1_army=200,
        p2_army=180,
    )
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    version = p1.version
    for name, fields, words in (
        ("pass_turn", {"expect": "p1", "kill_box": True}, "kill box"),
        ("claim_scenario", {}, "control points"),
        ("caster_destroyed", {"side": "p2"}, "no casters"),
        ("report", {"army_points_destroyed": 10}, "tiebreak reports"),
        ("switch", {}, "no chess clock"),
        ("open_pregame", {}, "chooses the first player"),
    ):
        refused = await p1.command(name, **fields)
        assert refused["t"] == "error" and refused["code"] == "unsupported", refused
        assert words in refused["message"]
    async with httpx.AsyncClient(base_url=server.base) as http:
        log = await http.get(
            f"/api/tables/{links['id']}/log", headers={"X-Table-Token": token_of(links["eo"])}
        )
    assert log.json()["entries"] == [] and p1.version == version  # nothing was logged
