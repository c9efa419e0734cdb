"""The EO's players of an event: registering, correcting, dropping (RP7) and importing
them (CSV). Every call needs the EO token (X-EO-Token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.domain.army_lists import HELP as LISTS_HELP
from app.domain.errors import BadInput

#: Under app.api.events' router, whose prefix is /api/events.
router = APIRouter(route_class=StrictJsonRoute)


class PlayerIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=60)
    faction: str = Field("", max_length=60)
    lists: str = Field("", max_length=8000, description=LISTS_HELP)
    list_note: str = Field("", max_length=300, description="the EO lets refused lists stand")
    painted: bool | None = Field(
        None,
        description="the army meets the event's Painting Required standard "
        "(omitted: as before; a new player: no)",
    )
    club: str | None = Field(
        None,
        max_length=60,
        description="club, team or travel group, kept apart in round 1 where the "
        "pairings allow it (omitted: as before; a new player: none)",
    )
    reason: str = Field(
        "",
        max_length=300,
        description="once the event starts the lists are locked: the EO's reason for "
        "fixing them (kept in the EO's log)",
    )


class ListsPublicIn(BaseModel):
    public: bool = Field(
        ..., description="the lists on the event's public page (once round 1 starts)"
    )


class DropIn(BaseModel):
    dropped: bool = True


@router.post("/{event_id}/players", status_code=201)
async def add_player(
    event_id: str, body: PlayerIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    service.authorize(event_id, token)
    player = service.registration.add_player(
        event_id,
        body.name,
        body.faction,
        body.lists,
        body.list_note,
        bool(body.painted),
        body.club or "",
    )
    return player.model_dump()


@router.put("/{event_id}/players/{player_id}")
async def edit_player(
    event_id: str, player_id: str, body: PlayerIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    service.authorize(event_id, token)
    return service.registration.edit_player(
        event_id,
        player_id,
        body.name,
        body.faction,
        body.lists,
        body.list_note,
        body.painted,
        body.reason,
        body.club,
    ).model_dump()


@router.get("/{event_id}/lists")
async def lists_to_print(
    event_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """Every player's lists in full, one sheet a player (the EO's print)."""
    service.authorize(event_id, token)
    return service.lists.sheets(event_id)


@router.put("/{event_id}/lists/public")
async def set_lists_public(
    event_id: str, body: ListsPublicIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """The lists on the event's public page, once round 1 starts; undoable."""
    service.authorize(event_id, token)
    return {"public": service.lists.set_public(event_id, body.public)}


@router.get("/{event_id}/lists/public")
async def public_lists(event_id: str, service: EventsDep) -> dict[str, Any]:
    """Every player's lists, once the EO made them public (else none)."""
    return service.lists.shown(event_id)


@router.post("/{event_id}/players/{player_id}/drop")
async def drop_player(
    event_id: str, player_id: str, body: DropIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """RP7: drop (or rejoin) a player."""
    service.authorize(event_id, token)
    return service.registration.drop_player(event_id, player_id, body.dropped).model_dump()


@router.post("/{event_id}/players/import")
async def import_players(
    event_id: str, request: Request, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """CSV body with a header row: name, faction, lists, painted (yes/no), club."""
    service.authorize(event_id, token)
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("the CSV must be UTF-8 text") from None
    added, errors = service.registration.import_players(event_id, text)
    return {"added": [p.model_dump() for p in added], "errors": errors}
