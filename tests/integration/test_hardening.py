"""Web hardening: each test replays an attack (or a failure) and shows it refused,
with the server's state as it was."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text

from app.api import guard
from app.settings import Settings
from app.store.repository import Store
from tests.conftest import RunningServer

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
