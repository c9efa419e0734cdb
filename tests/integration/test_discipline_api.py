"""Warnings and penalties over HTTP: only the EO's key records, lists or withdraws them;
a player's own link or seat link cannot, whichever header it comes in. The player's
record sheet shows the player's own."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer, token_of


async def test_a_players_token_cannot_record_penalties(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = (await http.post("/api/events", json={"name": "Conduct day"})).json()
        eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
        ids = {}
        for name in ("Ann Archer", "Bob Boulder"):
            added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
            ids[name] = added.json()["id"]
        assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
        assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
        links = (await http.get(f"/api/events/{eid}/player-links", headers=eo)).json()
        [table] = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        tokens = [token_of(p["url"]) for p in links] + [
            token_of(table["links"][seat]["url"]) for seat in ("p1", "p2")
        ]
        body = {"player": ids["Bob Boulder"], "kind": "game_loss", "reason": "x", "round": 1}
        path = f"/api/events/{eid}/penalties"
        for token in tokens:
            for header in ("X-EO-Token", "X-Player-Token"):
                asked = await http.post(path, json=body, headers={header: token})
                assert asked.status_code == 401, asked.text
                read = await http.get(path, headers={header: token})
                assert read.status_code == 401
        assert (await http.post(path, json=body)).status_code == 401
        assert (await http.get(path, headers=eo)).json()["penalties"] == []
        games = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        assert games[0]["status"] == table["status"]  # nothing happened to the game

        given = await http.post(
            path, json={**body, "kind": "warning", "reason": "Slow play"}, headers=eo
        )
        assert given.status_code == 200, given.text
        [warning] = given.json()["penalties"]
        withdrawn = await http.post(
            f"{path}/{warning['id']}/withdraw",
            json={"reason": "x"},
            headers={"X-EO-Token": tokens[0]},
        )
        assert withdrawn.status_code == 401
        sheet = (await http.get(f"/api/events/{eid}/players/{ids['Bob Boulder']}/sheet")).json()
        assert [(p["what"], p["reason"], p["round"]) for p in sheet["penalties"]] == [
            ("Warning", "Slow play", 1)
        ]
        other = (await http.get(f"/api/events/{eid}/players/{ids['Ann Archer']}/sheet")).json()
        assert other["penalties"] == []
