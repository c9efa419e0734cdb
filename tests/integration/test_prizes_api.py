"""Prizes over HTTP (ST3): a vote's count is hidden from everyone, the EO included,
until the EO closes it; a ballot needs the player's own seat link. Standings variants
(ST2) in the views and the CSV export."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import httpx

from tests.conftest import RunningServer, token_of


async def _event(http: httpx.AsyncClient, **extra: Any) -> tuple[str, dict[str, str]]:
    created = (await http.post("/api/events", json={"name": "Vote day", **extra})).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name in ("Ann", "Bob", "Cal", "Dee"):
        added = await http.post(f"/api/events/{eid}/players", json={"name": name}, headers=eo)
        assert added.is_success
    assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).status_code == 201
    assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
    return eid, eo


async def _seats(http: httpx.AsyncClient, eid: str, eo: dict[str, str]) -> dict[str, str]:
    """Each player's seat token, by name."""
    seats = {}
    for table in (await http.get(f"/api/events/{eid}/tables", headers=eo)).json():
        for side, name in zip(("p1", "p2"), table["names"], strict=True):
            seats[name] = token_of(table["links"][side]["url"])
    return seats


def _no_counts(body: Any) -> bool:
    """Nothing in a reply that counts votes: no tally, no leaders, no count of ballots."""
    if isinstance(body, dict):
        if body.get("counts") or {"votes", "leaders", "ballots_cast"} & set(body):
            return False
        return all(_no_counts(v) for v in body.values())
    if isinstance(body, list):
        return all(_no_counts(v) for v in body)
    return True


async def test_no_count_is_shown_before_the_eo_closes_the_vote__ST3(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo = await _event(http, painting_category="Best Unit")
        seats = await _seats(http, eid, eo)
        opened = await http.post(f"/api/events/{eid}/prizes/best_painted/vote", json={}, headers=eo)
        assert opened.status_code == 200, opened.text
        ann = {"X-Player-Token": seats["Ann"]}
        ballot = (await http.get(f"/api/events/{eid}/ballot", headers=ann)).json()
        entries = {e["name"]: e["id"] for e in ballot["ballots"][0]["entries"]}
        for voter in ("Ann", "Bob", "Cal"):
            cast = await http.put(
                f"/api/events/{eid}/prizes/best_painted/ballot",
                json={"choice": entries["Dee"]},
                headers={"X-Player-Token": seats[voter]},
            )
            assert cast.status_code == 200, cast.text
            assert _no_counts(cast.json())
        admin = await http.get(f"/api/events/{eid}/prizes/admin", headers=eo)
        for view in (
            await http.get(f"/api/events/{eid}/prizes"),
            await http.get(f"/api/events/{eid}/prizes", headers=eo),
            admin,
            await http.get(f"/api/events/{eid}"),
            await http.get(f"/api/events/{eid}/admin", headers=eo),
        ):
            assert view.status_code == 200 and _no_counts(view.json())
        # The EO alone sees how many have voted in the open vote, never for whom.
        painted = next(p for p in admin.json()["prizes"] if p["id"] == "best_painted")
        assert painted["turnout"]["voted"] >= 1 and painted["turnout"]["voters"] == 4
        public = (await http.get(f"/api/events/{eid}/prizes", headers=eo)).json()
        assert all("turnout" not in p for p in public["prizes"])
        assert (await http.get(f"/api/events/{eid}/prizes/admin")).status_code == 401
        actions = (await http.get(f"/api/events/{eid}/actions", headers=eo)).json()
        assert all(a["action"] != "vote" for a in actions) and "choice" not in json.dumps(actions)

        closed = await http.post(f"/api/events/{eid}/prizes/best_painted/close", headers=eo)
        prize = next(p for p in closed.json()["prizes"] if p["id"] == "best_painted")
        assert prize["status"] == "awarded" and prize["winner"]["name"] == "Dee"
        public = (await http.get(f"/api/events/{eid}/prizes")).json()
        counts = next(p for p in public["prizes"] if p["id"] == "best_painted")["counts"]
        assert {v["name"]: v["votes"] for v in counts[0]["votes"]}["Dee"] == 3


async def test_a_ballot_needs_the_players_own_seat_link__ST3(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo = await _event(http)
        await http.post(f"/api/events/{eid}/prizes/best_sport/vote", json={}, headers=eo)
        for headers in ({}, {"X-Player-Token": "nope"}, eo):
            reply = await http.get(f"/api/events/{eid}/ballot", headers=headers)
            assert reply.status_code == 401 and "seat link" in reply.json()["detail"]
        # The EO's own actions need the EO's token.
        reply = await http.post(f"/api/events/{eid}/prizes/best_sport/close")
        assert reply.status_code == 401
        reply = await http.post(f"/api/events/{eid}/prizes/first/vote", json={}, headers=eo)
        assert reply.status_code == 400 and "final standings" in reply.json()["detail"]


async def test_the_variant_shows_in_the_views_and_the_csv__ST2(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, _ = await _event(http, standings="assassin")
        view = (await http.get(f"/api/events/{eid}")).json()
        assert view["event"]["standings_name"] == "Assassin Scoring"
        assert view["event"]["standings_order"] == "TP, assassination wins, CP, SoS"
        assert "assassinations" in view["standings"][0]
        text = (await http.get(f"/api/events/{eid}/standings.csv")).text
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows[0]["standings"] == "Assassin Scoring: TP, assassination wins, CP, SoS"
        bad = await http.post("/api/events", json={"name": "X", "standings": "fastest"})
        assert bad.status_code == 400 and "standings variant" in bad.json()["detail"]


async def test_the_new_event_form_takes_the_variant_and_the_category__ST2(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        form = (await http.get("/events/new")).text
        assert 'name="standings"' in form and "Destruction Scoring" in form
        sent = {"name": "Form day", "standings": "control", "painting_category": "Best Unit"}
        reply = await http.post("/events", data=sent)
        assert reply.status_code == 303
        eid = reply.headers["location"].split("/")[2]
        event = (await http.get(f"/api/events/{eid}")).json()["event"]
        assert event["standings_name"] == "Control Point Scoring"
        assert event["painting_category"] == "Best Unit"
        page = (await http.get(f"/e/{eid}")).text
        assert "TP, CP, APD, SoS" in page
        prizes = (await http.get(f"/api/events/{eid}/prizes")).json()["prizes"]
        assert [p["id"] for p in prizes][3:] == ["best_painted", "best_sport"]
        masters = {"name": "M", "format": "masters2019", "lists": "2"}
        refused = await http.post("/events", data={**masters, "painting_category": "Best Unit"})
        assert refused.status_code == 400 and "no Best-Painted" in refused.text
