"""`deathclock serve` runs uvicorn with the sockets the app expects: no protocol
keepalive pings (every socket has the app's own heartbeat: a socket silent for 10 s is
dropped, tests/integration/test_socket_guards.py), no per-message compression, and
messages of 64 KiB at the most; its socket protocol makes no log line per socket, and
the collector waits while the app is imported and started, and what the import made is
frozen out of it."""

from __future__ import annotations

import gc
from typing import Any

import pytest
import uvicorn

from app import cli
from app.sockets import ServerHttp, ServerSockets


def test_serve_runs_uvicorn_without_protocol_pings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    ran: list[dict[str, Any]] = []

    def run(app: str, **kwargs: Any) -> None:
        frozen = gc.get_freeze_count() - frozen_before
        ran.append({"app": app, "collecting": gc.isenabled(), "frozen": frozen, **kwargs})

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setenv("DEATHCLOCK_DATABASE_URL", f"sqlite:///{tmp_path}/x.db")
    frozen_before = gc.get_freeze_count()
    try:
        cli.main(["serve", "--port", "8123"])
    finally:
        gc.unfreeze()  # the served process leaves it to the app (app/collector.py); tests don't
        gc.enable()
    (options,) = ran
    assert options["app"] == "app.main:create_app" and options["factory"] is True
    assert options["port"] == 8123 and options["workers"] == 1
    assert options["ws_ping_interval"] is None
    assert options["ws_per_message_deflate"] is False
    assert options["ws_max_size"] == 64 * 1024
    assert options["ws"] is ServerSockets
    assert options["http"] is ServerHttp  # an upgraded connection leaves no cycle behind
    assert options["collecting"] is False
    assert options["frozen"] > 10_000  # the app's import, out of the collector
