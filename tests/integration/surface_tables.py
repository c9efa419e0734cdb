"""The surfaces of one Warmachine table: the phones (a watcher's and each seat's own
socket), the EO's dashboard, dispute panel and result editor, the table cards and the
table log. Each says what it shows of the table, by the players' names."""

from __future__ import annotations

import html
import json
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


def _decided(game: dict[str, Any]) -> bool:
    """Who goes first is decided: no pre-game, the order chosen, or the clock started."""
    pregame = game["pregame"]
    return pregame is None or pregame["ordered"] or game["phase"] != "ready"


def _screen(state: dict[str, Any]) -> Reading:
    """What a phone shows of the table, from the snapshot it is sent on joining."""
    names, game = state["table"]["names"], state["game"]
    result = game["result"]
    text = ""
    if result is not None:
        text = " ".join(x for x in (result.get("words"), result.get("reason")) if x)
    reading: Reading = {
        "players": tuple(sorted(names)),
        "first": names[0] if _decided(game) else None,
        "winner": winner_of(result, names),
        "scores": scores_of(result, names),
        "text": text,
    }
    if result is not None:
        reading["method"] = result["method"]
    return reading


async def _joined(rnd: Round, table_no: int, link: str) -> dict[str, Any]:
    table = rnd.table(table_no)
    hello = {"t": "hello", "token": token_of(link), "device": f"surfaces-{rnd.number}"}
    return await rnd.snapshot(f"/ws/tables/{table['id']}", hello, "state")


async def phones(rnd: Round, key: Key) -> Reading:
    """What a phone at the table is sent on joining (the watch link's snapshot)."""
    if not isinstance(key, int):
        return {}
    return _screen(await _joined(rnd, key, rnd.table(key)["links"]["watch"]))


async def seat_phones(rnd: Round, key: Key) -> Reading:
    """Each player's own phone (their seat link, as the card names its player): the
    player it says you are, and the table as it shows it."""
    if not isinstance(key, int):
        return {}
    links = rnd.table(key)["links"]
    holders: dict[str, str] = {}
    reading: Reading = {}
    for seat in ("p1", "p2"):
        state = await _joined(rnd, key, links[seat]["url"])
        names = state["table"]["names"]
        holders[links[seat]["name"]] = names[0 if state["role"] == "p1" else 1]
        shown = _screen(state)
        for item, said in shown.items():
            if reading.get(item, said) != said:  # the two seats disagree: say both
                said = f"{reading[item]!r} on one seat, {said!r} on the other"
            reading[item] = said
    return {**reading, "holders": holders}


async def dashboard(rnd: Round, key: Key) -> Reading:
    """The EO's dashboard as it opens (its socket's snapshot): each table's card, in the
    order of its sides (the first player's first) once the game runs."""

    async def fetch() -> dict[str, Any]:
        hello = {"t": "hello", "token": rnd.client.headers["X-EO-Token"]}
        return await rnd.snapshot(f"/ws/events/{rnd.event_id}", hello, "dashboard")

    snap = await rnd.once("dashboard", fetch)
    pairings = (snap.get("round") or {}).get("pairings", [])
    if key == "bye":
        bye = next((p for p in pairings if p["p2"] is None), None)
        return {} if bye is None else {"players": (bye["p1"]["name"],)}
    row = next(t for t in snap["tables"] if t["table_no"] == key)
    names = row["names"]
    decided = row["pregame"] in (None, "edge", "done") or row["phase"] != "ready"
    ending = row["ending"]
    reading: Reading = {
        "players": tuple(sorted(names)),
        "first": names[0] if decided else None,
        "scores": {name: {"cp": row["control_points"][i]} for i, name in enumerate(names)},
    }
    if ending is not None:  # the card's words: the result once there is one
        reading |= {"winner": winner_of(ending, names), "method": ending["method"]}
        reading["text"] = ending["words"]
    return reading


async def dispute_panel(rnd: Round, key: Key) -> Reading:
    """The EO's one table: its players and who goes first; until a result stands, the
    game's ending and both players' reports, by player (the dispute box)."""
    if not isinstance(key, int):
        return {}
    detail = await _detail(rnd, key)
    players = _players(detail)
    names = [p["name"] for p in players]
    first = next((p["name"] for p in players if p.get("first")), None)
    if rnd.pairings[key]["result"] is not None:  # the editor shows the result instead
        return {"players": tuple(sorted(names)), "first": first}
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
        "winner": winner_of(ending, names) if ending else None,
        "reported": reported,
        "text": detail.get("disputed") or "",
    }


async def result_editor(rnd: Round, key: Key) -> Reading:
    """The EO's result editor as it opens: with the result that stands, else filled in
    from what the table says (its ending and both players' reports)."""
    if not isinstance(key, int):
        return {}
    detail = await _detail(rnd, key)
    names = [p["name"] for p in _players(detail)]
    prefill = rnd.pairings[key]["result"] or detail.get("prefill")
    return {"winner": winner_of(prefill, names), "scores": scores_of(prefill, names)}


def _players(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return detail.get("players") or [{"name": name} for name in detail["names"]]


async def _detail(rnd: Round, table_no: int) -> dict[str, Any]:
    tid = rnd.pairings[table_no]["table_id"]
    detail: dict[str, Any] = await rnd.get(f"/api/events/{rnd.event_id}/tables/{tid}")
    return detail


async def table_cards(rnd: Round, key: Key) -> Reading:
    """The table cards and the admin's links row: each seat link with its player's name."""
    if not isinstance(key, int):
        return {}
    links = rnd.table(key)["links"]
    seats = [links["p1"], links["p2"]]
    first = next((s["name"] for s in seats if s.get("first")), None)
    return {"players": tuple(sorted(str(s.get("name")) for s in seats)), "first": first}


async def table_log(rnd: Round, key: Key) -> Reading:
    """The table log page: its players (the page's own), who chose to go first, and the
    result the EO entered, read from the log as the page reads it."""
    if not isinstance(key, int):
        return {}
    table = rnd.table(key)
    token = table["links"]["watch"].split("#k=", 1)[1]
    page = await rnd.get(f"/t/{table['id']}/log")
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
        if e["c"] == "start" and reading["first"] is None:  # no order chosen: seat order
            reading["first"] = sides[0]
        if e["c"] == "choose_order":
            chooser = 0 if e["by"] == "p1" else 1
            first = chooser if e["first"] else 1 - chooser
            reading["first"] = seats[first]
            sides = [seats[first], seats[1 - first]]
        if e["c"] == "record_result":
            reading["winner"] = winner_of(e, sides)
    return reading


async def game_story(rnd: Round, key: Key) -> Reading:
    """The game told again under the result (the table page's and the log page's chart):
    its players, and the winner its words name ("Ann wins by scenario in Bob's turn 3"),
    once the game is over."""
    if not isinstance(key, int):
        return {}
    table = rnd.table(key)
    story = await rnd.get(
        f"/api/tables/{table['id']}/story",
        headers={"X-Table-Token": token_of(table["links"]["watch"])},
    )
    if not isinstance(story, dict):
        return {}
    names = story["names"]
    reading: Reading = {"players": tuple(sorted(names))}
    decided = story["decided"]
    if decided is not None and decided["winner"] is not None:
        reading["winner"] = names[0 if decided["winner"] == "p1" else 1]
    return reading
