"""A disqualification over HTTP, from either page that gives it: the penalties section of
the admin page (POST /penalties) or the prizes page (POST /players/{id}/disqualify).
Either way it carries the EO's reason, leaves the same penalty record, and takes the
player out of a round paired but not started yet, as a drop does (ST3, RP7)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import RunningServer

NAMES = ("Ann Archer", "Bob Boulder", "Cal Crane", "Dee Drake", "Eve Ember", "Fay Frost")


async def _round_two_draft(http: httpx.AsyncClient) -> tuple[str, dict[str, str], dict[str, str]]:
    """Six players; round 1 played (the first player of each pairing wins), round 2
    paired and still a draft. The event id, the EO's headers and the ids by name."""
    created = (await http.post("/api/events", json={"name": "Conduct day"})).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    ids = {}
    for name in NAMES:
        added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        ids[name] = added.json()["id"]
    assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
    assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
    for table in (await http.get(f"/api/events/{eid}/tables", headers=eo)).json():
        result = {"winner": "p1", "control_points": [5, 0], "army_points_destroyed": [40, 10]}
        path = f"/api/events/{eid}/tables/{table['id']}/result"
        assert (await http.put(path, json=result, headers=eo)).is_success
    assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
    assert ids["Dee Drake"] in await _paired(http, eid, eo, 2)
    return eid, eo, ids


async def _paired(http: httpx.AsyncClient, eid: str, eo: dict[str, str], number: int) -> set[str]:
    view = (await http.get(f"/api/events/{eid}/admin", headers=eo)).json()
    [entry] = [r for r in view["rounds"] if r["number"] == number]
    assert entry["started_ms"] is None  # still a draft
    return {p[seat]["id"] for p in entry["pairings"] for seat in ("p1", "p2") if p[seat]}


def _disqualifications(penalties: dict[str, Any]) -> list[tuple[str, str, bool]]:
    return [
        (p["player"]["name"], p["reason"], p["withdrawn"] is not None)
        for p in penalties["penalties"]
        if p["kind"] == "disqualification"
    ]


async def test_a_disqualification_takes_the_player_out_of_the_draft_round__ST3_RP7(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo, ids = await _round_two_draft(http)
        given = await http.post(
            f"/api/events/{eid}/penalties",
            json={"player": ids["Dee Drake"], "kind": "disqualification", "reason": "Cheating"},
            headers=eo,
        )
        assert given.status_code == 200, given.text
        paired = await _paired(http, eid, eo, 2)
        assert ids["Dee Drake"] not in paired
        assert paired == {ids[n] for n in NAMES} - {ids["Dee Drake"]}  # the rest all play

        # The prizes page's Disqualify does the same.
        given = await http.post(
            f"/api/events/{eid}/players/{ids['Bob Boulder']}/disqualify",
            json={"reason": "Abusive conduct"},
            headers=eo,
        )
        assert given.status_code == 200, given.text
        paired = await _paired(http, eid, eo, 2)
        assert ids["Bob Boulder"] not in paired and ids["Dee Drake"] not in paired
        assert len(paired) == 4

        started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
        assert started.is_success, started.text
        names = {
            n
            for t in (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
            if t["round"] == 2
            for n in t["names"]
        }
        assert names.isdisjoint({"Bob Boulder", "Dee Drake"})


async def test_the_prizes_pages_disqualification_needs_the_reason_and_is_recorded__ST3(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo, ids = await _round_two_draft(http)
        path = f"/api/events/{eid}/players/{ids['Cal Crane']}/disqualify"
        for body in ({}, {"reason": ""}, {"reason": "   "}, {"disqualified": True}):
            refused = await http.post(path, json=body, headers=eo)
            assert refused.status_code == 400, refused.text
            assert "say why Cal Crane is disqualified" in refused.json()["detail"]
        assert (await http.get(f"/api/events/{eid}/penalties", headers=eo)).json()[
            "penalties"
        ] == []
        assert ids["Cal Crane"] in await _paired(http, eid, eo, 2)  # nothing changed

        given = await http.post(path, json={"reason": "Stalling, warned twice"}, headers=eo)
        assert given.status_code == 200, given.text
        assert given.json()["disqualified"] is True and given.json()["dropped"] is True
        record = (await http.get(f"/api/events/{eid}/penalties", headers=eo)).json()
        assert _disqualifications(record) == [("Cal Crane", "Stalling, warned twice", False)]
        [penalty] = record["penalties"]
        assert penalty["round"] == 1  # the latest round played, as the penalties page says
        again = await http.post(path, json={"reason": "twice"}, headers=eo)
        assert again.status_code == 400 and "already disqualified" in again.json()["detail"]

        # Lifting it on the prizes page withdraws the same record, with the reason.
        lift = await http.post(path, json={"disqualified": False}, headers=eo)
        assert lift.status_code == 400 and "say why" in lift.json()["detail"]
        lifted = await http.post(
            path, json={"disqualified": False, "reason": "It was another player"}, headers=eo
        )
        assert lifted.status_code == 200, lifted.text
        assert lifted.json()["disqualified"] is False
        record = (await http.get(f"/api/events/{eid}/penalties", headers=eo)).json()
        assert _disqualifications(record) == [("Cal Crane", "Stalling, warned twice", True)]
        assert record["penalties"][0]["withdrawn"]["reason"] == "It was another player"
        sheet = (await http.get(f"/api/events/{eid}/players/{ids['Cal Crane']}/sheet")).json()
        assert [p["what"] for p in sheet["penalties"]] == ["Disqualification"]


async def test_the_penalties_page_disqualification_is_lifted_on_the_prizes_page__ST3(
    server: RunningServer,
) -> None:
    """One record whichever page gives it: the prizes page lifts a disqualification the
    penalties section recorded, and the penalties page sees the prizes page's."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo, ids = await _round_two_draft(http)
        body = {"player": ids["Eve Ember"], "kind": "disqualification", "reason": "Bullying"}
        assert (await http.post(f"/api/events/{eid}/penalties", json=body, headers=eo)).is_success
        path = f"/api/events/{eid}/players/{ids['Eve Ember']}/disqualify"
        again = await http.post(path, json={"reason": "again"}, headers=eo)
        assert again.status_code == 400 and "already disqualified" in again.json()["detail"]
        lifted = await http.post(
            path, json={"disqualified": False, "reason": "Wrong player"}, headers=eo
        )
        assert lifted.status_code == 200, lifted.text
        record = (await http.get(f"/api/events/{eid}/penalties", headers=eo)).json()
        assert _disqualifications(record) == [("Eve Ember", "Bullying", True)]
        players = (await http.get(f"/api/events/{eid}")).json()["players"]
        assert not next(p for p in players if p["id"] == ids["Eve Ember"])["disqualified"]
