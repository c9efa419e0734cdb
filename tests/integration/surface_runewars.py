"""The surfaces of a Runewars event (run by its own policy: TP by margin of victory, ST5):
the event page and the EO's view, the dashboard, the EO's table panel and result form,
the standings and their CSV, the phones, the action log and the table log. A Runewars
table never swaps its seats: the first player is chosen at the table, by seat."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from typing import Any

from tests.integration.surface_round import Key, Reading, Round, token_of


def _totals(rows: list[dict[str, Any]], names: tuple[str, ...]) -> dict[str, Any]:
    return {
        r["name"]: {"tp": int(r["tp"]), "mov": int(r["mov"])} for r in rows if r["name"] in names
    }


def _pairing(rnd: Round, view: dict[str, Any], key: Key) -> Reading:
    pairings = view["rounds"][rnd.number - 1]["pairings"]
    if key == "bye":
        bye = next((p for p in pairings if p["p2"] is None), None)
        if bye is None:
            return {}
        name = bye["p1"]["name"]
        result = bye["result"]
        return {"players": (name,), "winner": name} | (
            {}
            if result is None
            else {"scores": {name: {"tp": result["tp"][0], "mov": result["mov"][0]}}}
        )
    pairing = next(p for p in pairings if p["table"] == key)
    names = (pairing["p1"]["name"], pairing["p2"]["name"])
    reading: Reading = {"table": key, "players": tuple(sorted(names))}
    result = pairing["result"]
    if result is not None:
        ids = (pairing["p1"]["id"], pairing["p2"]["id"])
        reading["winner"] = names[ids.index(result["winner"])]
        reading["scores"] = {
            n: {"tp": result["tp"][i], "mov": result["mov"][i]} for i, n in enumerate(names)
        }
    return reading


async def event_page(rnd: Round, key: Key) -> Reading:
    """The public event page: pairings, results (TP and MoV) and standings."""
    public = await rnd.get(f"/api/events/{rnd.event_id}")
    return _pairing(rnd, public, key) | {"totals": _totals(public["standings"], rnd.who(key))}


async def tournament_page(rnd: Round, key: Key) -> Reading:
    """The event's and the EO's pages as their script loads them (`/tournament`):
    pairings, results (TP and MoV) and standings."""
    view = await rnd.get(f"/api/events/{rnd.event_id}/tournament")
    return _pairing(rnd, view, key) | {"totals": _totals(view["standings"], rnd.who(key))}


async def admin_table_list(rnd: Round, key: Key) -> Reading:
    """The EO's page: the same pairings, as the EO's view lists them."""
    return _pairing(rnd, rnd.view, key)


def _board(row: dict[str, Any]) -> Reading:
    """A table as a Runewars engine shows it (its phones, the dashboard, the EO's panel):
    names in seat order, the first player's seat once chosen, the result by seat."""
    names = row["names"]
    reading: Reading = {"players": tuple(sorted(names))}
    if "first" in row:
        reading["first"] = None if row["first"] is None else names[0 if row["first"] == "p1" else 1]
    result = row.get("result")
    if result is not None:
        reading["winner"] = names[0 if result["winner"] == "p1" else 1]
        reading["scores"] = {
            n: {"tp": result["tp"][i], "mov": result["mov"][i]} for i, n in enumerate(names)
        }
    return reading


async def dashboard(rnd: Round, key: Key) -> Reading:
    """The EO's dashboard as it opens: each table's card."""

    async def fetch() -> dict[str, Any]:
        hello = {"t": "hello", "token": rnd.client.headers["X-EO-Token"]}
        return await rnd.snapshot(f"/ws/events/{rnd.event_id}", hello, "dashboard")

    snap = await rnd.once("dashboard", fetch)
    if not isinstance(key, int):
        return {}
    return _board(next(t for t in snap["tables"] if t["table_no"] == key))


async def result_panel(rnd: Round, key: Key) -> Reading:
    """The EO's one table (its detail): its first player, result and both players'
    reports (their entries, and why one disputes)."""
    if not isinstance(key, int):
        return {}
    tid = rnd.pairings[key]["table_id"]
    detail = await rnd.get(f"/api/events/{rnd.event_id}/tables/{tid}")
    names = detail["names"]
    reports = dict(zip(names, detail["reports"], strict=True))
    entries = {n: r["entry"] for n, r in reports.items() if r["entry"] is not None}
    why = [f"{n}: {r['disputed']}" for n, r in reports.items() if r["disputed"]]
    return _board(detail) | {"entries": entries, "text": "; ".join(why)}


async def result_editor(rnd: Round, key: Key) -> Reading:
    """The EO's result form as it opens: both players' entries, as the table has them."""
    if not isinstance(key, int):
        return {}
    judging = rnd.pairings[key]["judging"]
    names = rnd.names(key)
    entries = {n: e for n, e in zip(names, judging["entries"], strict=True) if e is not None}
    return {"entries": entries}


async def standings(rnd: Round, key: Key) -> Reading:
    rows = await rnd.get(f"/api/events/{rnd.event_id}/standings")
    return {"totals": _totals(rows, rnd.who(key))}


async def standings_csv(rnd: Round, key: Key) -> Reading:
    """Both of the standings' CSV exports (the event's and the tournament's)."""
    reading: Reading = {}
    for path in ("standings.csv", "tournament/standings.csv"):
        text = await rnd.get(f"/api/events/{rnd.event_id}/{path}")
        totals = _totals(list(csv.DictReader(io.StringIO(text))), rnd.who(key))
        if reading and reading["totals"] != totals:
            totals = {"the two exports differ": [reading["totals"], totals]}
        reading["totals"] = totals
    return reading


async def _state(rnd: Round, table_no: int, link: str) -> dict[str, Any]:
    hello = {"t": "hello", "token": token_of(link), "device": f"surfaces-{rnd.number}"}
    table_id = rnd.table(table_no)["id"]
    return await rnd.snapshot(f"/ws/tables/{table_id}", hello, "state")


async def phones(rnd: Round, key: Key) -> Reading:
    """What a phone at the table is sent on joining (the watch link's snapshot)."""
    if not isinstance(key, int):
        return {}
    return _board((await _state(rnd, key, rnd.table(key)["links"]["watch"]))["game"])


async def seat_phones(rnd: Round, key: Key) -> Reading:
    """Each player's own phone: the player it says you are, and the table it shows."""
    if not isinstance(key, int):
        return {}
    links = rnd.table(key)["links"]
    reading: Reading = {"holders": {}}
    for seat in ("p1", "p2"):
        state = await _state(rnd, key, links[seat]["url"])
        names = state["game"]["names"]
        reading["holders"][links[seat]["name"]] = names[0 if state["role"] == "p1" else 1]
        reading |= _board(state["game"])
    return reading


async def action_log(rnd: Round, key: Key) -> Reading:
    """The EO's action log: why the EO entered or corrected the table's result."""
    if not isinstance(key, int):
        return {}
    tid = rnd.pairings[key]["table_id"]
    actions = await rnd.get(f"/api/events/{rnd.event_id}/actions")
    mine = [a for a in actions if a.get("table") == tid]
    return {"text": mine[-1].get("reason", "")} if mine else {}


async def table_log(rnd: Round, key: Key) -> Reading:
    """The table log page: its players, and the first player chosen at the table."""
    if not isinstance(key, int):
        return {}
    table = rnd.table(key)
    page = await rnd.get(f"/t/{table['id']}/log")
    found = re.search(r'data-players="([^"]*)"', page)
    if found is None:
        return {}
    seats = json.loads(html.unescape(found.group(1)))
    got = await rnd.client.get(
        f"/api/tables/{table['id']}/log",
        headers={"X-Table-Token": token_of(table["links"]["watch"])},
    )
    reading: Reading = {"players": tuple(sorted(seats)), "first": None}
    for entry in got.json()["entries"]:
        if entry["c"] == "choose_first":
            reading["first"] = seats[0 if entry["first"] == "p1" else 1]
    return reading


async def player_pages(rnd: Round, key: Key) -> Reading:
    """Each player's own page (their link from the organiser): this round's table and
    opponent, the seat link it gives them (whose phone says who they are), and their
    record's row for the round (won, lost or bye, TP and MoV)."""
    links = await rnd.get(f"/api/events/{rnd.event_id}/player-links")
    reading: Reading = {"opponents": {}, "holders": {}, "scores": {}}
    for name in rnd.who(key):
        link = next(p["url"] for p in links if p["name"] == name)
        page = await rnd.get(
            f"/api/events/{rnd.event_id}/me", headers={"X-Player-Token": token_of(link)}
        )
        mine = page["current"]
        assert mine is not None and mine["round"] == rnd.number, (name, mine)
        reading["opponents"][name] = "Bye" if mine["bye"] else mine["opponent"]
        row = next((r for r in page["record"] if r["round"] == rnd.number), None)
        if row is not None:
            reading["scores"][name] = {"tp": row["tp"], "mov": row["mov"]}
            if row["result"] in ("won", "bye"):
                reading["winner"] = name
        if mine["bye"]:
            continue
        reading["table"] = mine["table_no"]
        table = next(t for t in rnd.tables if f"/t/{t['id']}#" in mine["seat_url"])
        state = await _state(rnd, table["table_no"], mine["seat_url"])
        names = state["game"]["names"]
        reading["holders"][name] = names[0 if state["role"] == "p1" else 1]
    return reading
