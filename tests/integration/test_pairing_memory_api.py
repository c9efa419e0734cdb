"""Over HTTP: the new-event form's fresh tables, a player's club on the EO's add, edit
and CSV import, and round 1 keeping a club's players apart with the EO's notes (RP2)."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer


async def test_fresh_tables_and_clubs_reach_the_event_and_its_pairings__RP2(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert 'id="fresh_tables" name="fresh_tables"' in page
        form = {"name": "Club night", "format": "sr2019", "points": "75"}
        made = await http.post("/events", data={**form, "fresh_tables": "1"})
        assert made.status_code == 303, made.text
        eid = made.headers["location"].split("/")[2]
        eo = {"X-EO-Token": made.headers["location"].split("#k=", 1)[1]}
        base = f"/api/events/{eid}"
        added = await http.post(
            f"{base}/players", json={"name": "Ann", "club": "Iron Kings"}, headers=eo
        )
        assert added.status_code == 201 and added.json()["club"] == "Iron Kings"
        csv = "name,faction,club\nBob,Khador,Iron Kings\nCid,Cryx,Iron Kings\nDee,Cygnar,\n"
        imported = await http.post(f"{base}/players/import", content=csv, headers=eo)
        assert [p["club"] for p in imported.json()["added"]] == ["Iron Kings", "Iron Kings", ""]
        dee = imported.json()["added"][2]
        edited = await http.put(
            f"{base}/players/{dee['id']}", json={"name": "Dee", "faction": "Cygnar"}, headers=eo
        )
        assert edited.json()["club"] == ""  # a correction without a club keeps it
        long = await http.post(
            f"{base}/players", json={"name": "Eve", "club": "x" * 61}, headers=eo
        )
        assert long.status_code == 422

        paired = await http.post(f"{base}/rounds", json={}, headers=eo)
        assert paired.status_code == 201
        (note,) = paired.json()["notes"]
        assert note.endswith("are both of Iron Kings: no other pairing kept every club apart")
        view = (await http.get(base, headers=eo)).json()
        assert view["event"]["fresh_tables"] is True
        assert {p["name"]: p["club"] for p in view["players"]}["Cid"] == "Iron Kings"
        public = (await http.get(base)).json()
        assert public["rounds"][0]["notes"] == []  # the EO's only


async def test_the_api_makes_an_event_with_fresh_tables(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        made = await http.post("/api/events", json={"name": "Fresh", "fresh_tables": True})
        assert made.status_code == 201
        view = (await http.get(f"/api/events/{made.json()['id']}")).json()
        assert view["event"]["fresh_tables"] is True
        plain = await http.post("/api/events", json={"name": "Plain"})
        assert (await http.get(f"/api/events/{plain.json()['id']}")).json()["event"][
            "fresh_tables"
        ] is False
