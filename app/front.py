"""The server's front: it answers as soon as the process listens, while the app behind it
(app.main) is imported and started, and holds every other request and socket until then.

Most of a start is the import (the store's ORM, the rules, the routes: about two thirds of
a second). Before the front, the process did not listen meanwhile, and every phone that came
back with a restart was refused and backed off (the page waits half a second, then one,
then two): a phone could be served seconds after the server was ready. Now the port takes
connections at once: `/health` answers 503 "starting" until the app is up (a load balancer
sends nothing to a worker that is starting), and every other request, and every socket, waits
for the app and is then served by it as if it had just come. Nothing is refused meanwhile.

The app's own lifespan runs behind the front's: started once the app is made, stopped when
the server stops. An app that cannot start (an import that breaks, a database that refuses
it) is logged, every request held or new gets 503 "server trouble", and `on_failure` stops
the process (by default, as a SIGTERM would: uvicorn's graceful stop; `deathclock serve` then
exits with a failed start's status, app.cli).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

HEALTH = "/health"
#: Set when this process's app could not start (`start_failed`).
_FAILED = threading.Event()


def stop_this_process() -> None:
    """The default when the app cannot start: uvicorn's graceful stop, as a SIGTERM, and
    `start_failed()` true from then on (the command's exit status says so)."""
    _FAILED.set()
    os.kill(os.getpid(), signal.SIGTERM)


def start_failed() -> bool:
    """Whether this process stopped because its app could not start."""
    return _FAILED.is_set()


class AppLifespan:
    """An ASGI app's lifespan, driven from outside: `start()` until its startup completes
    (raising if it fails), `stop()` until its shutdown completes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._to_app: asyncio.Queue[Message] = asyncio.Queue()
        self._from_app: asyncio.Queue[Message] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        asgi = {"version": "3.0", "spec_version": "2.0"}
        scope: Scope = {"type": "lifespan", "asgi": asgi, "state": {}}
        try:
            await self.app(scope, self._to_app.get, self._from_app.put)
        except Exception as error:  # an app with no lifespan support raises at once
            await self._from_app.put({"type": "lifespan.failed", "message": repr(error)})

    async def _step(self, kind: str) -> None:
        await self._to_app.put({"type": f"lifespan.{kind}"})
        answer = await self._from_app.get()
        if answer["type"] != f"lifespan.{kind}.complete":
            raise RuntimeError(f"the app's {kind} failed: {answer.get('message', '')}")

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await self._step("startup")

    async def stop(self) -> None:
        if self._task is None or self._task.done():
            return
        await self._step("shutdown")
        await self._task


class Front:
    """ASGI app: the front of `make_app()`'s app, which it makes in a thread of its own (the
    import is most of it) once the server starts."""

    def __init__(
        self,
        make_app: Callable[[], ASGIApp],
        on_failure: Callable[[], None] = stop_this_process,
    ) -> None:
        self._make_app = make_app
        self._on_failure = on_failure
        self._app: ASGIApp | None = None
        self._opening: asyncio.Task[ASGIApp] | None = None
        self._lifespan: AppLifespan | None = None

    @property
    def app(self) -> ASGIApp | None:
        """The app behind the front, once it is started."""
        return self._app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan_of_the_front(receive, send)
            return
        app = self._app
        if app is None:
            app = await self._held(scope, send)
            if app is None:
                return
        await app(scope, receive, send)

    async def _held(self, scope: Scope, send: Send) -> ASGIApp | None:
        """The app once it is up; None when this request was answered here instead."""
        opening = self._opening
        starting = opening is None or not opening.done()
        if starting and scope["type"] == "http" and scope.get("path") == HEALTH:
            await _answer(scope, send, 503, {"status": "starting"})
            return None
        try:
            if opening is None:
                raise RuntimeError("the server is not started")
            return await asyncio.shield(opening)
        except Exception:
            await _answer(scope, send, 503, {"status": "server trouble"})
            return None

    async def _open(self) -> ASGIApp:
        started = time.perf_counter()
        try:
            app = await asyncio.to_thread(self._make_app)
            lifespan = AppLifespan(app)
            await lifespan.start()
        except Exception:
            log.exception("the server could not start")
            self._on_failure()
            raise
        self._lifespan = lifespan
        self._app = app
        log.info("the server is up, %.2f s after it answered", time.perf_counter() - started)
        return app

    async def _lifespan_of_the_front(self, receive: Receive, send: Send) -> None:
        message = await receive()
        assert message["type"] == "lifespan.startup"
        self._opening = asyncio.create_task(self._open())
        await send({"type": "lifespan.startup.complete"})
        message = await receive()
        assert message["type"] == "lifespan.shutdown"
        if not self._opening.done():  # stopped while starting: the start is let finish
            with contextlib.suppress(Exception):
                await asyncio.shield(self._opening)
        if self._lifespan is not None:
            with contextlib.suppress(Exception):
                await self._lifespan.stop()
        await send({"type": "lifespan.shutdown.complete"})


async def _answer(scope: Scope, send: Send, status: int, body: dict[str, Any]) -> None:
    """A small JSON answer from the front itself; a socket is refused (closed before it
    is accepted: the page tries again)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1013})  # try again later
        return
    payload = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
