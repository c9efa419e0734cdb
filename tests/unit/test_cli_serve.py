"""`deathclock serve` runs uvicorn with the sockets the app expects: no protocol
keepalive pings (every socket has the app's own heartbeat: a socket silent for 10 s is
dropped, tests/integration/test_socket_guards.py), no per-message compression, and
messages of 64 KiB at the most; its socket protocol makes no log line per socket; it
serves the front (app.front), which answers while the app is imported behind it; and the
collector waits while the app is imported and started, and what the import made is frozen
out of it."""

from __future__ import annotations

import gc
import signal
import subprocess
import sys
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
        ran.append({"app": app, "collecting": gc.isenabled(), **kwargs})

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setenv("DEATHCLOCK_DATABASE_URL", f"sqlite:///{tmp_path}/x.db")
    stop = signal.getsignal(signal.SIGTERM)
    try:
        cli.main(["serve", "--port", "8123"])
        # a failed start ends the process with its own status (tests/integration/test_front_start)
        assert signal.getsignal(signal.SIGTERM) is cli._on_stop
    finally:
        signal.signal(signal.SIGTERM, stop)
        gc.enable()  # the served process leaves it to the app (app/collector.py); tests don't
    (options,) = ran
    assert options["app"] == "app.cli:front" and options["factory"] is True
    assert options["port"] == 8123 and options["workers"] == 1
    assert options["ws_ping_interval"] is None
    assert options["ws_per_message_deflate"] is False
    assert options["ws_max_size"] == 64 * 1024
    assert options["ws"] is ServerSockets
    assert options["http"] is ServerHttp  # an upgraded connection leaves no cycle behind
    assert options["collecting"] is False


def test_the_front_is_served_and_the_app_is_imported_behind_it() -> None:
    # The front answers while the app is imported (app.front): serving it imports none of
    # the app, its ORM or FastAPI; what the app's import made is frozen out of the collector.
    code = (
        "import gc, sys, app.cli\n"
        "assert isinstance(app.cli.front(), app.front.Front)\n"
        "print(sorted(m for m in ('app.main', 'sqlalchemy', 'sqlmodel', 'fastapi')"
        " if m in sys.modules))\n"
        "gc.disable()\n"
        "before = gc.get_freeze_count()\n"
        "made = app.cli.make_app()\n"
        "print(type(made).__name__, gc.get_freeze_count() - before > 10_000)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split("\n")[:2] == ["[]", "FastAPI True"], done.stdout
