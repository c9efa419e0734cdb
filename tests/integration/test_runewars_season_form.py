"""The new-event form and the API choose a Runewars event's season of deployments and
objectives (the regulations' "Legal Deployments and Objectives", RP6): July 2017 unless
October 2017 is chosen; the event's page says which, and each round's cards come from
that season's. An unknown season is refused in the organiser's words."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer

OCTOBER_DEPLOYMENTS = {"Careful Approach", "Hammer and Anvil", "Standoff"}
OCTOBER_OBJECTIVES = {"Bounty", "Supply Raid", "Demoralize Their Forces"}


async def test_the_form_chooses_the_october_2017_season__RP6(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert 'id="season" name="season"' in page and "Demoralize Their Forces" in page
        made = await http.post(
            "/events",
            data={"format": "runewars2017", "name": "October Night", "season": "october2017"},
        )
        assert made.status_code == 303, made.text
        eid = made.headers["location"].split("/")[2]
        eo = {"X-EO-Token": made.headers["location"].split("#k=", 1)[1]}
        base = f"/api/events/{eid}/tournament"
        view = (await http.get(base)).json()
        assert view["season"]["name"] == "October 2017"
        assert set(view["season"]["deployments"]) == OCTOBER_DEPLOYMENTS
        for n in range(4):
            body = {"name": f"Player {n}", "army_value": 200}
            assert (await http.post(f"{base}/players", json=body, headers=eo)).status_code == 201
        paired = (await http.post(f"{base}/rounds", headers=eo)).json()
        assert paired["deployment"] in OCTOBER_DEPLOYMENTS
        assert paired["objective"] in OCTOBER_OBJECTIVES

        july = await http.post("/api/events", json={"name": "July", "format": "runewars2017"})
        view = (await http.get(f"/api/events/{july.json()['id']}/tournament")).json()
        assert view["season"]["name"] == "July 2017"

        wrong = await http.post(
            "/events", data={"format": "runewars2017", "name": "Odd", "season": "spring"}
        )
        assert wrong.status_code == 400
        assert "the season of deployments and objectives is July 2017 or October 2017" in wrong.text
        api = await http.post(
            "/api/events", json={"name": "Odd", "format": "runewars2017", "season": "spring"}
        )
        assert api.status_code == 400 and "July 2017 or October 2017" in api.json()["detail"]
