"""A bare FastAPI app: one route, no database, no pages. Its cold start (process start to
its first HTTP answer) is the floor of the restart benchmark: what any FastAPI server run
by uvicorn costs to start on this machine, now.

Run: `python -m bench.bare_app --port 8002` (one uvicorn worker, as `deathclock serve`).
"""

from __future__ import annotations

import argparse

import uvicorn
from fastapi import FastAPI


def create_app() -> FastAPI:
    app = FastAPI()

    @app.get("/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.bare_app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002)
    args = parser.parse_args(argv)
    uvicorn.run(
        "bench.bare_app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
