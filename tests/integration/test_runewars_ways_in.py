"""The players' ways in to a Runewars event, as at a Warmachine event: each player's own
link and QR code for the registration slips, the page it opens (this round's numbered
table, the opponent and the seat link, the games so far, ST5), the table's card and
its numbered phone page (RP6 pairs each round; DC11 its timer)."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer, runewars_round, token_of


async def test_each_runewars_player_has_an_own_link_to_their_table__RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Ways In")
        eid, eo, table = rw.event_id, rw.eo, rw.table
        api = f"/api/events/{eid}"

        assert (await http.get(f"{api}/player-links")).status_code == 401
        slips = await http.get(f"{api}/player-links", headers=eo)
        assert slips.status_code == 200, slips.text
        rows = slips.json()
        assert [r["name"] for r in rows] == ["Ann", "Bob"]
        assert [r["army_value"] for r in rows] == [180, 190]
        assert all(r["qr_svg"].startswith("data:image/svg+xml") for r in rows)
        assert all(r["url"].startswith(f"{server.base}/p/{eid}#k=") for r in rows)
        # The same link every time it is printed.
        again = (await http.get(f"{api}/player-links", headers=eo)).json()
        assert [r["url"] for r in again] == [r["url"] for r in rows]

        ann_key = token_of(rows[0]["url"])
        mine = await http.get(f"{api}/me", headers={"X-Player-Token": ann_key})
        assert mine.status_code == 200, mine.text
        page = mine.json()
        assert page["player"]["name"] == "Ann" and page["player"]["army_value"] == 180
        current = page["current"]
        assert current["table_no"] == 1 and current["opponent"] == "Bob"
        assert current["round"] == 1 and current["started"] is False
        seat = {link["name"]: link["url"] for link in (table["links"]["p1"], table["links"]["p2"])}
        assert current["seat_url"] == seat["Ann"]
        bob = await http.get(f"{api}/me", headers={"X-Player-Token": token_of(rows[1]["url"])})
        assert bob.json()["current"]["seat_url"] == seat["Bob"]

        for wrong in ("", "nope", ann_key[:-2] + "xx"):
            refused = await http.get(f"{api}/me", headers={"X-Player-Token": wrong})
            assert refused.status_code == 401
            assert "player link" in refused.json()["detail"]
        # Another event's key opens nothing here.
        other = await runewars_round(http, "RW Elsewhere")
        theirs = await http.get(f"/api/events/{other.event_id}/player-links", headers=other.eo)
        foreign = token_of(theirs.json()[0]["url"])
        assert (await http.get(f"{api}/me", headers={"X-Player-Token": foreign})).status_code == 401

        # The pages: the player's own, the slips and the cards, the numbered table.
        own = await http.get(f"/p/{eid}")
        assert own.status_code == 200 and "rw-player.js" in own.text
        assert "slips.js" in (await http.get(f"/e/{eid}/slips")).text
        assert "cards.js" in (await http.get(f"/e/{eid}/cards")).text
        phone = await http.get(f"/t/{table['id']}")
        assert "Table 1 · Round 1 · RW Ways In" in phone.text
        assert table["id"][:8] not in phone.text.replace(table["id"], "")

        # Once the round started, the player's page says so; the games follow ST5.
        started = await http.post(f"{api}/tournament/rounds/current/start", headers=eo)
        assert started.status_code == 200
        page = (await http.get(f"{api}/me", headers={"X-Player-Token": ann_key})).json()
        assert page["current"]["started"] is True and page["record"] == []


async def test_a_player_with_the_bye_is_told_so_on_their_page__RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        body = {"name": "RW Odd", "format": "runewars2017", "fixed_rounds": 2}
        created = (await http.post("/api/events", json=body)).json()
        eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
        for name in ("Ann", "Bob", "Cal"):
            added = await http.post(
                f"/api/events/{eid}/tournament/players",
                json={"name": name, "army_value": 200},
                headers=eo,
            )
            assert added.status_code == 201
        assert (await http.post(f"/api/events/{eid}/tournament/rounds", headers=eo)).is_success
        links = (await http.get(f"/api/events/{eid}/player-links", headers=eo)).json()
        pages = [
            (
                await http.get(
                    f"/api/events/{eid}/me", headers={"X-Player-Token": token_of(row["url"])}
                )
            ).json()
            for row in links
        ]
        byes = [p for p in pages if p["current"]["bye"]]
        assert len(byes) == 1 and byes[0]["current"]["seat_url"] is None
        # RP6: a bye is a win worth 8 TP and MoV 70, on the player's own record.
        assert byes[0]["record"] == [
            {"round": 1, "opponent": None, "result": "bye", "tp": 8, "mov": 70}
        ]
        playing = [p for p in pages if not p["current"]["bye"]]
        assert {p["current"]["opponent"] for p in playing} == {p["player"]["name"] for p in playing}
