"""`deathclock serve` runs uvicorn with the sockets the app expects: no protocol
keepalive pings (every socket has the app's own heartbeat: a socket silent for 10 s is
dropped, tests/integration/test_socket_guards.py), no per-message compression, and
messages of 64 KiB at the most."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn

from app import cli


def test_serve_runs_uvicorn_without_protocol_pings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: ran.append({"app": app, **kwargs}))
    monkeypatch.setenv("DEATHCLOCK_DATABASE_URL", f"sqlite:///{tmp_path}/x.db")
    cli.main(["serve", "--port", "8123"])
    (options,) = ran
    assert options["app"] == "app.main:create_app" and options["factory"] is True
    assert options["port"] == 8123 and options["workers"] == 1
    assert options["ws_ping_interval"] is None
    assert options["ws_per_message_deflate"] is False
    assert options["ws_max_size"] == 64 * 1024
