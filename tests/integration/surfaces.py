"""Every surface that names a table's players, read in one place.

`read_every_surface` reads what a person is shown of an event's round, and returns,
per table number, what each surface says of that table in names: its two players,
who goes first, who won, each player's TP, CP, APD and list, and the words a person
reads of the result. A surface says only what it shows (a key it does not show is
absent); `disagreements` compares every surface with what is true. A new surface
joins `SURFACES` once, and every test that reads the surfaces reads it too.

The client is the EO's: its base URL is the server's and its headers carry the EO
token (X-EO-Token).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

#: What one surface says of one table: players (sorted names), first (a name or None:
#: not decided yet), winner (a name, "tie", or None: no result), scores ({name: {tp,
#: cp, apd, list}}, only what the surface shows), reported ({name: {apd, list}}: the
#: players' own reports, a list if they named one), text (the words a person reads of
#: the result).
Reading = dict[str, Any]


@dataclass
class Round:
    """What the surfaces are read from: the event, its round and its tables."""

    client: httpx.AsyncClient
    event_id: str
    number: int
    view: dict[str, Any]  # the EO's view of the event
    tables: list[dict[str, Any]]  # the EO's list of the round's tables
    pairings: dict[int, dict[str, Any]] = field(default_factory=dict)  # by table number

    def names(self, table_no: int) -> tuple[str, str]:
        """The pairing's two players, as it lists them."""
        p = self.pairings[table_no]
        return p["p1"]["name"], p["p2"]["name"]

    def name_of(self, player_id: str | None) -> str | None:
        return next((p["name"] for p in self.view["players"] if p["id"] == player_id), None)

    def table(self, table_no: int) -> dict[str, Any]:
        return next(t for t in self.tables if t["table_no"] == table_no)


def _winner(result: dict[str, Any] | None, names: tuple[str, str] | list[str]) -> str | None:
    if result is None:
        return None
    if result["winner"] is None:
        return "tie"
    return names[0 if result["winner"] == "p1" else 1]


def _scores(result: dict[str, Any] | None, names: tuple[str, str] | list[str]) -> dict[str, Any]:
    if result is None:
        return {}
    return {
        name: {
            "cp": result["control_points"][i],
            "apd": result["army_points_destroyed"][i],
            "list": (result.get("lists") or ["", ""])[i],
        }
        for i, name in enumerate(names)
    }


def _pairing_reading(rnd: Round, pairing: dict[str, Any]) -> Reading:
    names = (pairing["p1"]["name"], pairing["p2"]["name"])
    return {
        "players": tuple(sorted(names)),
        "first": rnd.name_of(pairing.get("first")),
        "winner": _winner(pairing["result"], names),
        "scores": _scores(pairing["result"], names),
    }


async def _event_view(rnd: Round, table_no: int) -> Reading:
    """The public event page: pairings, results."""
    public = await rnd.client.get(f"/api/events/{rnd.event_id}")
    pairing = next(
        p for p in public.json()["rounds"][rnd.number - 1]["pairings"] if p["table"] == table_no
    )
    return _pairing_reading(rnd, pairing)


async def _admin_table_list(rnd: Round, table_no: int) -> Reading:
    """The EO's table list (the admin page's pairings)."""
    return _pairing_reading(rnd, rnd.pairings[table_no])


async def _dispute_panel(rnd: Round, table_no: int) -> Reading:
    """The EO's one table: the game's ending and both players' reports, by player."""
    detail = await _detail(rnd, table_no)
    players = _players(detail)
    names = [p["name"] for p in players]
    first = next((p["name"] for p in players if p.get("first")), None)
    ending = detail["ending"]
    reported = {
        name: {"apd": r["army_points_destroyed"]}
        | ({"list": r["list_played"]} if r["list_played"] else {})
        for name, r in zip(names, detail["reports"], strict=True)
        if r is not None
    }
    return {
        "players": tuple(sorted(names)),
        "first": first,
        "winner": _winner(ending, names) if ending else None,
        "reported": reported,
        "text": detail.get("disputed") or "",
    }


