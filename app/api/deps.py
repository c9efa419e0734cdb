"""Dependency aliases for the routers.

The dependencies are `async def`, though they only look something up: FastAPI runs a
plain `def` dependency on a worker thread, a thread hop for every request and socket
(felt when a whole hall of phones reconnects at once).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.settings import Settings
from app.tables.hub import TableHub


async def get_hub(conn: HTTPConnection) -> TableHub:
    hub: TableHub = conn.app.state.hub
    return hub


def get_settings(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


async def base_url(request: Request) -> str:
    settings = get_settings(request)
    return (settings.public_url or str(request.base_url)).rstrip("/") + "/"


HubDep = Annotated[TableHub, Depends(get_hub)]
BaseUrlDep = Annotated[str, Depends(base_url)]
