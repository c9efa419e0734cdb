"""The table sockets' own door (app.api.ws.TableSockets): `/ws/tables/{table_id}` goes
straight to the table socket; any other path, and every other kind of scope, goes on to
the app, as the router would route it. (That the client guard still charges every
socket: tests/integration/test_hardening.py, a socket refused with 4429.)"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from app.api import ws


class Recorder:
    def __init__(self) -> None:
        self.app_paths: list[str] = []
        self.tables: list[tuple[str, Any]] = []

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        self.app_paths.append(scope["path"])

    async def table_socket(self, websocket: Any, table_id: str, hub: Any) -> None:
        self.tables.append((table_id, hub))


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(ws, "table_socket", recorder.table_socket)
    return recorder


def knock(seen: Recorder, kind: str, path: str, root_path: str = "") -> None:
    hub = object()
    app = SimpleNamespace(state=SimpleNamespace(hub=hub))
    scope = {"type": kind, "path": path, "root_path": root_path, "app": app, "headers": []}

    async def receive() -> Any:
        raise AssertionError("the door reads nothing itself")

    async def send(message: Any) -> None:
        raise AssertionError("the door sends nothing itself")

    before = len(seen.tables)
    asyncio.run(ws.TableSockets(seen.app)(scope, receive, send))
    for _table_id, given in seen.tables[before:]:
        assert given is hub  # the app's own hub, as the router's dependency gave it


def test_a_table_socket_goes_straight_to_its_table(seen: Recorder) -> None:
    knock(seen, "websocket", "/ws/tables/5ed4b1bd")
    knock(seen, "websocket", "/deathclock/ws/tables/abc", root_path="/deathclock")
    assert [t for t, _ in seen.tables] == ["5ed4b1bd", "abc"]
    assert seen.app_paths == []


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("websocket", "/ws/tables/"),  # no id: the router's 404 close
        ("websocket", "/ws/tables/abc/more"),  # not a table socket's path
        ("websocket", "/ws/tablesabc"),
        ("websocket", "/ws/events/abc"),  # the dashboards' sockets
        ("http", "/ws/tables/abc"),  # not a socket
        ("lifespan", ""),
    ],
)
def test_anything_else_goes_on_to_the_app(seen: Recorder, kind: str, path: str) -> None:
    knock(seen, kind, path)
    assert seen.tables == []
    assert seen.app_paths == [path]
