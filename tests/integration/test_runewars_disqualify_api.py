"""The organiser disqualifies a Runewars player over HTTP (POST
…/tournament/players/{player}/disqualify, EO only, with the reason): "The organizer, at
his or her sole discretion, may remove players from the tournament for unsporting
conduct" and "Disqualified players are removed from the tournament, and cannot rejoin"
(runewars-tournament-regulations-2017.txt; RP7)."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer


async def test_disqualify_needs_the_eo_token_and_a_reason__RP7(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = await http.post(
            "/api/events", json={"name": "Conduct", "format": "runewars2017", "fixed_rounds": 3}
        )
        eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
        base = f"/api/events/{eid}/tournament"
        ids = {}
        for name in ("Ann", "Bob", "Cal", "Dee"):
            added = await http.post(
                f"{base}/players", json={"name": name, "army_value": 190}, headers=eo
            )
            ids[name] = added.json()["id"]
        url = f"{base}/players/{ids['Dee']}/disqualify"
        why = {"reason": "Threw dice at his opponent"}

        assert (await http.post(url, json=why)).status_code == 401
        wrong = await http.post(url, json=why, headers={"X-EO-Token": "not-the-key"})
        assert wrong.status_code in (401, 403)
        assert (await http.post(url, headers=eo)).status_code == 422  # no reason at all
        blank = await http.post(url, json={"reason": "  "}, headers=eo)
        assert blank.status_code == 400 and blank.json()["detail"].startswith(
            "say why Dee is disqualified"
        )
        long = await http.post(url, json={"reason": "x" * 301}, headers=eo)
        assert long.status_code == 422
        view = (await http.get(base, headers=eo)).json()
        assert not next(p for p in view["players"] if p["name"] == "Dee")["dropped"]

        done = await http.post(url, json=why, headers=eo)
        assert done.status_code == 200, done.text
        dee = next(p for p in done.json()["players"] if p["name"] == "Dee")
        assert dee["disqualified"] and dee["dropped"]
        row = next(s for s in done.json()["standings"] if s["name"] == "Dee")
        assert row["status"] == "disqualified"
        assert ",Dee,0,0,0.00,False,disqualified," in (await http.get(f"{base}/standings.csv")).text

        back = await http.post(f"{base}/players/{ids['Dee']}/rejoin", headers=eo)
        assert back.status_code == 400
        assert back.json()["detail"] == "Dee is disqualified: a disqualified player cannot rejoin"

        actions = (await http.get(f"/api/events/{eid}/actions", headers=eo)).json()
        logged = [a for a in actions if a["action"] == "disqualify"]
        assert [(a["player"], a["reason"]) for a in logged] == [
            (ids["Dee"], "Threw dice at his opponent")
        ]

        links = (await http.get(f"/api/events/{eid}/player-links", headers=eo)).json()
        key = next(row["url"] for row in links if row["name"] == "Dee").split("#k=", 1)[1]
        mine = (await http.get(f"/api/events/{eid}/me", headers={"X-Player-Token": key})).json()
        assert mine["player"]["disqualified"]

        paired = await http.post(f"{base}/rounds", headers=eo)
        assert paired.status_code == 201
        assert all(
            ids["Dee"] not in (p["p1"]["id"], (p["p2"] or {}).get("id"))
            for p in paired.json()["pairings"]
        )
