"""A player's own page and the EO's player links (QR codes on the registration slips).

The player's token travels in the link's #k= part and the X-Player-Token header, never in
a URL the server sees, and never in the public API."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from app.api.deps import BaseUrlDep
from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.api.page_templates import WEB, templates
from app.api.rest import qr_svg
from app.domain.army_lists import HELP as LISTS_HELP

router = APIRouter(prefix="/api/events", route_class=StrictJsonRoute)
pages = APIRouter()

PlayerToken = Annotated[str | None, Header(alias="X-Player-Token")]


class ListsIn(BaseModel):
    lists: str = Field("", max_length=8000, description=LISTS_HELP)
    painted: bool = Field(False, description="my army meets the event's Painting Required standard")


def _link(base: str, event_id: str, token: str) -> str:
    return f"{base}p/{event_id}#k={token}"


@router.get("/{event_id}/player-links")
async def player_links(
    event_id: str, service: EventsDep, base: BaseUrlDep, token: EoToken = None
) -> list[dict[str, Any]]:
    """EO: each player's own link and its QR code, for the registration slips."""
    service.authorize(event_id, token)
    policy = service.tournaments.of_event(event_id)
    if policy is not None:  # players registered by the format's own policy (Runewars)
        own = policy.player_links(event_id, base)
        codes = await run_in_threadpool(lambda: [qr_svg(row["url"]) for row in own])
        return [{**row, "qr_svg": code} for row, code in zip(own, codes, strict=True)]
    service.book.require(event_id, "player_pages")
    rows = [
        (p, _link(base, event_id, service.player_pages.link(event_id, p.id)))
        for p in service.book.players(event_id)
    ]
    codes = await run_in_threadpool(lambda: [qr_svg(url) for _, url in rows])
    return [
        {"id": p.id, "name": p.name, "faction": p.faction, "url": url, "qr_svg": code}
        for (p, url), code in zip(rows, codes, strict=True)
    ]


@router.get("/{event_id}/me")
async def me(
    event_id: str, service: EventsDep, base: BaseUrlDep, token: PlayerToken = None
) -> dict[str, Any]:
    """The player's own page: my table and opponent, my seat link, my lists."""
    policy = service.tournaments.of_event(event_id)
    if policy is not None:
        return policy.me(event_id, token, base)
    pages = service.player_pages
    return pages.page(event_id, pages.player_by_token(event_id, token), base)


@router.put("/{event_id}/me/lists")
async def my_lists(
    event_id: str,
    body: ListsIn,
    service: EventsDep,
    base: BaseUrlDep,
    token: PlayerToken = None,
) -> dict[str, Any]:
    """The player writes their lists before the event starts (locked once it starts)."""
    service.book.require(event_id, "lists")
    pages = service.player_pages
    player = pages.player_by_token(event_id, token)
    pages.set_lists(event_id, player, body.lists, body.painted)
    return pages.page(event_id, player, base)


@pages.get("/p/{event_id}", response_class=HTMLResponse)
async def player_page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
    event = service.book.event(event_id)
    page = "player.html" if service.tournaments.of_event(event_id) is None else "rw_player.html"
    return templates.TemplateResponse(
        request, page, {"event_id": event.id, "event_name": event.name}
    )


@pages.get("/p/{event_id}/manifest.webmanifest")
async def player_manifest(event_id: str, service: EventsDep) -> Response:
    """The player page installed on a phone's home screen opens that page (the key
    stays on the phone), named after the event."""
    event = service.book.event(event_id)
    manifest = {
        **json.loads((WEB / "static" / "manifest.webmanifest").read_text(encoding="utf-8")),
        "id": f"/p/{event.id}",
        "name": f"{event.name} · Deathclock",
        "short_name": event.name[:12] or "Deathclock",
        "start_url": f"/p/{event.id}",
    }
    return Response(json.dumps(manifest), media_type="application/manifest+json")


@pages.get("/e/{event_id}/slips", response_class=HTMLResponse)
async def slips_page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
    """EO: printable registration slips, each with the player's own link as a QR code."""
    event = service.book.event(event_id)
    return templates.TemplateResponse(
        request, "slips.html", {"event_id": event.id, "event_name": event.name}
    )
