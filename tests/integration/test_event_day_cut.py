"""A Steamroller 2019 event day with Cut to Top 4 (RP1), one truth on every surface.

Eight players register; round 1 is four games. RP1: "At the end of each tournament round,
if the total number of undefeated players is X or fewer, the remaining tournament rounds
are only played by the top X players", and "only the standings of the top X players can
change". After round 1 four players are undefeated: the cut keeps them, and rounds 2 and 3
are two games each among them. Every surface agrees with what was played after every
round; the players cut are never paired again, the standings, their CSV and each cut
player's own page say they are out of the cut, their places stay as the cut left them,
and the event is over after round 3 with its prizes to the final standings' top three
(ST3). A loser disputes, the EO overturns one result and records a game loss in the cut,
as on the standard day. Played twice: with ST1's order, and with ST2's Finals Tables,
whose last round pairs the top four and places them, and whose order "beyond third
place" moves only the kept players (the players cut stay as the cut left them)."""

from __future__ import annotations

import csv
import dataclasses
import io
from typing import Any

import httpx
import pytest

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, token_of
from tests.integration.event_day_driver import LATE, PLAYERS, Day, EventDay, Plan
from tests.integration.event_day_truth import round_truth
from tests.integration.surfaces import (
    check_placings,
    check_statuses,
    disagreements,
    read_every_surface,
)

CUT = 4
DAY = Day(
    "sr2019",
    ("anarchy", "bunkers", "recon-ii"),
    cut_to_top=CUT,
    players=(*PLAYERS, LATE),
    rounds=(
        (
            Plan("assassination", 1, True, "p2"),
            Plan("scenario", 0, True, "p1", "dispute"),
            Plan("concession", 1, False, "p1"),
            Plan("clock", 0, False, "p1", "correct"),
        ),
        (
            Plan("scenario", 1, True, "p2", "overturn"),
            Plan("clock", 1, True, "p1"),
        ),
        (
            Plan("assassination", 0, True, "p2", "game loss"),
            Plan("concession", 1, True, "p2", "dispute"),
        ),
    ),
)


async def _standings(http: httpx.AsyncClient, run: EventDay) -> list[dict[str, Any]]:
    rows = (await http.get(f"{run.api}/standings")).json()
    return list(rows)


async def _check_surfaces(http: httpx.AsyncClient, run: EventDay, number: int) -> None:
    readings = await read_every_surface(http, run.event_id, number)
    await check_statuses(http, run.event_id)
    truth = round_truth(run.ledger, number)
    assert sorted(map(str, readings)) == sorted(map(str, truth))
    for key, wanted in truth.items():
        assert disagreements(readings[key], wanted) == [], (number, key)


async def _own_page(http: httpx.AsyncClient, run: EventDay, name: str) -> dict[str, Any]:
    links = (await http.get(f"{run.api}/player-links")).json()
    link = next(p["url"] for p in links if p["name"] == name)
    page = await http.get(f"{run.api}/me", headers={"X-Player-Token": token_of(link)})
    assert page.status_code == 200, page.text
    return dict(page.json())


#: The final standings' order: ST1's, or ST2's Finals Tables (the last round pairs the
#: top four: the first table's winner wins the event, its loser is second, the second
#: table's winner third).
ORDERS = {"baseline": "baseline", "finals-tables": "finals"}


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
async def test_a_cut_to_top_day_agrees_on_every_surface__RP1_ST1_ST2_ST3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime, order: str
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        run = EventDay(server, http, phone, fake_time, dataclasses.replace(DAY, standings=order))
        await run.create()
        await run.play_round(1)
        await run.settle_disputes(1)
        await _check_surfaces(http, run, 1)
        winners = {g.winner for g in run.ledger.games[1]}
        assert len(winners) == CUT  # four undefeated: the cut is due

        at_cut = {r["name"]: r for r in await _standings(http, run) if r["name"] not in winners}
        assert sorted(r["rank"] for r in at_cut.values())[0] == CUT + 1
        for number in (2, 3):
            paired = await run.play_round(number)
            named = {p[s]["name"] for p in paired["pairings"] for s in ("p1", "p2") if p[s]}
            assert named == winners, number  # only the top X play on
            await run.settle_disputes(number)
            await _check_surfaces(http, run, number)

            rows = await _standings(http, run)
            assert {r["name"] for r in rows[:CUT]} == winners
            assert [r["rank"] for r in rows[:CUT]] == [1, 2, 3, 4]
            out = {r["name"]: r for r in rows if r["name"] not in winners}
            assert {r["status"] for r in out.values()} == {"cut"}, out
            # "only the standings of the top X players can change": the players cut keep
            # the places and the numbers they had at the cut, though their opponents play on
            for name, row in out.items():
                then = at_cut[name]
                assert (row["rank"], row["tp"], row["sos"]) == (then["rank"], 0, then["sos"])
            text = (await http.get(f"{run.api}/standings.csv")).text
            table = list(csv.DictReader(io.StringIO(text)))
            assert {row["name"]: row["status"] for row in table} == {
                r["name"]: r["status"] for r in rows
            }
            for name in sorted(out, key=lambda n: out[n]["rank"])[:1]:
                page = await _own_page(http, run, name)
                assert page["current"] is None
                standing = page["standing"]
                assert (standing["status"], standing["cut_to"]) == ("cut", CUT)
                assert standing["place"] == out[name]["rank"]

        view = (await http.get(run.api)).json()
        assert view["event"]["over"]  # RP1: one player has more TP than every other
        totals = run.ledger.totals(3)
        top = max(totals, key=lambda name: totals[name]["tp"])
        assert totals[top]["tp"] == 3
        final = await _standings(http, run)
        assert final[0]["name"] == top
        if order == "finals":
            one, two = run.ledger.games[3]  # by table: the finals tables
            first, second = one.winner, one.opponent(one.winner)
            assert [r["name"] for r in final[:3]] == [first, second, two.winner]
            assert [r["rank"] for r in final[:4]] == [1, 2, 3, 4]
        await check_placings(http, run.event_id)
        await check_statuses(http, run.event_id)
