"""The server under test as a subprocess: its command line, its environment (a fresh
SQLite file, or a PostgreSQL schema of the run's own), its start, readiness and stop, and
its CPU and memory.

Everything talks to 127.0.0.1 only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]

from bench.harness.report import log

ROOT = Path(__file__).resolve().parent.parent.parent
HOST = "127.0.0.1"
SERVER_READY_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def raise_open_files_limit(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    if hard != resource.RLIM_INFINITY and hard < needed:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))
            return needed
        needed = hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return needed


_SLOW_COLLECTION = re.compile(rb"garbage collection \(generation (\d)\) took (\d+) ms")


class ServerProcess:
    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_path: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.ps: psutil.Process | None = None
        self._log_file: Any = None

    def start(self) -> None:
        self._log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.ps = psutil.Process(self.proc.pid)
        log(f"{self.name}: started pid {self.proc.pid}: {' '.join(self.argv)}")

    def log_size(self) -> int:
        """How far the server's log has come (an offset for `full_walks`)."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def full_walks(self, since: int) -> list[int]:
        """The collector's full walks the server logged after offset `since`, in ms (it logs
        those of 100 ms or more: app.collector); every tap in flight waited for each."""
        return self.slow_collections(since, full_only=True)

    def slow_collections(self, since: int, full_only: bool = False) -> list[int]:
        """Every collection of 100 ms or more the server logged after offset `since`, young
        or full (`full_only`: full walks), in ms: every tap in flight waited for each."""
        try:
            with self.log_path.open("rb") as f:
                f.seek(since)
                text = f.read()
        except OSError:
            return []
        found = ((m.group(1), int(m.group(2))) for m in _SLOW_COLLECTION.finditer(text))
        return [ms for generation, ms in found if not full_only or generation == b"2"]

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def wait_ready(self, port: int) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + SERVER_READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.proc.returncode}:\n{self.log_tail()}"
                )
            try:
                httpx.get(f"http://{HOST}:{port}/", timeout=1.0)
                log(f"{self.name}: answering on port {port}")
                return
            except httpx.TransportError:
                time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer within {SERVER_READY_TIMEOUT_S:.0f} s")

    def _processes(self) -> list[psutil.Process]:
        assert self.ps is not None
        procs = [self.ps]
        with contextlib.suppress(psutil.Error):
            procs += self.ps.children(recursive=True)
        return procs

    def cpu_seconds(self) -> float:
        total = 0.0
        for p in self._processes():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def rss_mb(self) -> float:
        total = 0
        for p in self._processes():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total / (1024 * 1024)

    def stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            # A --server-prefix wrapper may not pass the signal on: its children go too.
            children: list[psutil.Process] = []
            with contextlib.suppress(psutil.Error):
                children = psutil.Process(proc.pid).children(recursive=True)
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5)
            for child in children:
                with contextlib.suppress(psutil.Error):
                    child.terminate()
            _gone, alive = psutil.wait_procs(children, timeout=10)
            for child in alive:
                with contextlib.suppress(psutil.Error):
                    child.kill()
            log(f"{self.name}: stopped (exit {proc.returncode})")
        if proc is not None:
            # Anything of its session still running (a worker its parent did not wait for).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


def server_argv(port: int) -> list[str]:
    """The real server, as `deathclock serve` starts it (one uvicorn worker)."""
    return [sys.executable, "-m", "app.cli", "serve", "--host", HOST, "--port", str(port)]


def profiled(argv: list[str], path: str) -> list[str]:
    """A `python -m MODULE ...` command line run under cProfile, its stats written to
    `path` when it stops (bench/harness/profiled.py)."""
    assert argv[1] == "-m", "a module's command line"
    return [argv[0], "-m", "bench.harness.profiled", path, *argv[2:]]


