"""`deathclock serve` as a subprocess: the front (app.front) answers while the app behind
it starts, the app then serves every request; and a server whose app cannot start (its
database refuses it) says so and stops, with a failed start's exit status."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.cli import STARTUP_FAILURE

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
WITHIN_S = 120.0  # a guard against a hang, not a speed test


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _serve(database_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "app.cli", "serve", "--host", HOST, "--port", str(port)]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [*argv, "--database-url", database_url],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _healths(proc: subprocess.Popen[bytes], port: int, until: int) -> list[int]:
    """Every health status seen, polling until one is `until` or the process ends."""
    seen: list[int] = []
    deadline = time.monotonic() + WITHIN_S
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            status = httpx.get(f"http://{HOST}:{port}/health", timeout=5).status_code
        except httpx.TransportError:
            time.sleep(0.01)
            continue
        if not seen or seen[-1] != status:
            seen.append(status)
        if status == until:
            break
        time.sleep(0.01)
    return seen


def test_the_server_answers_starting_then_serves_every_request(tmp_path: Path) -> None:
    port = _free_port()
    proc = _serve(f"sqlite:///{tmp_path}/front.db", port, tmp_path / "server.log")
    try:
        seen = _healths(proc, port, until=200)
        assert seen and seen[-1] == 200, (seen, (tmp_path / "server.log").read_text())
        assert set(seen) <= {503, 200}  # "starting" at most, never a refusal once it answers
        made = httpx.post(f"http://{HOST}:{port}/api/tables", json={}, timeout=30)
        assert made.status_code in (200, 201), made.text
        page = httpx.get(f"http://{HOST}:{port}/", timeout=30)
        assert page.status_code == 200 and "Deathclock" in page.text
    finally:
        proc.terminate()
        assert proc.wait(timeout=60) == -signal.SIGTERM  # a graceful stop, as before


def test_a_server_whose_database_refuses_it_stops_with_a_failed_start(tmp_path: Path) -> None:
    port, nothing_there = _free_port(), _free_port()
    refused = f"postgresql+psycopg://nobody@{HOST}:{nothing_there}/none"
    proc = _serve(refused, port, tmp_path / "server.log")
    try:
        seen = _healths(proc, port, until=200)
        status = proc.wait(timeout=WITHIN_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    log = (tmp_path / "server.log").read_text()
    assert 200 not in seen
    assert status == STARTUP_FAILURE, log
    assert "the server could not start" in log
