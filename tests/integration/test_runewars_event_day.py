"""A whole Runewars 2017 event day, one truth on every surface (TS11, ST5, RP6, DC11).

Eight players with their army values over three Swiss rounds, through the tournament
API and the seat sockets (a Runewars table has no pre-game on the phones: who goes
first is the table's own first step). At table 1 of every round the chooser names the
second seat's player first player; games end by a defeated army, the eighth game round,
a concession and the round timer; each player enters their own score; a loser disputes
and the organiser settles it from the form's pre-filled entries, the organiser corrects
a confirmed result, each with a reason. One player drops after round 1, so rounds 2 and
3 have a bye (8 TP, MoV 70); a late registration is refused (the document's Pairings
lets a dropped player rejoin, RP7, but has no late registration). After each round every
surface is read and must agree with what the script played: who played whom, who went
first, the winner, each player's TP, MoV and entries, and the standings (TP, MoV)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import httpx
import pytest

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer
from tests.integration.event_day_runewars import BYE, DISPUTE, RunewarsDay
from tests.integration.surfaces import check_statuses, disagreements, read_every_surface

#: The surfaces that must say each thing of every game once its round is played.
MUST_SAY = {
    "winner": {
        "event page", "admin table list", "dashboard", "result panel", "phones",
        "seat phones", "player pages",
    },
    "first": {"result panel", "phones", "seat phones", "table cards", "table log"},
    "totals": {"event page", "standings", "standings CSV"},
    "entries": {"result panel", "result editor"},
    "holders": {"seat phones", "player pages"},
}  # fmt: skip


def _truth(run: RunewarsDay, number: int) -> dict[Any, dict[str, Any]]:
    totals = run.totals(number)
    truth: dict[Any, dict[str, Any]] = {}
    for game in run.games[number]:
        winner, scores = game.outcome()
        truth[game.table] = {
            "table": game.table,
            "players": tuple(sorted(game.players)),
            "first": game.first,
            "winner": winner,
            "scores": scores,
            "entries": game.entries,
            "opponents": {name: game.opponent(name) for name in game.players},
            "holders": {name: name for name in game.players},
            "totals": {name: totals[name] for name in game.players},
        }
    bye = run.byes.get(number)
    if bye is not None:
        truth["bye"] = {
            "players": (bye,),
            "winner": bye,
            "scores": {bye: {"tp": BYE[0], "mov": BYE[1]}},
            "opponents": {bye: "Bye"},
            "totals": {bye: totals[bye]},
        }
    return truth


def _check_round(readings: dict[Any, dict[str, Any]], truth: dict[Any, dict[str, Any]]) -> None:
    assert sorted(map(str, readings)) == sorted(map(str, truth))
    for key, wanted in truth.items():
        found = disagreements(readings[key], wanted)
        assert not found, (key, found)
        for item, surfaces in MUST_SAY.items() if key != "bye" else ():
            saying = {name for name, reading in readings[key].items() if item in reading}
            assert surfaces <= saying, (key, item, surfaces - saying)
        for surface, reading in readings[key].items():
            words = reading.get("text", "")
            assert not re.search(r"\bP[12]\b", words), (key, surface, words)


def _check_dispute(run: RunewarsDay, number: int, readings: dict[Any, dict[str, Any]]) -> None:
    """While a loser disputes, the table's own surfaces say its result and both reports
    (with the reason, by name); the event counts nothing of it yet."""
    truth = _truth(run, number)
    for table in run.disputed:
        said, wanted = readings[table], truth[table]
        who = {k: wanted[k] for k in ("table", "players", "first", "holders", "entries")}
        assert disagreements(said, who) == [], table
        table_says = {k: wanted[k] for k in ("winner", "scores")}
        for surface in ("result panel", "phones", "seat phones", "dashboard"):
            assert said[surface]["winner"] == wanted["winner"], surface
            assert disagreements({surface: said[surface]}, table_says) == [], surface
        for surface in ("event page", "admin table list"):
            assert said[surface].get("winner") is None, surface
        loser = run.game(number, table).loser
        assert said["result panel"]["text"] == f"{loser}: {DISPUTE}"


#: How the concession's loser leaves after round 1: they drop, or the organiser removes
#: them for unsporting conduct (the regulations: "Disqualified players are removed from
#: the tournament, and cannot rejoin").
LEAVES = {"drop": "drop", "disqualification": "disqualify"}
CONDUCT = "collusion to manipulate scoring"


@pytest.mark.parametrize("leaves", LEAVES.values(), ids=LEAVES.keys())
async def test_a_runewars_event_day_agrees_on_every_surface__TS11_ST5_RP6_DC11(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime, leaves: str
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        run = RunewarsDay(http, phone, fake_time)
        await run.create()
        for number in (1, 2, 3):
            # RP6, RP7 (Pairings): the concession's loser drops; the document lets a dropped
            # player rejoin but has no late registration, so a newcomer is refused.
            if number == 2:
                dropped = run.game(1, 3).loser
                why = {"reason": CONDUCT} if leaves == "disqualify" else None
                gone = await http.post(f"{run.api}/players/{run.ids[dropped]}/{leaves}", json=why)
                assert gone.status_code == 200, gone.text
                late = await http.post(
                    f"{run.api}/players", json={"name": "Ivy Jones", "army_value": 170}
                )
                assert late.status_code == 400, late.text
                assert "registration is closed" in late.json()["detail"]
            ranked = (await http.get(f"/api/events/{run.event_id}/standings")).json()
            paired = await run.play_round(number)
            named = [p[s]["name"] for p in paired["pairings"] for s in ("p1", "p2") if p[s]]
            if number > 1:  # RP6: a dropped player is not paired again; the bye is the
                assert dropped not in named  # lowest ranked player's without one yet
                had = [run.byes.get(n) for n in range(1, number)]
                last = [r["name"] for r in ranked if r["name"] != dropped and r["name"] not in had]
                assert run.byes[number] == last[-1]
            _check_dispute(run, number, await read_every_surface(http, run.event_id, number))
            await run.settle_disputes(number)
            readings = await read_every_surface(http, run.event_id, number)
            _check_round(readings, _truth(run, number))
            await check_statuses(http, run.event_id)
            for game in run.games[number]:
                if game.reason:
                    assert readings[game.table]["EO action log"]["text"] == game.reason
        assert len(set(run.byes.values())) == len(run.byes) == 2  # RP6: nobody has two
        view = (await http.get(f"/api/events/{run.event_id}")).json()
        assert view["over"] and view["winner"] == view["standings"][0]["name"]
        # Why the player left, the same on the standings, their CSV and the EO's log.
        status = "disqualified" if leaves == "disqualify" else "dropped"
        rows = (await http.get(f"/api/events/{run.event_id}/standings")).json()
        assert [r["status"] for r in rows if r["name"] == dropped] == [status]
        # RP1: the event is over, so the players still in it finished it.
        assert [r["name"] for r in rows if r["status"] != "finished"] == [dropped]
        text = (await http.get(f"{run.api}/standings.csv")).text
        assert [r["status"] for r in csv.DictReader(io.StringIO(text)) if r["name"] == dropped] == [
            status
        ]
        back = await http.post(f"{run.api}/players/{run.ids[dropped]}/rejoin")
        if leaves == "disqualify":  # cannot rejoin; the log keeps the organiser's reason
            assert back.status_code == 400 and "cannot rejoin" in back.text, back.text
            log = (await http.get(f"/api/events/{run.event_id}/actions")).json()
            assert any(CONDUCT in str(a) for a in log if a["action"] == "disqualify")
