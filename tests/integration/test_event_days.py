"""Whole event days, one truth on every surface (TS9, ST1, RP1, RP2, RP3, RP7).

For each Warmachine format (Steamroller 2019, Masters Dyad, Champions, Iron Gauntlet
2014, and a Steamroller event played on legacy scenarios), with the pre-game on the
phones and off (then only the starting roll and the order are settled at the table, off
the clock, and each player names their list in the report), eight players over three
rounds, through the API and the seat sockets: seven register, one drops after round 1
and one is added late before round 2, so every round has a bye. At table 1 of every
round the second seat's player wins the starting roll (without the pre-game, the dice
rolled at the table, entered on a phone) and goes first; games end by assassination,
scenario, concession and clock; a loser disputes and the EO settles it from the
pre-filled editor (once for the loser); the EO corrects a confirmed result, and records a
game loss against a winner, each with a reason. After each round every surface is read
and must agree with what the script played: who played whom, who went first, the
result, TP, CP, APD, the list played and the standings; a Masters or Champions event,
once over, is held as an Iron Gauntlet qualifier and its season says the same top three."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer
from tests.integration.event_day_driver import DISPUTE, GAME_LOSS, LATE, Day, EventDay
from tests.integration.event_day_truth import round_truth
from tests.integration.surfaces import (
    check_placings,
    check_statuses,
    disagreements,
    read_every_surface,
)

DAYS = {
    "sr2019": Day("sr2019", ("anarchy", "bunkers", "recon-ii")),
    "masters-dyad": Day("masters2019", ("king-of-the-hill", "spread-the-net", "invasion"), 2),
    "champions": Day("champions2019", ("recon-ii", "anarchy", "bunkers"), 2),
    "ig2014": Day(
        "ig2014", ("destruction", "fire-support", "outflank"), 2, concession_apd=False, painted=True
    ),
    "sr2019-on-legacy-scenarios": Day(
        "sr2019", ("command-positions", "engines-of-destruction", "power-play")
    ),
}

#: The pre-game on the phones (lists, objectives, the starting roll, the edge), or off.
PREGAME = {"pregame-on": True, "pregame-off": False}

#: The surfaces that must say each thing of every game once its round is played.
MUST_SAY = {
    "winner": {
        "event page", "admin table list", "dashboard", "result editor", "record sheets",
        "results CSV", "phones", "seat phones",
    },
    "first": {
        "event page", "admin table list", "dashboard", "dispute panel", "phones",
        "seat phones", "pairings CSV", "table cards", "table log",
    },
    "method": {"event page", "admin table list", "dashboard", "phones", "seat phones"},
    "totals": {"event page", "standings", "standings CSV"},
    "opponents": {"record sheets", "results CSV", "player pages"},
    "holders": {"seat phones", "player pages"},
}  # fmt: skip


def _check_round(readings: dict[Any, dict[str, Any]], truth: dict[Any, dict[str, Any]]) -> None:
    assert sorted(map(str, readings)) == sorted(map(str, truth))
    for key, wanted in truth.items():
        found = disagreements(readings[key], wanted)
        assert not found, (key, found)
        if key == "bye":
            continue
        for item, surfaces in MUST_SAY.items():
            saying = {name for name, reading in readings[key].items() if item in reading}
            assert surfaces <= saying, (key, item, surfaces - saying)


def _check_pairing(run: EventDay, number: int, paired: dict[str, Any], dropped: str) -> None:
    """RP2: no rematch, a dropped player not paired; RP3: nobody has two byes, and after
    round 1 the bye goes to one of the fewest TP."""
    met = {frozenset(g.players) for n in range(1, number) for g in run.ledger.games.get(n, [])}
    named = [p["p1"]["name"] for p in paired["pairings"]]
    named += [p["p2"]["name"] for p in paired["pairings"] if p["p2"]]
    assert dropped not in named or number == 1
    for p in paired["pairings"]:
        if p["p2"]:
            assert frozenset((p["p1"]["name"], p["p2"]["name"])) not in met
    bye = run.ledger.byes[number]
    assert bye not in [run.ledger.byes[n] for n in range(1, number)]
    if number > 1:
        totals = run.ledger.totals(number - 1)
        fewest = min(totals.get(name, {"tp": 0})["tp"] for name in named)
        assert totals.get(bye, {"tp": 0})["tp"] == fewest


def _check_dispute(run: EventDay, number: int, readings: dict[Any, dict[str, Any]]) -> None:
    """While a loser disputes, every surface names the players and the first player; the
    table's own surfaces (the dispute panel, the editor's pre-fill, the phones) say what
    the table says, the winner of the game, and the event counts nothing yet."""
    truth = round_truth(run.ledger, number)
    for table in run.disputed:
        game, wanted = run.ledger.game(number, table), truth[table]
        said = readings[table]
        who = {k: wanted[k] for k in ("table", "players", "first", "holders")}
        assert disagreements(said, who) == [], table
        table_says = {k: wanted[k] for k in ("winner", "scores", "method")}
        for surface in ("dispute panel", "result editor", "phones", "seat phones"):
            assert said[surface]["winner"] == game.winner, surface
            assert disagreements({surface: said[surface]}, table_says) == [], surface
        for surface in ("event page", "admin table list", "record sheets", "results CSV"):
            assert said[surface].get("winner") is None, surface
        disputer = game.opponent(game.winner)
        assert f"{disputer}: {DISPUTE}" in said["dispute panel"]["text"]


def _check_words(run: EventDay, number: int, readings: dict[Any, dict[str, Any]]) -> None:
    """The EO's reason is with the result on the phones and in the action log; no words
    a person reads call a player by a seat (P1, P2)."""
    for game in run.ledger.games[number]:
        if game.reason:
            assert game.reason in readings[game.table]["phones"]["text"]
            assert game.reason in readings[game.table]["EO action log"]["text"]
            assert game.winner in readings[game.table]["phones"]["text"]
        if game.reason.startswith("Game loss"):  # the penalties list says so too
            assert readings[game.table]["penalties"]["winner"] == game.winner
            assert GAME_LOSS in readings[game.table]["penalties"]["text"]
    for key, surfaces in readings.items():
        for surface, reading in surfaces.items():
            words = reading.get("text", "")
            assert not re.search(r"\bP[12]\b", words), (key, surface, words)


async def _check_season(http: httpx.AsyncClient, event_id: str) -> None:
    """The event over, held as an Iron Gauntlet qualifier: the season's top three, their
    places and QPs (ST4 2019: 10, 7, 4) are the standings', on the report and its CSV."""
    made = await http.post("/api/seasons", json={"name": "Circuit"})
    assert made.status_code == 201, made.text
    season = made.json()
    keeper = {"X-Keeper-Token": season["keeper_token"]}
    body = {"event_id": event_id, "event_key": http.headers["X-EO-Token"]}
    held = await http.post(f"/api/seasons/{season['id']}/events", json=body, headers=keeper)
    assert held.status_code == 204, held.text
    at = f"/api/seasons/{season['id']}/events/{event_id}/report"
    report = (await http.get(at)).json()
    standings = (await http.get(f"/api/events/{event_id}/standings")).json()
    top = [(row["rank"], row["name"]) for row in standings if row["rank"] <= 3]
    assert [(t["rank"], t["name"]) for t in report["top_three"]] == top
    assert [t["qp"] for t in report["top_three"]] == [{1: 10, 2: 7, 3: 4}[r] for r, _ in top]
    csv_text = (await http.get(f"{at}.csv")).text
    assert all(name in csv_text for _, name in top)
    table = (await http.get(f"/api/seasons/{season['id']}")).json()
    assert {(row["name"], row["qp"]) for row in table["players"] if row["qp"]} == {
        (name, {1: 10, 2: 7, 3: 4}[r]) for r, name in top
    }


