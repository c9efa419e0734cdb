"""The regulations' "Army Building" over HTTP: an event made on the new-event form (or
the API) that asks for army lists registers each player with a list, checked by its
rules; each refusal says the rule in plain words; the list's total is the army value.
An event that does not ask registers by army value as before."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer

LIST = (
    "Kari Wraithstalker, Latari Elves, 44, unique\n"
    "Aymhelin Scions, Latari Elves, 60\n"
    "Deepwood Archers, Latari Elves, 50\n"
    "Terrain: Hill, 2\nTerrain: Forest, 3\nTerrain: Rocks, 3\nTerrain: Well, 1"
)


async def test_an_event_that_asks_for_army_lists_checks_them__Army_Building(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert 'id="army_lists" name="army_lists"' in page
        made = await http.post(
            "/events", data={"format": "runewars2017", "name": "Lists", "army_lists": "yes"}
        )
        assert made.status_code == 303, made.text
        eid = made.headers["location"].split("/")[2]
        eo = {"X-EO-Token": made.headers["location"].split("#k=", 1)[1]}
        base = f"/api/events/{eid}/tournament"
        assert (await http.get(base)).json()["asks_lists"] is True
        assert 'id="add-list"' in (await http.get(f"/e/{eid}/admin")).text

        async def add(**body: object) -> httpx.Response:
            return await http.post(f"{base}/players", json={"name": "Ann", **body}, headers=eo)

        missing = await add(army_value=200)
        assert missing.status_code == 400
        assert missing.json()["detail"] == (
            "this event asks each player for an army list: its units and terrain"
        )
        wrong = await add(army_list=LIST.replace("Terrain: Rocks, 3", "Terrain: Rocks, 4"))
        assert wrong.status_code == 400
        assert wrong.json()["detail"] == (
            "this army list is not legal: no two terrain cards may total a capacity over 6: "
            "Forest (3) and Rocks (4) make 7"
        )
        two_factions = await add(
            army_list=LIST.replace(
                "Deepwood Archers, Latari Elves", "Deepwood Archers, Uthuk Y'llan"
            )
        )
        assert "only one faction" in two_factions.json()["detail"]
        added = await add(army_list=LIST)
        assert added.status_code == 201 and added.json()["army_value"] == 154
        view = (await http.get(base)).json()
        assert [(p["name"], p["army_value"]) for p in view["players"]] == [("Ann", 154)]

        plain = await http.post("/api/events", json={"name": "Plain", "format": "runewars2017"})
        pid, peo = plain.json()["id"], {"X-EO-Token": plain.json()["admin_token"]}
        assert (await http.get(f"/api/events/{pid}/tournament")).json()["asks_lists"] is False
        by_value = await http.post(
            f"/api/events/{pid}/tournament/players",
            json={"name": "Bob", "army_value": 190},
            headers=peo,
        )
        assert by_value.status_code == 201 and by_value.json()["army_value"] == 190
        api = await http.post(
            "/api/events", json={"name": "API lists", "format": "runewars2017", "army_lists": True}
        )
        assert (await http.get(f"/api/events/{api.json()['id']}/tournament")).json()["asks_lists"]
