"""What the several-workers tests share: a PostgreSQL schema and a Redis prefix of their
own per test, worker subprocesses, and a Redis server the test can stop and start."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
POSTGRES_URL = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL", "")
REDIS_URL = os.environ.get("DEATHCLOCK_TEST_REDIS_URL", "")
READY_TIMEOUT_S = 120.0  # a guard against a hang, not a speed test: a busy machine starts slowly


def need_services() -> None:
    if not POSTGRES_URL:
        pytest.skip("DEATHCLOCK_TEST_POSTGRES_URL is not set (several workers need PostgreSQL)")
    if not REDIS_URL:
        pytest.skip("DEATHCLOCK_TEST_REDIS_URL is not set (several workers need Redis)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


async def poll(check: Callable[[], Any], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.1f} s waiting for {what}")
        await asyncio.sleep(0.02)


@contextlib.contextmanager
def pg_schema() -> Any:
    """A schema of its own on the test PostgreSQL: the URL that uses it."""
    import psycopg

    name = f"dc_{secrets.token_hex(6)}"
    plain = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{sep}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


@contextlib.contextmanager
def pg_store() -> Any:
    """A store on a schema of its own on the test PostgreSQL (skips without it)."""
    from app.store.repository import Store

    need_services()
    with pg_schema() as url:
        store = Store(url)
        try:
            yield store
        finally:
            store.close()


def relaxed_env() -> dict[str, str]:
    return {"DEATHCLOCK_CLIENT_PER_S": "1000000", "DEATHCLOCK_CLIENT_BURST": "1000000"}


class Worker:
    """`python -m app.cli serve` as one worker of several, on the wall clock."""

    def __init__(
        self, env: dict[str, str], port: int, log_path: Path, extra: tuple[str, ...] = ()
    ) -> None:
        self.env = env
        self.extra = extra
        self.port = port
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: BinaryIO | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://{HOST}:{self.port}"

    def log_tail(self, lines: int = 40) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEATHCLOCK_")}
        env.update(self.env, PYTHONUNBUFFERED="1")
        self._log = self.log_path.open("ab")
        argv = [sys.executable, "-m", "app.cli", "serve", "--host", HOST, "--port", str(self.port)]
        argv += self.extra
        self.proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + READY_TIMEOUT_S
        async with httpx.AsyncClient(base_url=self.base, timeout=2.0) as http:
            while True:
                if self.proc.poll() is not None:
                    raise AssertionError(f"worker exited:\n{self.log_tail()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/health")).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise AssertionError(f"worker not ready in time:\n{self.log_tail()}")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs; its lease simply stops being renewed."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    async def stop(self) -> None:
        """SIGTERM: a clean stop (its tables go to the others at once)."""
        assert self.proc is not None
        proc = self.proc
        proc.send_signal(signal.SIGTERM)

        async def gone() -> bool:
            return proc.poll() is not None

        await poll(gone, "the worker to stop", 15)

    def cleanup(self) -> None:
        if self.proc is not None:
            # The whole session: `serve --workers N` has children that outlive their parent.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None


class RedisServer:
    """A redis-server of the test's own, on a port of its own: stopped and started at will."""

    def __init__(self, port: int, *args: str) -> None:
        self.port = port
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    async def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (the test stops and starts one of its own)")
        self.proc = subprocess.Popen(
            [
                *(binary, "--port", str(self.port), "--bind", HOST),
                *("--save", "", "--appendonly", "no", *self.args),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

        async def up() -> bool:
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.2):
                return True
            return False

        await poll(up, "redis-server to listen", 10)

    def freeze(self, frozen: bool = True) -> None:
        """Stop it answering without closing a connection (a hung server), or go on."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


@contextlib.asynccontextmanager
async def workers(tmp_path: Path, database_url: str, redis_url: str) -> AsyncIterator[Any]:
    """Make workers sharing one database and one Redis prefix; all gone afterwards."""
    made: list[Worker] = []
    prefix = f"dctest-{secrets.token_hex(4)}"

    def make(port: int | None = None, *extra: str) -> Worker:
        env = {
            "DEATHCLOCK_DATABASE_URL": database_url,
            "DEATHCLOCK_REDIS_URL": redis_url,
            "DEATHCLOCK_REDIS_PREFIX": prefix,
            **relaxed_env(),
        }
        log_path = tmp_path / f"worker-{len(made)}.log"
        worker = Worker(env, port or free_port(), log_path, extra)
        made.append(worker)
        return worker

    try:
        yield make
    finally:
        for worker in made:
            worker.cleanup()


@contextlib.asynccontextmanager
async def two_workers_in_loop() -> AsyncIterator[tuple[Any, Any]]:
    """Two workers in the test's loop on one schema and one Redis prefix, with one fake
    game clock (tests.conftest's RunningServer each)."""
    from app.tables.timesource import FakeTime
    from tests.conftest import start_server

    need_services()
    with pg_schema() as url:
        time_ = FakeTime()
        extra = {"redis_url": REDIS_URL, "redis_prefix": f"dctest-{secrets.token_hex(4)}"}
        a = await start_server(url, time_, **extra)
        b = await start_server(url, time_, **extra)
        try:
            yield a, b
        finally:
            for server in (b, a):
                with contextlib.suppress(Exception):
                    await server.stop()


def cluster_of(server: Any) -> Any:
    """The cluster of a worker running in the test's loop."""
    return server.server.config.app.state.cluster


async def owned_by(server: Any, table_id: str) -> None:
    """Make a worker in the test's loop own a table before any command reaches it (a new
    table is taken by the worker that gets its first command)."""
    cluster = cluster_of(server)
    room = cluster.hub.get(table_id)
    assert await cluster._owner(room) == cluster.worker_id
