"""The regulations' "Lost and Damaged Components" over HTTP (DC11): POST
…/tournament/tables/{table}/extension (EO only) gives one table minutes more with a
reason; the table's phones hear it over their socket, the event's view and the
dashboard's snapshot show it, and the round's call of time leaves that table to its own
end while the others finish their game round."""

from __future__ import annotations

import httpx

from tests.conftest import PhoneFactory, RunningServer, token_of


async def test_the_organiser_gives_one_table_more_time__DC11(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = await http.post(
            "/api/events", json={"name": "Ext", "format": "runewars2017", "fixed_rounds": 2}
        )
        eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
        base = f"/api/events/{eid}/tournament"
        for name in ("Ann", "Bob", "Cal", "Dee"):
            added = await http.post(
                f"{base}/players", json={"name": name, "army_value": 190}, headers=eo
            )
            assert added.status_code == 201
        pairings = (await http.post(f"{base}/rounds", headers=eo)).json()["pairings"]
        assert (await http.post(f"{base}/rounds/current/start", headers=eo)).status_code == 200
        tables = {
            t["table_no"]: t
            for t in (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        }
        one = next(p for p in pairings if p["table"] == 1)
        seat = await phone(one["table_id"], token_of(tables[1]["links"]["p1"]["url"]), "ph-1")

        url = f"{base}/tables/{one['table_id']}/extension"
        body = {"minutes": 10, "reason": "a lost maneuver template"}
        assert (await http.post(url, json=body)).status_code == 401
        too_long = await http.post(url, json={**body, "minutes": 45}, headers=eo)
        assert too_long.status_code == 422
        given = await http.post(url, json=body, headers=eo)
        assert given.status_code == 200, given.text
        assert given.json()["extension_minutes"] == 10
        while seat.game.get("extension_minutes") != 10:
            await seat.recv()  # the table's event reaches its phone
        assert seat.game["extension_reason"] == "a lost maneuver template"

        view = (await http.get(base, headers=eo)).json()["rounds"][0]
        row = next(p for p in view["pairings"] if p["table"] == 1)
        assert row["ends_ms"] == view["started_ms"] + 100 * 60_000
        # The dashboard's cards are drawn from each table's summary.
        dash = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        card = next(t for t in dash if t["table_no"] == 1)
        assert (card["extension_minutes"], card["extension_reason"]) == (10, body["reason"])

        await http.post(f"{base}/rounds/current/time", headers=eo)
        after = (await http.get(base, headers=eo)).json()["rounds"][0]["pairings"]
        called = {p["table"]: p["judging"]["time_called"] for p in after}
        assert called == {1: False, 2: True}