async def _result_editor(rnd: Round, table_no: int) -> Reading:
    """The EO's result editor as it opens: with the result that stands, else filled in
    from what the table says (its ending and both players' reports)."""
    detail = await _detail(rnd, table_no)
    names = [p["name"] for p in _players(detail)]
    prefill = rnd.pairings[table_no]["result"] or detail.get("prefill")
    return {"winner": _winner(prefill, names), "scores": _scores(prefill, names)}


def _players(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return detail.get("players") or [{"name": name} for name in detail["names"]]


async def _detail(rnd: Round, table_no: int) -> dict[str, Any]:
    tid = rnd.pairings[table_no]["table_id"]
    response = await rnd.client.get(f"/api/events/{rnd.event_id}/tables/{tid}")
    assert response.status_code == 200, response.text
    detail: dict[str, Any] = response.json()
    return detail


async def _standings(rnd: Round, table_no: int) -> Reading:
    """The standings (after this round: the test's events have played no other)."""
    rows = (await rnd.client.get(f"/api/events/{rnd.event_id}/standings")).json()
    names = rnd.names(table_no)
    return {
        "scores": {
            r["name"]: {"tp": r["tp"], "cp": r["control_points"], "apd": r["army_points_destroyed"]}
            for r in rows
            if r["name"] in names
        }
    }


async def _record_sheets(rnd: Round, table_no: int) -> Reading:
    """Each player's record sheet, this round's row."""
    pairing = rnd.pairings[table_no]
    scores: dict[str, Any] = {}
    winner = None
    for player in (pairing["p1"], pairing["p2"]):
        sheet = (
            await rnd.client.get(f"/api/events/{rnd.event_id}/players/{player['id']}/sheet")
        ).json()
        row = next((r for r in sheet["rounds"] if r["round"] == rnd.number), None)
        if row is None:
            continue
        scores[player["name"]] = {
            "cp": row["control_points"],
            "apd": row["army_points_destroyed"],
            "list": row["list_played"],
        }
        if row["result"] == "Win":
            winner = player["name"]
        elif row["result"] in ("Tie", "Draw"):
            winner = "tie"
    reading: Reading = {"scores": scores}
    if scores:
        reading["winner"] = winner
    return reading


async def _phones(rnd: Round, table_no: int) -> Reading:
    """What a phone at the table is sent on joining (the watch link's snapshot)."""
    table = rnd.table(table_no)
    token = table["links"]["watch"].split("#k=", 1)[1]
    ws_base = str(rnd.client.base_url).rstrip("/").replace("http://", "ws://")
    async with websockets.connect(f"{ws_base}/ws/tables/{table['id']}") as ws:
        await ws.send(json.dumps({"t": "hello", "token": token, "device": "surfaces"}))
        while (state := json.loads(await ws.recv()))["t"] != "state":
            pass
    names, game = state["table"]["names"], state["game"]
    pregame = game["pregame"]
    decided = pregame is None or pregame["ordered"] or game["phase"] != "ready"
    result = game["result"]
    text = ""
    if result is not None:
        text = " ".join(x for x in (result.get("words"), result.get("reason")) if x)
    return {
        "players": tuple(sorted(names)),
        "first": names[0] if decided else None,
        "winner": _winner(result, names),
        "scores": _scores(result, names),
        "text": text,
    }


async def _action_log(rnd: Round, table_no: int) -> Reading:
    """The EO's action log: the last result the EO entered or corrected at the table."""
    tid = rnd.pairings[table_no]["table_id"]
    actions = (await rnd.client.get(f"/api/events/{rnd.event_id}/actions")).json()
    results = ("enter_result", "correct_result")
    mine = [a for a in actions if a["action"] in results and a["table"] == tid]
    if not mine:
        return {}
    last = mine[-1]
    names = rnd.names(table_no)
    return {
        "winner": _winner(last["result"], names),
        "scores": _scores(last["result"], names),
        "text": last.get("words", last["action"].replace("_", " ")),
    }


async def _pairings_csv(rnd: Round, table_no: int) -> Reading:
    """The pairings CSV: each table's players by name and, once decided, its first player."""
    text = (await rnd.client.get(f"/api/events/{rnd.event_id}/pairings.csv")).text
    rows = [
        r
        for r in csv.DictReader(io.StringIO(text))
        if r["round"] == str(rnd.number) and r["table"] == str(table_no)
    ]
    (row,) = rows
    players = tuple(sorted(v for k, v in row.items() if k in ("player", "opponent")))
    return {"players": players, "first": row.get("first player") or None}


async def _table_cards(rnd: Round, table_no: int) -> Reading:
    """The table cards and the admin's links row: each seat link with its player's name."""
    links = rnd.table(table_no)["links"]
    seats = [links["p1"], links["p2"]]
    names = [s.get("name") for s in seats]
    first = next((s["name"] for s in seats if s.get("first")), None)
    return {"players": tuple(sorted(str(n) for n in names)), "first": first}


async def _table_log(rnd: Round, table_no: int) -> Reading:
    """The table log page: its players (the page's own), who chose to go first, and the
    result the EO entered, read from the log as the page reads it."""
    table = rnd.table(table_no)
    token = table["links"]["watch"].split("#k=", 1)[1]
    page = (await rnd.client.get(f"/t/{table['id']}/log")).text
    found = re.search(r'data-players="([^"]*)"', page)
    if found is None:
        return {}
    seats = json.loads(html.unescape(found.group(1)))
    entries: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        got = await rnd.client.get(
            f"/api/tables/{table['id']}/log",
            params={"after": after},
            headers={"X-Table-Token": token},
        )
        entries += got.json()["entries"]
        after = got.json()["next"]
    reading: Reading = {"players": tuple(sorted(seats)), "first": None}
    sides = list(seats)  # until the order is chosen each link plays its own seat's side
    for e in entries:
        if e["c"] == "choose_order":
            chooser = 0 if e["by"] == "p1" else 1
            first = chooser if e["first"] else 1 - chooser
            reading["first"] = seats[first]
            sides = [seats[first], seats[1 - first]]
        if e["c"] == "record_result":
            reading["winner"] = _winner(e, sides)
    return reading


Surface = Callable[[Round, int], Awaitable[Reading]]

#: Every surface a person reads a table's players on, by what it is called.
SURFACES: dict[str, Surface] = {
    "event page": _event_view,
    "admin table list": _admin_table_list,
    "dispute panel": _dispute_panel,
    "result editor": _result_editor,
    "standings": _standings,
    "record sheets": _record_sheets,
    "phones": _phones,
    "EO action log": _action_log,
    "pairings CSV": _pairings_csv,
    "table cards": _table_cards,
    "table log": _table_log,
}


async def read_every_surface(
    client: httpx.AsyncClient, event_id: str, round_number: int
) -> dict[int, dict[str, Reading]]:
    """Per table number, what every surface says of the table (see `Reading`)."""
    view = (await client.get(f"/api/events/{event_id}/admin")).json()
    tables = (await client.get(f"/api/events/{event_id}/tables")).json()
    rnd = Round(
        client,
        event_id,
        round_number,
        view,
        [t for t in tables if t["round"] == round_number],
    )
    for pairing in view["rounds"][round_number - 1]["pairings"]:
        if pairing["p2"] is not None:
            rnd.pairings[pairing["table"]] = pairing
    return {
        table_no: {name: await surface(rnd, table_no) for name, surface in SURFACES.items()}
        for table_no in sorted(rnd.pairings)
    }


def disagreements(readings: dict[str, Reading], truth: Reading) -> list[str]:
    """Where a surface says otherwise than the truth, in words (empty: all agree). Only
    what both the surface and the truth say is compared; scores player by player."""
    found = []
    for surface, reading in readings.items():
        for key, said in reading.items():
            if key not in truth or key == "text":
                continue
            wanted = truth[key]
            if key in ("scores", "reported"):
                for name, values in said.items():
                    expected = wanted.get(name, {})
                    for item, value in values.items():
                        if item in expected and expected[item] != value:
                            found.append(
                                f"{surface}: {name}'s {item} is {value!r}, not {expected[item]!r}"
                            )
                missing = set(wanted) - set(said)
                if said and missing:
                    found.append(f"{surface}: names no {key} for {sorted(missing)}")
            elif said != wanted:
                found.append(f"{surface}: {key} is {said!r}, not {wanted!r}")
    return found
