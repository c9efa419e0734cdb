"""REST for an event run by its format's own tournament policy (Runewars 2017: army
values, RP6 pairing and cut, ST5 standings), under `/api/events/{id}/tournament`.

Reading is public; every change needs the EO token in the `X-EO-Token` header.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.api.event_deps import EoToken, EventsDep
from app.api.exports import csv_response
from app.api.hardening import StrictJsonRoute
from app.domain.errors import NotFound, Unauthorized
from app.domain.penalties import REASON_LENGTH
from app.events.service import EventService
from app.events.tournaments import Policy

router = APIRouter(prefix="/api/events/{event_id}/tournament", route_class=StrictJsonRoute)


class EntrantIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=60)
    army_value: int | None = Field(
        None, ge=0, le=10_000, description="the army's value (200 at most); with a list, its total"
    )
    army_list: str = Field(
        "",
        max_length=4000,
        description="the army list, a card a line: 'name, faction, points' (', unique'), "
        "'Terrain: name, capacity'; needed where the event asks for lists",
    )


class ExtensionIn(BaseModel):
    minutes: int = Field(..., ge=1, le=30, description="minutes more on this table's timer")
    reason: str = Field(..., max_length=300, description="why, as the players read it")


class DisqualifyIn(BaseModel):
    reason: str = Field(
        ..., max_length=REASON_LENGTH, description="why: kept in the organiser's log"
    )


def _policy(service: EventService, event_id: str) -> Policy:
    policy = service.tournaments.of_event(event_id)
    if policy is None:
        raise NotFound("this event runs on the usual rounds: use /api/events/{id}")
    return policy


def _is_eo(service: EventService, event_id: str, token: str | None) -> bool:
    try:
        service.authorize(event_id, token)
    except Unauthorized:
        return False
    return True


def _eo(service: EventService, event_id: str, token: str | None) -> Policy:
    service.authorize(event_id, token)
    return _policy(service, event_id)


@router.get("")
async def view(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """Public: players with army values, rounds with cards and pairings (a round's once
    it has started; with the EO token, also before), standings."""
    policy = _policy(service, event_id)
    return policy.view(event_id, admin=_is_eo(service, event_id, token))


@router.post("/players", status_code=201)
async def register(
    event_id: str, body: EntrantIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    policy = _eo(service, event_id, token)
    player_id = policy.register(event_id, body.name, body.army_value, body.army_list)
    value = policy.live(event_id).state.player(player_id).army_value
    return {"id": player_id, "name": body.name.strip(), "army_value": value}


@router.post("/players/{player_id}/drop")
async def drop(
    event_id: str, player_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """RP6: the player is not paired again (replaced in the cut, or a bye for the
    opponent during the elimination)."""
    policy = _eo(service, event_id, token)
    await policy.drop(event_id, player_id)
    return policy.view(event_id)


@router.post("/players/{player_id}/disqualify")
async def disqualify(
    event_id: str, player_id: str, body: DisqualifyIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """The organiser removes a player for unsporting conduct, with the reason (kept in
    the organiser's log): removed as a drop removes them (RP6), and they cannot rejoin."""
    policy = _eo(service, event_id, token)
    await policy.disqualify(event_id, player_id, body.reason)
    return policy.view(event_id)


@router.post("/players/{player_id}/rejoin")
async def rejoin(
    event_id: str, player_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """RP7: a dropped player is paired again from the next round, with an unpaired loss
    (0 TP, MoV 0) for each round missed."""
    policy = _eo(service, event_id, token)
    policy.rejoin(event_id, player_id)
    return policy.view(event_id)


@router.post("/cut")
async def cut(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """RP6: the top of the standings make the cut, after the last Swiss round."""
    policy = _eo(service, event_id, token)
    return {"cut_to": policy.make_cut(event_id)}


@router.post("/rounds", status_code=201)
async def pair(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """The next round (RP6), each game on a live table with the round's cards."""
    policy = _eo(service, event_id, token)
    number = policy.pair_next(event_id)
    rounds: list[dict[str, Any]] = policy.view(event_id)["rounds"]
    return rounds[number - 1]


@router.post("/rounds/current/start")
async def start(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """DC11: the round timer starts on every table of the round."""
    policy = _eo(service, event_id, token)
    await policy.start_round(event_id)
    return policy.view(event_id)


@router.post("/rounds/current/time")
async def call_time(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """DC11: time: every table finishes its game round, then scores."""
    policy = _eo(service, event_id, token)
    await policy.call_time(event_id)
    return policy.view(event_id)


@router.post("/tables/{table_id}/extension")
async def extend(
    event_id: str, table_id: str, body: ExtensionIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """Lost and Damaged Components: the organiser gives one table of the round under
    way a short time extension (its round timer ends later; the round's call of time
    reaches it at its own end)."""
    policy = _eo(service, event_id, token)
    game = await policy.extend(event_id, table_id, body.minutes, body.reason)
    return {
        "table_id": table_id,
        "extension_minutes": game.extension_ms // 60_000,
        "extension_reason": game.extension_reason,
        "ends_ms": game.ends_ms(),
    }


@router.get("/standings.csv")
async def standingscsv_response(event_id: str, service: EventsDep) -> Response:
    """ST5: TP, cumulative MoV, SoS, then the fixed draw; for export and printing."""
    rows = [s.row() for s in _policy(service, event_id).standings(event_id)]
    return csv_response(rows, f"standings-{event_id}.csv")
