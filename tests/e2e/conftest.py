"""Browser tests: the real server in a thread, Debian's chromium through Playwright."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app.cli import socket_options
from app.main import create_app
from app.settings import Settings
from tests.e2e.servertime import MovableTime

#: How long a browser test waits for a page to reach a state. A page waits on the server,
#: and the server on a machine that may be busy with other work: a state is waited for,
#: never assumed to come within a short time (a run must pass on a loaded machine too).
PAGE_STATE_TIMEOUT_MS = 20_000

CHROMIUM = os.environ.get("DEATHCLOCK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server_time() -> MovableTime:
    return MovableTime()


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, server_time: MovableTime
) -> Iterator[str]:
    db = tmp_path_factory.mktemp("e2e") / "deathclock.db"
    app = create_app(Settings(database_url=f"sqlite:///{db}"), time=server_time)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            lifespan="on",
            **socket_options(),  # the sockets as `deathclock serve` runs them
        )
    )
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    started = threading.Event()
    for _ in range(500):
        if server.started:
            started.set()
            break
        threading.Event().wait(0.01)
    assert started.is_set(), "server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"Debian chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    playwright_api.expect.set_options(timeout=PAGE_STATE_TIMEOUT_MS)
    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
