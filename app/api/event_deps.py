"""What every event route is given: the event service (its use cases), and the EO's
token from the `X-EO-Token` header."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from app.events.service import EventService


async def get_events(conn: HTTPConnection) -> EventService:
    service: EventService = conn.app.state.events
    return service


EventsDep = Annotated[EventService, Depends(get_events)]
EoToken = Annotated[str | None, Header(alias="X-EO-Token")]
