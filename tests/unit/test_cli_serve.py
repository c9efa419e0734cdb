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
from app.sockets import ServerSockets


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
    assert options["collecting"] is False
    assert options["frozen"] > 10_000  # the app's import, out of the collector


def _workers_env(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> dict[str, Any]:
    """What `deathclock serve` hands uvicorn, and what its workers' environment says."""
    ran: list[dict[str, Any]] = []

    def run(app: str, **kwargs: Any) -> None:
        ran.append({"single_accept": cli.os.environ.get(cli.SINGLE_ACCEPT), **kwargs})

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.delenv(cli.SINGLE_ACCEPT, raising=False)
    try:
        cli.main(argv)
    finally:
        gc.unfreeze()
        gc.enable()
    (options,) = ran
    return options


def test_several_workers_take_the_herds_connections_in_turn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Several workers share one listening socket: each takes one waiting connection at a
    time (libuv's single accept), so that a hall's phones coming back at once are shared
    between the workers rather than queued at whichever took them all."""
    monkeypatch.setenv("DEATHCLOCK_REDIS_URL", "redis://127.0.0.1:6379/0")
    url = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    options = _workers_env(monkeypatch, ["serve", "--workers", "2", "--database-url", url])
    assert options["workers"] == 2 and options["single_accept"] == "1"
    monkeypatch.setenv("DEATHCLOCK_DATABASE_URL", f"sqlite:///{tmp_path}/x.db")
    one = _workers_env(monkeypatch, ["serve"])
    assert one["workers"] == 1 and one["single_accept"] is None  # one worker: no one to share with
