"""`deathclock serve`: run the server (SQLite file by default)."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib
import os
import signal
import sys
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from app.front import Front, start_failed
from app.settings import Settings
from app.sockets import ServerHttp, ServerSockets

#: The protocol's keepalive pings, none: every socket of the app has a heartbeat of its
#: own (the pages ping every 4 s; a socket silent for `heartbeat_ms` is dropped, see
#: app.api.limits), so they would only add a message and two timers per socket every 20 s
#: (at 10,000 phones, as many messages as half of all taps).
WS_PING_INTERVAL: float | None = None
#: The exit status of a server whose app could not start (uvicorn's own for a failed start).
STARTUP_FAILURE = 3


def socket_options() -> dict[str, Any]:
    """How the server runs its sockets (uvicorn's options): the browser tests' server
    runs them the same way."""
    return {
        "http": ServerHttp,
        "ws": ServerSockets,
        "ws_max_size": 64 * 1024,
        "ws_per_message_deflate": False,
        "ws_ping_interval": WS_PING_INTERVAL,
    }


def _on_stop(signum: int, _frame: Any) -> None:
    """A SIGTERM once uvicorn has stopped (it raises the signal it stopped for again): the
    process ends by it, or with STARTUP_FAILURE when the app behind the front never
    started (app.front stops the server so)."""
    if start_failed():
        sys.exit(STARTUP_FAILURE)
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)


def make_app() -> ASGIApp:
    """The app (app.main), imported and made behind the front, in a thread of its own."""
    module = importlib.import_module("app.main")
    gc.freeze()  # what the import made lives as long as the server
    app: ASGIApp = module.create_app()
    return app


def front() -> Front:
    """What uvicorn serves: the front (app.front), which answers while the app behind it
    is imported and started."""
    return Front(make_app)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="deathclock")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    defaults = Settings.from_env()
    serve.add_argument("--host", default=defaults.host)
    serve.add_argument("--port", type=int, default=defaults.port)
    serve.add_argument("--database-url", default=defaults.database_url)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes (more than one needs PostgreSQL and DEATHCLOCK_REDIS_URL)",
    )
    demo = sub.add_parser("demo", help="fill the database with a running demo event")
    demo.add_argument("--database-url", default=defaults.database_url)
    demo.add_argument("--base-url", default=f"http://{defaults.host}:{defaults.port}")
    demo.add_argument("--serve", action="store_true", help="start the server afterwards")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from app.demo import run_demo

        run_demo(args.database_url, args.base_url)
        if not args.serve:
            return
        args.host, args.port = defaults.host, defaults.port
    workers = getattr(args, "workers", 1)
    if workers < 1:
        parser.error("--workers must be 1 or more")
    if workers > 1:
        problem = dataclasses.replace(defaults, database_url=args.database_url).cluster_problem()
        if problem is not None:
            parser.exit(2, f"deathclock: cannot run {workers} workers: {problem}\n")
    if args.command in ("serve", "demo"):
        os.environ["DEATHCLOCK_DATABASE_URL"] = args.database_url
        # The import and the start build only what lives as long as the server: no
        # collection meanwhile, and what the import made is frozen out of the collector
        # at once (make_app). Once the tables are read, the lifespan collects once and
        # freezes them too, and the server paces the collector from then on
        # (app/collector.py). (Several workers: each is a process of its own.)
        gc.disable()
        signal.signal(signal.SIGTERM, _on_stop)
        uvicorn.run(
            "app.cli:front",
            factory=True,
            host=args.host,
            port=args.port,
            **socket_options(),
            log_level="info",
            workers=workers,
        )


if __name__ == "__main__":
    main()
