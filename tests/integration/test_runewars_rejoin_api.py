"""RP7 over HTTP (the regulations' "Pairings"): the organiser lets a dropped player
rejoin (POST …/tournament/players/{player}/rejoin, EO only); each round paired without
them is an unpaired loss, 0 TP and MoV 0 (ST5), in the standings, their CSV and the
player's own page; they are paired again from the next round. A late registration stays
refused: the document lets a dropped player rejoin, it has no late registration."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import RunningServer


async def _play_round(http: httpx.AsyncClient, eid: str, eo: dict[str, str]) -> dict[str, Any]:
    """The round paired and started; the organiser enters every table's result (the
    first-named player wins 130 to 40: MoV 90, 8 TP and 3 TP)."""
    base = f"/api/events/{eid}/tournament"
    paired = await http.post(f"{base}/rounds", headers=eo)
    assert paired.status_code == 201, paired.text
    assert (await http.post(f"{base}/rounds/current/start", headers=eo)).status_code == 200
    for p in paired.json()["pairings"]:
        if p["p2"] is None:
            continue
        body = {"entries": [[120, 10], [40, 0]], "reason": "scores from the sheet"}
        put = await http.put(
            f"/api/events/{eid}/tables/{p['table_id']}/result", json=body, headers=eo
        )
        assert put.status_code == 200, put.text
    return dict(paired.json())


async def test_a_dropped_player_rejoins_with_a_loss_per_missed_round__RP7_ST5_RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = await http.post(
            "/api/events", json={"name": "Rejoin", "format": "runewars2017", "fixed_rounds": 4}
        )
        eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
        base = f"/api/events/{eid}/tournament"
        ids = {}
        for name in ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"):
            added = await http.post(
                f"{base}/players", json={"name": name, "army_value": 190}, headers=eo
            )
            ids[name] = added.json()["id"]
        await _play_round(http, eid, eo)
        dee_after_1 = next(
            s for s in (await http.get(base)).json()["standings"] if s["name"] == "Dee"
        )
        assert (await http.post(f"{base}/players/{ids['Dee']}/drop", headers=eo)).status_code == 200
        round_2 = await _play_round(http, eid, eo)
        assert all(
            ids["Dee"] not in (p["p1"]["id"], (p["p2"] or {}).get("id"))
            for p in round_2["pairings"]
        )

        url = f"{base}/players/{ids['Dee']}/rejoin"
        assert (await http.post(url)).status_code == 401
        not_dropped = await http.post(f"{base}/players/{ids['Ann']}/rejoin", headers=eo)
        assert not_dropped.status_code == 400
        assert (
            not_dropped.json()["detail"] == "Ann has not dropped: only a dropped player can rejoin"
        )
        late = await http.post(
            f"{base}/players", json={"name": "Gil", "army_value": 190}, headers=eo
        )
        assert late.status_code == 400 and "registration is closed" in late.json()["detail"]

        back = await http.post(url, headers=eo)
        assert back.status_code == 200, back.text
        view = back.json()
        assert not next(p for p in view["players"] if p["name"] == "Dee")["dropped"]
        dee = next(s for s in view["standings"] if s["name"] == "Dee")
        assert (dee["tp"], dee["mov"], dee["dropped"]) == (
            dee_after_1["tp"],
            dee_after_1["mov"],
            False,
        )
        csv = (await http.get(f"{base}/standings.csv")).text
        assert f",Dee,{dee['tp']},{dee['mov']}," in csv and csv.count("True") == 0
        actions = (await http.get(f"/api/events/{eid}/actions", headers=eo)).json()
        assert any(a["action"] == "rejoin" and a["player"] == ids["Dee"] for a in actions)

        links = (await http.get(f"/api/events/{eid}/player-links", headers=eo)).json()
        key = next(row["url"] for row in links if row["name"] == "Dee").split("#k=", 1)[1]
        mine = (await http.get(f"/api/events/{eid}/me", headers={"X-Player-Token": key})).json()
        assert not mine["player"]["dropped"]
        assert [(r["round"], r["result"], r["tp"], r["mov"]) for r in mine["record"]][1:] == [
            (2, "missed", 0, 0)
        ]

        round_3 = (await http.post(f"{base}/rounds", headers=eo)).json()
        assert any(
            ids["Dee"] in (p["p1"]["id"], (p["p2"] or {}).get("id")) for p in round_3["pairings"]
        )
        again = await http.post(url, headers=eo)
        assert again.status_code == 400 and "Dee has not dropped" in again.json()["detail"]
