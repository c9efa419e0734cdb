"""The EO's rounds of an event: pairing the next one (RP2/RP3, RP4), swapping players
before it starts, starting it (DC4), calling its end (DC8), and its tables' links.
Every call needs the EO token (X-EO-Token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from app.api.deps import BaseUrlDep
from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.api.rest import table_links
from app.events.dashboard import summary

#: Under app.api.events' router, whose prefix is /api/events.
router = APIRouter(route_class=StrictJsonRoute)


class RoundIn(BaseModel):
    scenario: str | None = Field(
        None, max_length=64, description="scenario id, or of a pack it allows; omitted: rolled"
    )


class SwapIn(BaseModel):
    a: str = Field(..., max_length=64)
    b: str = Field(..., max_length=64)


@router.post("/{event_id}/rounds", status_code=201)
async def pair_round(
    event_id: str,
    body: RoundIn,
    service: EventsDep,
    token: EoToken = None,
) -> dict[str, Any]:
    """Pair the next round (RP2/RP3) with its scenario (RP4) and open its tables."""
    service.authorize(event_id, token)
    entry = service.rounds.pair_next(event_id, body.scenario)
    return service.read_models.round_view(event_id, entry.number, admin=True)


@router.post("/{event_id}/rounds/current/swap")
async def swap_players(
    event_id: str,
    body: SwapIn,
    service: EventsDep,
    token: EoToken = None,
) -> dict[str, Any]:
    service.authorize(event_id, token)
    warnings = service.rounds.swap(event_id, body.a, body.b)
    return {"warnings": warnings}


@router.post("/{event_id}/rounds/current/start")
async def start_round(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """Start every table's clock; the round's expected end is set (DC4)."""
    service.authorize(event_id, token)
    entry = await service.rounds.start(event_id)
    return {
        "number": entry.number,
        "started_ms": entry.started_ms,
        "expected_end_ms": entry.expected_end_ms,
    }


@router.post("/{event_id}/rounds/current/end")
async def end_round(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, str]:
    """DC8 now (it also runs by itself at the round's expected end)."""
    service.authorize(event_id, token)
    calls = await service.round_clock.call_end(event_id)
    return calls


@router.get("/{event_id}/tables")
async def event_tables(
    event_id: str, service: EventsDep, base: BaseUrlDep, token: EoToken = None
) -> list[dict[str, Any]]:
    """EO: every table of the event with its seat links and QR codes (table cards)."""
    service.authorize(event_id, token)
    now = service.time.now_ms()
    rooms = service.tables.rooms(event_id)
    links = await run_in_threadpool(lambda: [table_links(r, base).model_dump() for r in rooms])
    return [
        {"round": r.meta.round_number if r.meta else None, "links": link, **summary(r, now)}
        for r, link in zip(rooms, links, strict=True)
    ]
