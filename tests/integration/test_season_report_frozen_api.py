"""ST4 over HTTP: once the keeper records an IGQ's report as sent, the season's API
counts the report as sent; a result the EO corrects afterwards shows as a flag naming
the difference, and the keeper's corrected report (POST …/report/corrected, with the
reason) is what counts from then on."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import RunningServer

NAMES = ("Alice", "Bob", "Cara", "Dan")
QP = {1: 10, 2: 7, 3: 4}


async def _played(http: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A two-round Masters event played over the API, the player named earlier winning.
    The event as made, and the last round's game of Alice."""
    body = {"name": "Spring Masters", "format": "masters2019", "lists": 2, "fixed_rounds": 2}
    created = (await http.post("/api/events", json=body)).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in NAMES:
        assert await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
    alices: dict[str, Any] = {}
    while not (await http.get(f"/api/events/{eid}")).json()["event"]["over"]:
        drafted = (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).json()
        assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
        for game in drafted["pairings"]:
            first, second = (NAMES.index(game[s]["name"]) for s in ("p1", "p2"))
            result = {
                "winner": "p1" if first < second else "p2",
                "control_points": [9, 0] if first < second else [0, 9],
                "army_points_destroyed": [40, 9] if first < second else [9, 40],
            }
            path = f"/api/events/{eid}/tables/{game['table_id']}/result"
            assert (await http.put(path, json=result, headers=eo)).is_success
            if "Alice" in (game["p1"]["name"], game["p2"]["name"]):
                alices = game
    return created, alices


async def _top(http: httpx.AsyncClient, eid: str) -> dict[str, int]:
    rows = (await http.get(f"/api/events/{eid}/standings")).json()
    return {r["name"]: QP[r["rank"]] for r in rows if r["rank"] in QP}


async def test_the_season_api_counts_the_report_as_sent_until_corrected__ST4(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        made = (await http.post("/api/seasons", json={"name": "Circuit"})).json()
        sid, keeper = made["id"], {"X-Keeper-Token": made["keeper_token"]}
        event, game = await _played(http)
        eid, eo = event["id"], {"X-EO-Token": event["admin_token"]}
        held = {"event_id": eid, "event_key": event["admin_token"]}
        assert await http.post(f"/api/seasons/{sid}/events", json=held, headers=keeper)
        sent_qp = await _top(http, eid)
        at = f"/api/seasons/{sid}/events/{eid}/report"
        assert (await http.post(f"{at}/sent", headers=keeper)).is_success

        alice_first = game["p1"]["name"] == "Alice"
        fixed = {
            "winner": "p2" if alice_first else "p1",
            "control_points": [0, 15] if alice_first else [15, 0],
            "army_points_destroyed": [10, 40] if alice_first else [40, 10],
            "reason": "Scores swapped",
        }
        path = f"/api/events/{eid}/tables/{game['table_id']}/result"
        assert (await http.put(path, json=fixed, headers=eo)).is_success
        live_qp = await _top(http, eid)
        assert live_qp != sent_qp

        season = (await http.get(f"/api/seasons/{sid}")).json()
        assert {p["name"]: p["qp"] for p in season["players"]} == sent_qp
        [shown] = season["events"]
        assert shown["changed"].startswith("The event's standings changed after the report")
        assert f"Alice 10 → {live_qp.get('Alice', 0)} QPs" in shown["changed"]
        assert {t["name"]: t["qp"] for t in shown["now_top_three"]} == live_qp

        refused = await http.post(f"{at}/corrected", json={"reason": "Scores swapped"})
        assert refused.status_code == 401
        blank = await http.post(f"{at}/corrected", json={"reason": " "}, headers=keeper)
        assert blank.status_code == 400, blank.text
        sent = await http.post(f"{at}/corrected", json={"reason": "Scores swapped"}, headers=keeper)
        assert sent.status_code == 200, sent.text
        assert sent.json()["corrected_reason"] == "Scores swapped"
        season = (await http.get(f"/api/seasons/{sid}")).json()
        assert {p["name"]: p["qp"] for p in season["players"]} == live_qp
        assert season["events"][0]["changed"] is None
        again = await http.post(f"{at}/corrected", json={"reason": "Again"}, headers=keeper)
        assert again.status_code == 400 and "nothing to correct" in again.text
        csv_text = (await http.get(f"{at}.csv")).text
        assert all(name in csv_text for name in live_qp)
        log = (await http.get(f"/api/events/{eid}/actions", headers=eo)).json()
        assert [a["reason"] for a in log if a["action"] == "season_report_corrected"] == [
            "Scores swapped"
        ]
