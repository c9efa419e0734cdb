"""Army list variants, the painting declaration and Champions' Active Duty Roster over
HTTP: refusals come back as the usual 4xx with the reason; the EO's note lets lists
stand; the new-event form takes the roster."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer, token_of

ROSTER = "Leaders:\nButcher 3\nTheme forces:\nJaws of the Wolf\nWinter Guard Kommand"


async def test_champions_adr_refusal_and_eo_note_over_the_api(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = await http.post(
            "/api/events",
            json={"name": "Champs", "format": "champions2019", "active_duty_roster": ROSTER},
        )
        assert created.status_code == 201
        eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
        players = f"/api/events/{eid}/players"
        refused = await http.post(
            players, json={"name": "Ann", "lists": "Sorscha 1 / Jaws of the Wolf"}, headers=eo
        )
        assert refused.status_code == 400
        assert refused.json() == {
            "detail": "list 1 (Sorscha 1 / Jaws of the Wolf): Sorscha 1 is not on this "
            "event's Active Duty Roster",
            "code": "bad_input",
        }
        lists = "Beast Master Xekaar / Jaws of the Wolf (75)\n\nButcher 3 / Winter Guard Kommand"
        assert (
            await http.post(players, json={"name": "Bob", "lists": lists}, headers=eo)
        ).is_success
        stood = await http.post(
            players,
            json={"name": "Ann", "lists": "Sorscha 1 / Jaws of the Wolf", "list_note": "EO ok"},
            headers=eo,
        )
        assert stood.status_code == 201 and stood.json()["list_note"] == "EO ok"
        view = (await http.get(f"/api/events/{eid}")).json()["event"]
        assert (
            view["active_duty_roster"] == ROSTER and "Active Duty Roster" in view["list_rules"][0]
        )
        wrong = await http.post("/api/events", json={"name": "Night", "active_duty_roster": ROSTER})
        assert wrong.status_code == 400 and "only Champions lists" in wrong.json()["detail"]


async def test_painting_variants_player_declares_on_their_page(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = (
            await http.post(
                "/api/events",
                json={"name": "Painted", "lists": 2, "variants": ["painting_basic", "specialists"]},
            )
        ).json()
        eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
        assert (
            await http.post(f"/api/events/{eid}/players", json={"name": "Ann"}, headers=eo)
        ).is_success
        link = (await http.get(f"/api/events/{eid}/player-links", headers=eo)).json()[0]["url"]
        me = {"X-Player-Token": token_of(link)}
        lists = (
            "Haley 3 (75)\n- Squire (5)\nSpecialists:\nStormblade Infantry (14)\n\nStryker 1 (74)"
        )
        refused = await http.put(f"/api/events/{eid}/me/lists", json={"lists": lists}, headers=me)
        assert refused.status_code == 400 and "Basic Painting Required" in refused.json()["detail"]
        saved = await http.put(
            f"/api/events/{eid}/me/lists", json={"lists": lists, "painted": True}, headers=me
        )
        assert saved.status_code == 200
        player = saved.json()["player"]
        assert player["lists"] == ["Haley 3 (75)", "Stryker 1 (74)"] and player["painted"]
        assert player["painting"].startswith("Basic Painting Required")
        too_long = await http.put(
            f"/api/events/{eid}/me/lists", json={"lists": "x" * 4001, "painted": True}, headers=me
        )
        assert too_long.status_code == 400 and "4000 at most" in too_long.json()["detail"]


async def test_new_event_form_takes_the_active_duty_roster(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert 'data-formats="champions2019"' in page and "Active Duty Roster" in page
        form = {"name": "Champs", "format": "champions2019", "points": "75", "lists": "2"}
        refused = await http.post("/events", data={**form, "active_duty_roster": "Butcher 3"})
        assert refused.status_code == 400 and "under &#39;Leaders:&#39;" in refused.text
        made = await http.post("/events", data={**form, "active_duty_roster": ROSTER})
        assert made.status_code == 303
        eid = made.headers["location"].split("/")[2]
        event = (await http.get(f"/api/events/{eid}")).json()["event"]
        assert event["active_duty_roster"] == ROSTER