@pytest.mark.parametrize("pregame", PREGAME.values(), ids=PREGAME.keys())
@pytest.mark.parametrize("day", DAYS.values(), ids=DAYS.keys())
async def test_an_event_day_agrees_on_every_surface__TS8_TS9_ST1_RP2_RP3_RP7(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime, day: Day, pregame: bool
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        run = EventDay(server, http, phone, fake_time, day, pregame)
        await run.create()
        dropped = ""
        for number in (1, 2, 3):
            if number == 2:  # RP7: the concession's loser drops; a late player joins
                game = run.ledger.game(1, 3)
                dropped = game.opponent(game.winner)
                await run.drop(dropped)
                joined = await run.add(LATE)
                assert joined["joined_round"] == 2
                run.ledger.missed[1] = [LATE]
            paired = await run.play_round(number)
            _check_pairing(run, number, paired, dropped)
            _check_dispute(run, number, await read_every_surface(http, run.event_id, number))
            await run.settle_disputes(number)
            readings = await read_every_surface(http, run.event_id, number)
            _check_round(readings, round_truth(run.ledger, number))
            _check_words(run, number, readings)
            await check_statuses(http, run.event_id)

        view = (await http.get(f"/api/events/{run.event_id}")).json()
        assert view["event"]["planned_rounds"] == 3 and view["event"]["over"]  # RP1
        await check_placings(http, run.event_id)
        await check_statuses(http, run.event_id)
        if day.format in ("masters2019", "champions2019"):
            await _check_season(http, run.event_id)
        late = run.ids[LATE]
        sheet = (await http.get(f"/api/events/{run.event_id}/players/{late}/sheet")).json()
        assert sheet["rounds"][0] == {
            "round": 1,
            "opponent": "Missed round",
            "list_played": "",
            "result": "Loss",
            "control_points": 0,
            "army_points_destroyed": 0,
        }
