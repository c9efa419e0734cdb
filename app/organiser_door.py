"""The door to the organiser's side (app.organiser), opened after a start once the phones
that came back with it are in, or at the first request that needs it, if sooner.

When a server starts again, every phone of the hall comes back within a second, and each
wants only its table. The organiser's side is most of what the server imports; imported
before the server answers, it kept every phone waiting a quarter of a second more. So the
server answers with the tables' sockets and its health, and opens the door once no socket
has opened or closed for `QUIET_MS` (at most `LATEST_MS` after it answered). A request for
a page or the REST API before that opens the door at once and waits behind it (a few
tenths of a second, once): nothing is refused meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

QUIET_MS = 300  # no socket opened or closed for so long: the phones are in
LATEST_MS = 3_000  # after the start, the door opens whatever the sockets do
TICK_S = 0.05
#: What is served before the door opens: the tables' sockets are served before this gate
#: (app.api.ws.TableSockets), and these need nothing of the organiser's side.
HEALTH = "/health"
STATIC = "/static/"


class Settling:
    """Whether the phones that came back with a start are in (pure: time and counts in)."""

    def __init__(self, now_ms: int, churn: int) -> None:
        self.started_ms = self.changed_ms = now_ms
        self.churn = churn

    def settled(self, now_ms: int, churn: int) -> bool:
        """`churn`: the sockets opened plus closed so far (app.api.limits.Heartbeats)."""
        if churn != self.churn:
            self.churn, self.changed_ms = churn, now_ms
        return now_ms - self.changed_ms >= QUIET_MS or now_ms - self.started_ms >= LATEST_MS


class OrganiserDoor:
    """Opens the organiser's side once, with `open_side`; whoever needs it waits for it."""

    def __init__(self, open_side: Callable[[], Awaitable[None]]) -> None:
        self._open_side = open_side
        self._opening: asyncio.Task[None] | None = None
        self._made = time.perf_counter()

    @property
    def is_open(self) -> bool:
        opening = self._opening
        return (
            opening is not None
            and opening.done()
            and not opening.cancelled()
            and opening.exception() is None
        )

    def open(self) -> asyncio.Task[None]:
        """The opening, begun now unless it is under way or done; one that failed (an
        import that broke off) is tried again, so one bad moment is not every page's."""
        opening = self._opening
        if opening is None or (
            opening.done() and (opening.cancelled() or opening.exception() is not None)
        ):
            self._opening = opening = asyncio.create_task(self._open())
        return opening

    async def _open(self) -> None:
        started = time.perf_counter()
        try:
            await self._open_side()
        except Exception:
            log.exception("the organiser's side did not open")
            raise
        log.info(
            "the organiser's side opened %.2f s after the start, in %.2f s",
            time.perf_counter() - self._made,
            time.perf_counter() - started,
        )

    async def opened(self) -> None:
        """Wait until the side is open (opening it now if it is not yet)."""
        await asyncio.shield(self.open())

    async def open_when_settled(self, now_ms: Callable[[], int], churn: Callable[[], int]) -> None:
        """Open the door once the sockets of a start have settled (`Settling`)."""
        settling = Settling(now_ms(), churn())
        while self._opening is None and not settling.settled(now_ms(), churn()):
            await asyncio.sleep(TICK_S)
        with contextlib.suppress(Exception):  # logged; a request that needs it sees it
            await self.opened()

    def close(self) -> None:
        if self._opening is not None and not self._opening.done():
            self._opening.cancel()


class OrganiserGate:
    """ASGI middleware: every request but the health's and the static files' waits behind
    the door (and fails, as a server error, if the side could not open)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        waits = path != HEALTH and not path.startswith(STATIC)
        if scope["type"] in ("http", "websocket") and waits:
            door: OrganiserDoor | None = getattr(scope["app"].state, "organiser_door", None)
            if door is not None and not door.is_open:
                await door.opened()
        await self.app(scope, receive, send)
