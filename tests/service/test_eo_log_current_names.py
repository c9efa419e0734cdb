"""The EO's log names each player by their name now: a result, a penalty (a game loss's
result and reason too), an award, a drop, a swap and a table's clock entered before the
EO corrected a player's name read with the corrected name, never the old one; the log's
row of each correction names both (that row is about the name). Rows written with names
only, before the log named players by id, still read as written."""

from __future__ import annotations

import json
from typing import Any

import httpx

from app.domain import commands as c
from app.domain.clock import Side
from app.events.base import EventSpec
from app.events.eo_log import log_rows
from app.events.service import EventService
from app.store.models import EoAction, PlayerEntry
from tests.conftest import RunningServer

OLD, NEW, NEWER = "Bbo Baker", "Bob Baker", "Robert Baker"
OTHERS = ("Ann Abbot", "Cal Crane", "Dee Drake")
MIN = 60_000


def _naming(rows: list[dict[str, Any]], name: str) -> list[str]:
    return [row["action"] for row in rows if name in json.dumps(row)]


async def test_the_log_read_over_http_says_the_name_now_but_in_the_rename_rows(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = (await http.post("/api/events", json={"name": "Names day"})).json()
        eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
        api = f"/api/events/{eid}"
        ids = {}
        for name in (OLD, *OTHERS):
            added = await http.post(f"{api}/players", json={"name": name}, headers=eo)
            ids[name] = added.json()["id"]
        assert (await http.post(f"{api}/rounds", json={}, headers=eo)).status_code == 201
        assert (await http.post(f"{api}/rounds/current/start", headers=eo)).is_success
        tables = (await http.get(f"{api}/tables", headers=eo)).json()
        table = next(t for t in tables if OLD in t["names"])
        seat = "p1" if table["names"][0] == OLD else "p2"
        result = {
            "winner": seat,
            "control_points": [3, 1],
            "army_points_destroyed": [40, 20],
            "reason": f"{OLD} showed the judge the score",
        }
        entered = await http.put(f"{api}/tables/{table['id']}/result", json=result, headers=eo)
        assert entered.is_success, entered.text
        for kind in ("warning", "game_loss"):
            body = {"player": ids[OLD], "kind": kind, "reason": "slow play", "round": 1}
            given = await http.post(f"{api}/penalties", json=body, headers=eo)
            assert given.is_success, given.text
        award = {"player": ids[OLD]}
        awarded = await http.post(f"{api}/prizes/best_sport/award", json=award, headers=eo)
        assert awarded.is_success, awarded.text
        dropped = await http.post(f"{api}/players/{ids[OLD]}/drop", json={}, headers=eo)
        assert dropped.is_success, dropped.text
        before = (await http.get(f"{api}/actions", headers=eo)).json()
        named = {"enter_result", "correct_result", "penalty", "add_player"}
        assert named <= set(_naming(before, OLD))

        for name in (NEW, NEWER):
            body = {"name": name, "reason": "misspelt at registration"}
            renamed = await http.put(f"{api}/players/{ids[OLD]}", json=body, headers=eo)
            assert renamed.status_code == 200, renamed.text
        log = (await http.get(f"{api}/actions", headers=eo)).json()

    assert _naming(log, OLD) == ["edit_player"]
    assert _naming(log, NEW) == ["edit_player", "edit_player"]
    renames = [(row["was"], row["name"]) for row in log if row["action"] == "edit_player"]
    assert renames == [(OLD, NEW), (NEW, NEWER)]
    rows: dict[str, dict[str, Any]] = {}
    for row in log:
        rows.setdefault(row["action"], row)  # the first of each
    assert rows["add_player"]["name"] == NEWER
    assert rows["enter_result"]["words"].startswith(f"{NEWER} wins")
    assert f"Why: {NEWER} showed the judge the score" in rows["enter_result"]["words"]
    assert f"Why: Game loss for {NEWER}: slow play" in rows["correct_result"]["words"]
    penalties = [row["words"] for row in log if row["action"] == "penalty"]
    assert penalties == [
        f"Warning for {NEWER} (round 1): slow play",
        f"Game loss for {NEWER} (round 1): slow play",
    ]
    for action in ("award", "drop"):
        assert rows[action]["names"] == {ids[OLD]: NEWER}, action
    assert rows["award"]["title"] == "Best Sport"


async def test_a_swap_and_a_table_clock_say_the_name_now(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="Swap day", points=75))
    ids = {
        name: service.registration.add_player(event.id, name, "Khador").id
        for name in (OLD, *OTHERS)
    }
    eid = event.id
    service.rounds.pair_next(eid)
    entry = service.book.current_round(eid)
    assert entry is not None
    rows = json.loads(entry.pairings_json)
    other = next(row["p1"] for row in rows if ids[OLD] not in (row["p1"], row["p2"]))
    service.rounds.swap(eid, ids[OLD], other)
    await service.rounds.start(eid)
    room = next(
        r
        for r in service.tables.rooms(eid)
        if r.meta and ids[OLD] in (r.meta.p1_player, r.meta.p2_player)
    )
    assert room.meta is not None
    await room.apply(Side.P1, "a", 1, c.StartingRoll(at_table=(6, 1)))
    await room.apply(Side.P1, "a", 2, c.ChooseOrder(first=True))  # the first seat goes first
    side = "p1" if room.meta.p1_player == ids[OLD] else "p2"
    command = {"c": "adjust_clock", "side": side, "remaining_ms": 45 * MIN}
    await service.tables.command(eid, room.table_id, command)
    service.registration.edit_player(eid, ids[OLD], NEW, "Khador", "")

    log = log_rows(service.book.actions(eid), service.book.players(eid))
    assert _naming(log, OLD) == ["edit_player"]
    swap = next(row for row in log if row["action"] == "swap")
    assert swap["names"][ids[OLD]] == NEW
    clock = next(row for row in log if row["action"] == "table_adjust_clock")
    assert clock["detail"]["name"] == NEW


def test_rows_written_with_names_only_still_read() -> None:
    """A row from before the log named players by id: a player's `name` beside their id
    says the name now; words that name nobody by id read as written."""
    now = [PlayerEntry(id="b0b", event_id="e", name=NEW, faction="", lists="")]

    def row(action: str, **detail: Any) -> EoAction:
        return EoAction(event_id="e", at_ms=1, action=action, detail_json=json.dumps(detail))

    log = log_rows(
        [
            row("add_player", player="b0b", name=OLD),
            row("penalty", player="b0b", kind="warning", words=f"Warning for {OLD}: late"),
            row("delete_player", player="gone", name="Cal Crane"),
        ],
        now,
    )
    assert log[0]["name"] == NEW
    assert log[1]["words"] == f"Warning for {OLD}: late"
    assert log[1]["names"] == {"b0b": NEW}
    assert log[2]["name"] == "Cal Crane" and log[2]["names"] == {"gone": "Cal Crane"}
