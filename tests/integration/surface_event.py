"""The surfaces of a Warmachine event that speak of a round's tables: the public event
page and the EO's table list, the standings and their CSV, the record sheets and the
results CSV, the pairings CSV, the EO's action log and each player's own page."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from tests.integration.surface_round import (
    Key,
    Reading,
    Round,
    scores_of,
    token_of,
    winner_of,
)


def _pairing(rnd: Round, pairing: dict[str, Any]) -> Reading:
    if pairing["p2"] is None:
        return {"players": (pairing["p1"]["name"],)}
    names = (pairing["p1"]["name"], pairing["p2"]["name"])
    reading: Reading = {
        "table": pairing["table"],
        "players": tuple(sorted(names)),
        "first": rnd.name_of(pairing.get("first")),
        "winner": winner_of(pairing["result"], names),
        "scores": scores_of(pairing["result"], names),
    }
    if pairing["result"] is not None:
        reading["method"] = pairing["result"]["method"]
    return reading


def _in_round(view: dict[str, Any], number: int, key: Key) -> dict[str, Any] | None:
    pairings = view["rounds"][number - 1]["pairings"]
    if key == "bye":
        return next((p for p in pairings if p["p2"] is None), None)
    return next((p for p in pairings if p["table"] == key), None)


def _totals(rows: list[dict[str, Any]], names: tuple[str, ...]) -> dict[str, Any]:
    """ST1's columns of the standings' rows of these players."""
    return {
        r["name"]: {
            "tp": int(r["tp"]),
            "sos": int(r["sos"]),
            "cp": int(r["control_points"]),
            "apd": int(r["army_points_destroyed"]),
        }
        for r in rows
        if r["name"] in names
    }


async def event_page(rnd: Round, key: Key) -> Reading:
    """The public event page: pairings, results and standings."""
    public = await rnd.get(f"/api/events/{rnd.event_id}")
    pairing = _in_round(public, rnd.number, key)
    if pairing is None:
        return {}
    return _pairing(rnd, pairing) | {"totals": _totals(public["standings"], rnd.who(key))}


async def admin_table_list(rnd: Round, key: Key) -> Reading:
    """The EO's table list (the admin page's pairings)."""
    pairing = _in_round(rnd.view, rnd.number, key)
    return {} if pairing is None else _pairing(rnd, pairing)


async def standings(rnd: Round, key: Key) -> Reading:
    """The standings after this round (the round's own scores too, after round 1)."""
    rows = await rnd.get(f"/api/events/{rnd.event_id}/standings")
    totals = _totals(rows, rnd.who(key))
    reading: Reading = {"totals": totals}
    if rnd.number == 1:  # no earlier round: the standings are this round's
        reading["scores"] = {
            name: {k: v for k, v in row.items() if k != "sos"} for name, row in totals.items()
        }
    return reading


async def standings_csv(rnd: Round, key: Key) -> Reading:
    """The standings CSV."""
    text = await rnd.get(f"/api/events/{rnd.event_id}/standings.csv")
    return {"totals": _totals(list(csv.DictReader(io.StringIO(text))), rnd.who(key))}


def _sheet_row(row: dict[str, Any], name: str, reading: Reading) -> None:
    """One player's row of a round (a record sheet's or the results CSV's)."""
    reading["scores"][name] = {
        "cp": int(row["control_points"]),
        "apd": int(row["army_points_destroyed"]),
    } | ({} if row["result"] == "Bye" else {"list": row["list_played"]})
    if "specialists" in row and row["result"] != "Bye":  # the swap the result keeps
        reading["scores"][name]["specialists"] = row["specialists"]
    reading["opponents"][name] = row["opponent"]
    if row["result"] in ("Win", "Bye"):
        reading["winner"] = name
    elif row["result"] in ("Tie", "Draw"):
        reading["winner"] = "tie"


def _rows_reading(rows: dict[str, dict[str, Any] | None]) -> Reading:
    reading: Reading = {"scores": {}, "opponents": {}}
    for name, row in rows.items():
        if row is not None:
            _sheet_row(row, name, reading)
    if not reading["scores"]:
        return {}
    reading.setdefault("winner", None)
    return reading


async def record_sheets(rnd: Round, key: Key) -> Reading:
    """Each player's record sheet, this round's row."""
    rows: dict[str, dict[str, Any] | None] = {}
    for name in rnd.who(key):
        player_id = next(p["id"] for p in rnd.view["players"] if p["name"] == name)
        sheet = await rnd.get(f"/api/events/{rnd.event_id}/players/{player_id}/sheet")
        rows[name] = next((r for r in sheet["rounds"] if r["round"] == rnd.number), None)
    return _rows_reading(rows)


async def results_csv(rnd: Round, key: Key) -> Reading:
    """The results CSV: every player's record sheet rows."""
    text = await rnd.get(f"/api/events/{rnd.event_id}/results.csv")
    mine = [
        r
        for r in csv.DictReader(io.StringIO(text))
        if r["round"] == str(rnd.number) and r["player"] in rnd.who(key)
    ]
    return _rows_reading({r["player"]: r for r in mine})


async def pairings_csv(rnd: Round, key: Key) -> Reading:
    """The pairings CSV: each table's players by name and, once decided, its first player."""
    text = await rnd.get(f"/api/events/{rnd.event_id}/pairings.csv")
    table = "bye" if key == "bye" else str(key)
    rows = [
        r
        for r in csv.DictReader(io.StringIO(text))
        if r["round"] == str(rnd.number) and r["table"] == table
    ]
    if not rows:
        return {}
    (row,) = rows
    if key == "bye":
        return {"players": (row["player"],), "opponents": {row["player"]: row["opponent"]}}
    players = tuple(sorted((row["player"], row["opponent"])))
    return {"table": key, "players": players, "first": row.get("first player") or None}


async def action_log(rnd: Round, key: Key) -> Reading:
    """The EO's action log: the last result the EO entered or corrected at the table."""
    if not isinstance(key, int):
        return {}
    tid = rnd.pairings[key]["table_id"]
    actions = await rnd.get(f"/api/events/{rnd.event_id}/actions")
    results = ("enter_result", "correct_result")
    mine = [a for a in actions if a["action"] in results and a["table"] == tid]
    if not mine:
        return {}
    last = mine[-1]
    names = rnd.names(key)
    return {
        "winner": winner_of(last["result"], names),
        "method": last["result"]["method"],
        "scores": scores_of(last["result"], names),
        "text": last.get("words", last["action"].replace("_", " ")),
    }


async def player_pages(rnd: Round, key: Key) -> Reading:
    """Each player's own page (their link from the EO): their table this round, their
    opponent, and the seat link it gives them, whose phone says who they are."""
    links = await rnd.get(f"/api/events/{rnd.event_id}/player-links")
    reading: Reading = {"opponents": {}, "holders": {}}
    rounds = (await rnd.get(f"/api/events/{rnd.event_id}"))["rounds"]
    for name in rnd.who(key):
        link = next(p["url"] for p in links if p["name"] == name)
        page = await rnd.get(
            f"/api/events/{rnd.event_id}/me", headers={"X-Player-Token": token_of(link)}
        )
        mine = page["current"]
        assert mine is not None and mine["round"] == rnd.number, (name, mine)
        reading["opponents"][name] = "Bye" if mine["bye"] else mine["opponent"]
        earlier = {r["number"]: _opponent_in(r, name) for r in rounds}
        earlier[rnd.number] = mine["opponent"]
        _notices_name_this_table(page["notices"], name, earlier, links)
        if mine["bye"]:
            continue
        reading["table"] = mine["table_no"]
        seat = mine["seat_url"]
        table = next(t for t in rnd.tables if f"/t/{t['id']}#" in seat)
        hello = {"t": "hello", "token": token_of(seat), "device": "surfaces-me"}
        state = await rnd.snapshot(f"/ws/tables/{table['id']}", hello, "state")
        reading["holders"][name] = state["table"]["names"][0 if state["role"] == "p1" else 1]
    return reading


def _opponent_in(round_view: dict[str, Any], me: str) -> str | None:
    for row in round_view["pairings"]:
        names = [row[s]["name"] if row.get(s) else None for s in ("p1", "p2")]
        if me in names:
            return names[1] if names[0] == me else names[0]
    return None


def _notices_name_this_table(
    notices: list[dict[str, Any]],
    me: str,
    opponents: dict[int, str | None],
    links: list[dict[str, Any]],
) -> None:
    """What the player's page tells them names only them and their opponent of the
    round it tells of (this round's, or an earlier round's corrected result: "Round 1:
    ..."), never a seat."""
    for notice in notices:
        text = notice["text"]
        assert not re.search(r"\bP[12]\b", text), (me, text)
        told = re.match(r"Round (\d+): ", text)
        opponent = opponents[int(told.group(1))] if told else opponents[max(opponents)]
        named = {p["name"] for p in links if re.search(rf"\b{re.escape(p['name'])}\b", text)}
        assert named <= {me, opponent}, (me, opponent, text)
