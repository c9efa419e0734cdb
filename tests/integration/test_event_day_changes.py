"""An event day where the EO changes things between rounds, one truth on every surface
(RP2, RP3, RP7, ST1, ST3).

A Steamroller 2019 day with the pre-game on the phones, seven players over three rounds
(the standard day's plans: see `event_day_driver.ROUNDS`). After round 1 the EO corrects
a player's name; every surface of round 1 then names the player by the new name, and no
words a person reads still use the old one (but the log's row of the correction itself).
After round 2 the EO drafts round 3, then corrects a confirmed round-2 result so that the
other player wins: the draft is paired again on the corrected standings. Then the EO
disqualifies a player while round 3 is still a draft: the draft is paired again without
them (six players, no bye). Round 3 is played from that draft, and every surface agrees
with what was played; the disqualified player is named so in the standings."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer
from tests.integration.event_day_driver import Day, EventDay
from tests.integration.event_day_truth import Ledger, round_truth
from tests.integration.surfaces import (
    check_placings,
    check_statuses,
    disagreements,
    read_every_surface,
)

DAY = Day("sr2019", ("anarchy", "bunkers", "recon-ii"))
OLD, NEW = "Bob Bryce", "Robert Bryce"
RENAMED = "the name was misspelt at registration"
REVERSED = "the judge found the scenario was scored a turn late"
CONDUCT = "threatened an opponent"


def _rename(run: EventDay, old: str, new: str) -> None:
    """The script's truth learns the name the EO corrected."""
    ledger: Ledger = run.ledger

    def swap(name: str) -> str:
        return new if name == old else name

    for games in ledger.games.values():
        for game in games:
            game.players = (swap(game.players[0]), swap(game.players[1]))
            game.first, game.winner = swap(game.first), swap(game.winner)
            for kept in (game.cp, game.apd, game.lists, game.specialists):
                if old in kept:
                    kept[new] = kept.pop(old)
    ledger.byes = {n: swap(name) for n, name in ledger.byes.items()}
    ledger.missed = {n: [swap(name) for name in names] for n, names in ledger.missed.items()}
    for kept in (run.ids, run.lists, run.played):
        kept[new] = kept.pop(old)  # type: ignore[attr-defined]


def _words(readings: dict[Any, dict[str, Any]]) -> list[tuple[Any, str, str]]:
    return [
        (key, surface, reading.get("text", ""))
        for key, surfaces in readings.items()
        for surface, reading in surfaces.items()
    ]


async def _check(http: httpx.AsyncClient, run: EventDay, number: int) -> dict[Any, Any]:
    readings = await read_every_surface(http, run.event_id, number)
    await check_statuses(http, run.event_id)
    truth = round_truth(run.ledger, number)
    assert sorted(map(str, readings)) == sorted(map(str, truth))
    for key, wanted in truth.items():
        assert disagreements(readings[key], wanted) == [], (number, key)
    return readings


async def _draft(http: httpx.AsyncClient, run: EventDay, number: int) -> list[dict[str, Any]]:
    view = (await http.get(f"{run.api}/admin")).json()
    [entry] = [r for r in view["rounds"] if r["number"] == number]
    assert entry["started_ms"] is None
    return list(entry["pairings"])


def _names(pairings: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset(p[s]["name"] for s in ("p1", "p2") if p[s]) for p in pairings}


async def test_an_event_day_with_a_name_corrected_a_result_reversed_and_a_disqualification__RP2_RP3_RP7_ST1_ST3(  # noqa: E501
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        run = EventDay(server, http, phone, fake_time, DAY, True)
        await run.create()

        await run.play_round(1)
        await run.settle_disputes(1)
        await _check(http, run, 1)
        body = {"name": NEW, "lists": "\n".join(run.lists[OLD]), "reason": RENAMED}
        renamed = await http.put(f"{run.api}/players/{run.ids[OLD]}", json=body)
        assert renamed.status_code == 200, renamed.text
        _rename(run, OLD, NEW)
        readings = await _check(http, run, 1)
        still = [w for w in _words(readings) if OLD in w[2]]
        assert still == [], still
        log = (await http.get(f"{run.api}/actions")).json()
        naming_old = [a for a in log if OLD in str(a)]
        assert [a["action"] for a in naming_old] == ["edit_player"], naming_old

        await run.play_round(2)
        await run.settle_disputes(2)
        await _check(http, run, 2)

        # RP7: a correction that changes a winner while round 3 is a draft pairs it again.
        drafted = await http.post(f"{run.api}/rounds", json={"scenario": DAY.scenarios[2]})
        assert drafted.status_code == 201, drafted.text
        before = await _draft(http, run, 3)
        game = next(g for g in run.ledger.games[2] if g.method != "eo")
        table_id = next(
            p["table_id"]
            for p in (await http.get(run.api)).json()["rounds"][1]["pairings"]
            if p["table"] == game.table
        )
        await run.settle(game, table_id, {"overturn": 1}, REVERSED)
        after = await _draft(http, run, 3)
        totals = run.ledger.totals(2)
        [bye] = [p["p1"]["name"] for p in after if p["p2"] is None]
        fewest = min(t["tp"] for t in totals.values())
        assert totals[bye]["tp"] == fewest  # RP3 on the corrected standings
        met = {frozenset(g.players) for n in (1, 2) for g in run.ledger.games[n]}
        assert not _names(after) & met  # RP2
        # paired again, on new tables: none of the draft's first tables is left
        tables = [{p["table_id"] for p in draft if p["p2"]} for draft in (before, after)]
        assert tables[0] and not tables[0] & tables[1]
        log = (await http.get(f"{run.api}/actions")).json()
        done = [a["action"] for a in log][-3:]
        assert done == ["correct_result", "repair_round", "pair_round"], log[-3:]
        assert log[-2]["why"] and log[-2]["round"] == 3

        # ST3/RP7: a disqualification while round 3 is a draft pairs it again without them.
        standings = (await http.get(f"{run.api}/standings")).json()
        gone = standings[0]["name"]  # the leader, whose place would win a prize
        body = {"player": run.ids[gone], "kind": "disqualification", "reason": CONDUCT}
        given = await http.post(f"{run.api}/penalties", json=body)
        assert given.status_code in (200, 201), given.text
        draft = await _draft(http, run, 3)
        assert all(None not in (p["p1"], p["p2"]) for p in draft)  # six players: no bye
        assert gone not in {name for pair in _names(draft) for name in pair}

        await run.play_round(3)
        await run.settle_disputes(3)
        readings = await _check(http, run, 3)
        assert all(gone not in reading.get("players", ()) for reading in readings.values())
        standings = (await http.get(f"{run.api}/standings")).json()
        row = next(r for r in standings if r["name"] == gone)
        assert row["tp"] == totals[gone]["tp"] and row["status"] == "disqualified"
        over = (await http.get(run.api)).json()["event"]["over"]
        still = "finished" if over else "playing"  # RP1: over, the players still in finished
        assert [r["name"] for r in standings if r["status"] != still] == [gone]
        text = (await http.get(f"{run.api}/standings.csv")).text
        rows = {r["name"]: r for r in csv.DictReader(io.StringIO(text))}
        assert (rows[gone]["status"], rows[gone]["dropped"]) == ("disqualified", "False")
        view = (await http.get(run.api)).json()
        assert view["event"]["over"]
        await check_placings(http, run.event_id)  # ST3: the disqualified player's place passes
        await check_statuses(http, run.event_id)
        prizes = (await http.get(f"{run.api}/prizes")).json()["prizes"]
        assert gone not in [(p["winner"] or {}).get("name") for p in prizes]
