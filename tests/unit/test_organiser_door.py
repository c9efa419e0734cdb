"""The door to the organiser's side (app.organiser_door): when a start opens it, and what
waits behind it."""

from __future__ import annotations

import asyncio

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from app.organiser_door import LATEST_MS, QUIET_MS, OrganiserDoor, OrganiserGate, Settling


def test_the_sockets_of_a_start_are_in_once_none_opened_or_closed_for_a_while() -> None:
    settling = Settling(now_ms=0, churn=0)
    assert not settling.settled(QUIET_MS - 1, 0)
    assert settling.settled(QUIET_MS, 0)


def test_each_socket_that_comes_or_goes_puts_the_door_off() -> None:
    settling = Settling(now_ms=0, churn=0)
    assert not settling.settled(200, 40)  # phones coming back
    assert not settling.settled(200 + QUIET_MS - 1, 40)
    assert not settling.settled(450, 90)  # more of them
    assert settling.settled(450 + QUIET_MS, 90)


def test_a_steady_trickle_of_sockets_puts_the_door_off_only_so_long() -> None:
    settling = Settling(now_ms=0, churn=0)
    opened = [t for t in range(0, LATEST_MS + 100, 100) if settling.settled(t, t)]
    assert opened and opened[0] == LATEST_MS


def _app(door: OrganiserDoor) -> Starlette:
    async def page(_request: Request) -> PlainTextResponse:
        return PlainTextResponse("the standings")

    async def health(_request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    app = Starlette(routes=[Route("/standings", page), Route("/health", health)])
    app.state.organiser_door = door
    app.add_middleware(OrganiserGate)
    return app


async def test_the_health_answers_before_the_door_opens_and_a_page_opens_it() -> None:
    release = asyncio.Event()
    opened: list[str] = []

    async def open_side() -> None:
        await release.wait()
        opened.append("organiser")

    door = OrganiserDoor(open_side)
    transport = httpx.ASGITransport(app=_app(door))
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as http:
        assert (await http.get("/health")).text == "ok"
        assert not door.is_open and opened == []
        page = asyncio.create_task(http.get("/standings"))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not page.done()  # it waits behind the door, which it opened
        release.set()
        assert (await page).text == "the standings"
        assert door.is_open and opened == ["organiser"]
        assert (await http.get("/standings")).text == "the standings"
        assert opened == ["organiser"]  # opened once


async def test_a_side_that_cannot_open_is_a_server_error_and_the_next_request_tries_again() -> None:
    tries: list[int] = []

    async def open_side() -> None:
        tries.append(len(tries))
        if len(tries) == 1:
            raise ImportError("an import broke off")

    door = OrganiserDoor(open_side)
    transport = httpx.ASGITransport(app=_app(door), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as http:
        assert (await http.get("/standings")).status_code == 500  # not a missing page
        assert not door.is_open
        assert (await http.get("/health")).text == "ok"
        assert (await http.get("/standings")).text == "the standings"  # tried again
        assert door.is_open
        assert (await http.get("/standings")).text == "the standings"
    assert tries == [0, 1]  # tried again once, then open for good
