"""Warnings and penalties REST API: the EO records a warning, a game loss or a
disqualification against a player with the reason, and withdraws one recorded in
error. Every call needs the EO token in `X-EO-Token`; the player's record sheet shows
a player's own (app.api.events). The prizes page gives and lifts a disqualification
the same way (app.events.discipline)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.domain.penalties import REASON_LENGTH

router = APIRouter(prefix="/api/events", route_class=StrictJsonRoute)


class PenaltyIn(BaseModel):
    player: str = Field(..., max_length=64, description="the player's id")
    kind: Literal["warning", "game_loss", "disqualification"]
    reason: str = Field(..., max_length=REASON_LENGTH, description="why: kept with the record")
    round: int | None = Field(
        None,
        ge=1,
        le=1000,
        description="the round (a game loss: the round whose game is lost; otherwise the "
        "latest round when omitted)",
    )


class WithdrawIn(BaseModel):
    reason: str = Field(..., max_length=REASON_LENGTH, description="why it was in error")


@router.get("/{event_id}/penalties")
async def penalties(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """EO: every warning and penalty of the event (the tables' warnings for pausing too)."""
    service.authorize(event_id, token)
    return service.discipline.view(event_id)


@router.post("/{event_id}/penalties")
async def give_penalty(
    event_id: str, body: PenaltyIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: a warning, a game loss (the round's game is lost, its result corrected with
    the reason) or a disqualification (removed: not paired again, no prize)."""
    service.authorize(event_id, token)
    await service.discipline.give(event_id, body.player, body.kind, body.reason, body.round)
    return service.discipline.view(event_id)


@router.post("/{event_id}/penalties/{penalty_id}/withdraw")
async def withdraw_penalty(
    event_id: str, penalty_id: int, body: WithdrawIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: take back a penalty recorded in error, with the reason."""
    service.authorize(event_id, token)
    await service.discipline.withdraw(event_id, penalty_id, body.reason)
    return service.discipline.view(event_id)
