"""A Runewars event created over HTTP: POST /api/events with format=runewars2017, players
with army values, a round paired on Runewars tables, standings and their CSV; the format
is listed by GET /api/formats and offered on the home and new-event pages (RP6, ST5)."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer


async def test_create_a_runewars_event_over_http__RP6_ST5(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        formats = (await http.get("/api/formats")).json()
        runewars = next(f for f in formats if f["id"] == "runewars2017")
        assert runewars["engine"] == "runewars" and runewars["round_minutes"] == 90
        assert 'value="runewars2017"' in (await http.get("/")).text
        assert 'value="runewars2017"' in (await http.get("/events/new")).text
        body = {"format": "runewars2017", "scenario": "random", "p1_name": "Ann", "p2_name": "Bob"}
        quick = await http.post("/quick", data=body)  # the links page, after a redirect
        assert quick.status_code == 303 and quick.headers["location"].endswith("/links")
        links = await http.get(quick.headers["location"])
        assert links.status_code == 200 and "Runewars 2017" in links.text, links.text[:500]
        form = await http.post(
            "/events",
            data={
                "name": "RW by form",
                "format": "runewars2017",
                "fixed_rounds": "3",
                "cut_to_top": "4",
            },
        )
        assert form.status_code == 303 and "/admin#k=" in form.headers["location"]
        page = await http.get(form.headers["location"].split("#", 1)[0])
        assert "tournament.js" in page.text

        # RP6: without a count of its own, the Swiss rounds are by attendance (Basic).
        unnamed = await http.post("/api/events", json={"name": "RW", "format": "runewars2017"})
        assert unnamed.status_code == 201, unnamed.text
        plan = (await http.get(f"/api/events/{unnamed.json()['id']}/tournament")).json()["plan"]
        assert plan == {"swiss_rounds": 0, "cut": 0, "by_attendance": "basic"}
        created = await http.post(
            "/api/events",
            json={
                "name": "Runewars Open",
                "format": "runewars2017",
                "fixed_rounds": 3,
                "cut_to_top": 4,
            },
        )
        assert created.status_code == 201, created.text
        eid = created.json()["id"]
        eo = {"X-EO-Token": created.json()["admin_token"]}
        base = f"/api/events/{eid}/tournament"

        refused = await http.post(f"{base}/players", json={"name": "Mallory", "army_value": 180})
        assert refused.status_code == 401
        too_big = await http.post(
            f"{base}/players", json={"name": "Ann", "army_value": 201}, headers=eo
        )
        assert too_big.status_code == 400 and "200" in too_big.json()["detail"]
        for n, name in enumerate(["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"]):
            added = await http.post(
                f"{base}/players", json={"name": name, "army_value": 190 + n}, headers=eo
            )
            assert added.status_code == 201, added.text

        view = (await http.get(f"/api/events/{eid}")).json()
        assert view["format"] == "runewars2017" and view["plan"] == {
            "swiss_rounds": 3,
            "cut": 4,
            "by_attendance": None,
        }
        assert {p["name"]: p["army_value"] for p in view["players"]}["Fay"] == 195

        paired = await http.post(f"{base}/rounds", headers=eo)
        assert paired.status_code == 201, paired.text
        round_1 = paired.json()
        assert round_1["stage"] == "swiss" and round_1["minutes"] == 90
        assert len(round_1["pairings"]) == 3 and all(p["table_id"] for p in round_1["pairings"])
        again = await http.post(f"{base}/rounds", headers=eo)
        assert again.status_code == 409 or again.status_code == 400
        assert "results to come in" in again.json()["detail"]

        started = await http.post(f"{base}/rounds/current/start", headers=eo)
        assert started.status_code == 200
        tables = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        assert len(tables) == 3 and all(t["game"] == "runewars" for t in tables)
        # DC11: the round timer runs from the start; the players then set up the game.
        assert [(t["time_left_ms"], t["running"], t["phase"]) for t in tables] == [
            (90 * 60_000, True, "first_player")
        ] * 3

        standings = (await http.get(f"{base}/standings.csv")).text.splitlines()
        assert (
            standings[0] == "rank,player_id,name,tp,mov,sos,dropped,status,dropped_after"
            and len(standings) == 7
        )
        wm = await http.post("/api/events", json={"name": "SR"})
        plain = await http.get(f"/api/events/{wm.json()['id']}/tournament")
        assert plain.status_code == 404