def compile_app() -> None:
    """Compile the app's modules, as the Dockerfile does: with PYTHONDONTWRITEBYTECODE
    set, a server started from the source tree would otherwise compile every module
    again at each start, and a restart would measure the compiler."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "app"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[tuple[str, str]]:
    """A schema of this run's own on the PostgreSQL at `url` (dropped afterwards): the URL
    that uses it, and its name."""
    import psycopg

    schema = f"bench_{secrets.token_hex(4)}"
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}", schema
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextlib.contextmanager
def bench_run(
    open_files: int, db_dir: str | None, prefix: str = "deathclock-bench-"
) -> Iterator[tuple[Path, dict[str, str]]]:
    """Raise the open-files limit, stop cleanly on SIGTERM, and give a temporary folder
    with the server's environment: a fresh SQLite file there, unbuffered output."""
    limit = raise_open_files_limit(open_files)
    log(f"open-files limit {limit}; {os.cpu_count()} cores shared by client and server")

    def on_term(_signum: int, _frame: Any) -> None:
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, on_term)
    compile_app()
    with tempfile.TemporaryDirectory(prefix=prefix, dir=db_dir) as tmpdir:
        tmp = Path(tmpdir)
        env = dict(os.environ)
        env["DEATHCLOCK_DATABASE_URL"] = f"sqlite:///{tmp / 'bench.db'}"
        env.pop("DEATHCLOCK_PUBLIC_URL", None)
        env["PYTHONUNBUFFERED"] = "1"
        # Every client of a benchmark is 127.0.0.1: lift the per-address budget for new
        # tables and sockets (the server's guard for a venue's phones, not for a load test).
        env.setdefault("DEATHCLOCK_CLIENT_PER_S", "1e9")
        env.setdefault("DEATHCLOCK_CLIENT_BURST", "1e9")
        yield tmp, env


def bare_relay_argv(port: int) -> list[str]:
    """The floor: bench/bare_relay.py, which relays taps with no rules and no storage."""
    return [sys.executable, "-m", "bench.bare_relay", "--host", HOST, "--port", str(port)]


def relay_cluster_args(workers: int) -> list[str]:
    """The relay's options to run as `workers` workers with Redis between them (the
    floor of `deathclock serve --workers N`; DEATHCLOCK_TEST_REDIS_URL); none for one."""
    if workers <= 1:
        return []
    return ["--workers", str(workers), "--redis", os.environ["DEATHCLOCK_TEST_REDIS_URL"]]


def server_command(args: argparse.Namespace, port: int, *extra: str) -> list[str]:
    """The server's command line, under --server-prefix when given."""
    prefix = shlex.split(args.server_prefix) if args.server_prefix else []
    return [*prefix, *server_argv(port), *extra]


@contextlib.contextmanager
def serving(servers: list[tuple[ServerProcess, int]]) -> Iterator[None]:
    """Each server started and answering on its port, in turn; on an error, each one's log
    tail; every one stopped afterwards, the last first (also one added to the list
    meanwhile, as a restart adds the new process)."""
    try:
        for server, port in servers:
            server.start()
            server.wait_ready(port)
        yield
    except BaseException:
        for server, _port in servers:
            tail = server.log_tail(10)
            if tail:
                log(f"{server.name} log tail:\n{tail}")
        raise
    finally:
        for server, _port in reversed(servers):
            server.stop()


class Cluster:
    """Workers of one cluster, as a measured window sees one server: CPU and RSS summed."""

    def __init__(self, *workers: ServerProcess) -> None:
        self.workers = workers

    def cpu_seconds(self) -> float:
        return sum(w.cpu_seconds() for w in self.workers)

    def rss_mb(self) -> float:
        return sum(w.rss_mb() for w in self.workers)


@contextlib.contextmanager
def cluster_env(env: dict[str, str], workers: int) -> Iterator[dict[str, str]]:
    """The server's environment: as it is for one worker; for several, a PostgreSQL
    schema (dropped afterwards) and a Redis prefix of this run's own."""
    if workers <= 1:
        yield env
        return
    postgres = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL", "")
    redis = os.environ.get("DEATHCLOCK_TEST_REDIS_URL", "")
    if not postgres or not redis:
        raise SystemExit("--workers needs DEATHCLOCK_TEST_POSTGRES_URL and _REDIS_URL set")
    with postgres_schema(postgres) as (url, schema):
        yield {
            **env,
            "DEATHCLOCK_DATABASE_URL": url,
            "DEATHCLOCK_REDIS_URL": redis,
            "DEATHCLOCK_REDIS_PREFIX": f"bench-{schema}",
        }
