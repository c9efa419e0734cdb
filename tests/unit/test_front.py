"""The server's front (app.front): it answers while the app behind it is imported and
started, holds every other request and socket until then, and hands them to the app; an
app that cannot start stops the process, and nothing held waits for ever."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message
from starlette.websockets import WebSocket

from app.front import AppLifespan, Front


class Behind:
    """The app behind the front, made in the front's thread once `release` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.made = 0
        self.lifespan: list[str] = []

    def make(self) -> ASGIApp:
        self.release.wait(timeout=30)
        self.made += 1

        async def standings(_request: Request) -> PlainTextResponse:
            return PlainTextResponse(f"standings; lifespan {','.join(self.lifespan)}")

        async def health(_request: Request) -> JSONResponse:
            return JSONResponse({"status": "ok"})

        async def table(socket: WebSocket) -> None:
            await socket.accept()
            await socket.send_text("snapshot")
            await socket.close()

        @contextlib.asynccontextmanager
        async def lifespan(_app: Starlette) -> AsyncIterator[None]:
            self.lifespan.append("started")
            yield
            self.lifespan.append("stopped")

        routes = [
            Route("/standings", standings),
            Route("/health", health),
            WebSocketRoute("/ws/table", table),
        ]
        return Starlette(routes=routes, lifespan=lifespan)


async def _held_until_release(behind: Behind, waiting: asyncio.Task[Any]) -> None:
    """`waiting` does not finish while the app is not made (it cannot: the front holds
    it until then), then the app is let be made."""
    await asyncio.sleep(0)
    assert not waiting.done()
    behind.release.set()


async def test_the_front_answers_while_the_app_starts_and_holds_the_rest_for_it() -> None:
    behind = Behind()
    front = Front(behind.make, on_failure=lambda: None)
    server = AppLifespan(front)  # as uvicorn drives it
    await server.start()  # the front is up at once: the app is still being made
    transport = httpx.ASGITransport(app=front)
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as http:
        health = await http.get("/health")
        assert health.status_code == 503 and health.json() == {"status": "starting"}
        assert health.headers["cache-control"] == "no-store"
        page = asyncio.create_task(http.get("/standings"))
        await _held_until_release(behind, page)
        answer = await page
        # Held, not refused; served by the app once its lifespan had started.
        assert answer.status_code == 200 and answer.text == "standings; lifespan started"
        health = await http.get("/health")
        assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert behind.made == 1 and front.app is not None
    await server.stop()
    assert behind.lifespan == ["started", "stopped"]


async def test_a_socket_that_comes_while_the_app_starts_is_served_by_it() -> None:
    behind = Behind()
    front = Front(behind.make, on_failure=lambda: None)
    server = AppLifespan(front)
    await server.start()
    incoming: asyncio.Queue[Message] = asyncio.Queue()
    sent: list[Message] = []
    await incoming.put({"type": "websocket.connect"})

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] == "websocket.close":
            await incoming.put({"type": "websocket.disconnect", "code": 1000})

    scope = {
        "type": "websocket",
        "path": "/ws/table",
        "raw_path": b"/ws/table",
        "query_string": b"",
        "headers": [],
        "scheme": "ws",
        "server": ("hall", 80),
        "client": ("10.0.0.7", 5000),
        "root_path": "",
        "subprotocols": [],
        "asgi": {"version": "3.0"},
    }
    phone = asyncio.create_task(front(scope, incoming.get, send))
    await _held_until_release(behind, phone)
    await asyncio.wait_for(phone, 30)
    kinds = [m["type"] for m in sent]
    assert kinds == ["websocket.accept", "websocket.send", "websocket.close"]
    assert sent[1]["text"] == "snapshot"
    await server.stop()


async def test_an_app_that_cannot_start_stops_the_server_and_answers_trouble() -> None:
    failures: list[str] = []

    def broken() -> ASGIApp:
        raise ImportError("a module that breaks")

    front = Front(broken, on_failure=lambda: failures.append("stopped"))
    server = AppLifespan(front)
    await server.start()
    transport = httpx.ASGITransport(app=front)
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as http:
        page = await http.get("/standings")  # waits for the start, which fails
        assert page.status_code == 503 and page.json() == {"status": "server trouble"}
        health = await http.get("/health")
        assert health.status_code == 503 and health.json() == {"status": "server trouble"}
    assert failures == ["stopped"]
    await server.stop()  # and the front stops cleanly


async def test_an_app_whose_own_start_fails_is_not_served() -> None:
    @contextlib.asynccontextmanager
    async def refuses(_app: Starlette) -> AsyncIterator[None]:
        raise RuntimeError("the database refuses it")
        yield

    failures: list[str] = []
    front = Front(lambda: Starlette(lifespan=refuses), on_failure=lambda: failures.append("x"))
    server = AppLifespan(front)
    await server.start()
    transport = httpx.ASGITransport(app=front)
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as http:
        page = await http.get("/standings")
    assert page.status_code == 503 and failures == ["x"]
    assert front.app is None
    await server.stop()
