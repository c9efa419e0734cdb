"""`deathclock serve`: run the server (SQLite file by default)."""

from __future__ import annotations

import argparse
import os

import uvicorn

from app.settings import Settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="deathclock")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    defaults = Settings.from_env()
    serve.add_argument("--host", default=defaults.host)
    serve.add_argument("--port", type=int, default=defaults.port)
    serve.add_argument("--database-url", default=defaults.database_url)
    args = parser.parse_args(argv)
    if args.command == "serve":
        os.environ["DEATHCLOCK_DATABASE_URL"] = args.database_url
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=args.host,
            port=args.port,
            ws_max_size=64 * 1024,
            log_level="info",
        )


if __name__ == "__main__":
    main()
