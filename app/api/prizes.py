"""Prizes REST API (ST3): the prizes of an event, the EO's choices and blind votes, the
players' ballots, and the EO's "disqualify".

Reading the prizes is public; a vote's count shows only once the EO closed it (while it
is open, the EO sees how many eligible players have voted, never who voted for whom).
The EO's actions need the `X-EO-Token` header; a player's ballot needs their own player
link's token or one of their seat link tokens in `X-Player-Token` (never in a URL).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header
from pydantic import BaseModel, Field

from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.domain.penalties import REASON_LENGTH

router = APIRouter(prefix="/api/events", route_class=StrictJsonRoute)

PlayerToken = Annotated[str | None, Header(alias="X-Player-Token")]
Id = Annotated[str, Field(max_length=64)]


class VoteIn(BaseModel):
    entries: list[Id] | None = Field(
        None,
        max_length=1024,
        description="player ids shown as entries; omitted = every eligible player "
        "(a second vote after a tie: the tied entries)",
    )


class AwardIn(BaseModel):
    player: str = Field(..., max_length=64)


class BallotIn(BaseModel):
    choice: str = Field(..., max_length=64, description="the entry's player id")


class DisqualifyIn(BaseModel):
    disqualified: bool = True
    reason: str = Field(
        "",
        max_length=REASON_LENGTH,
        description="why (required): kept with the penalty record, as a disqualification "
        "given in the penalties section is; lifting it withdraws that record with this reason",
    )


@router.get("/{event_id}/prizes")
async def get_prizes(event_id: str, service: EventsDep) -> dict[str, Any]:
    """Public: each prize and its winner; a vote's count only once it is closed."""
    return service.prizes.view(event_id)


@router.get("/{event_id}/prizes/admin")
async def get_prizes_admin(
    event_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: the public view, and for an open vote how many eligible players have voted
    (never for whom)."""
    service.authorize(event_id, token)
    return service.prizes.view(event_id, eo=True)


@router.post("/{event_id}/prizes/{prize_id}/vote")
async def open_vote(
    event_id: str, prize_id: str, body: VoteIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: open a blind vote (after a tie: a second vote among the tied)."""
    service.authorize(event_id, token)
    service.prizes.open_vote(event_id, prize_id, body.entries)
    return service.prizes.view(event_id, eo=True)


@router.post("/{event_id}/prizes/{prize_id}/close")
async def close_vote(
    event_id: str, prize_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: close the vote and count it."""
    service.authorize(event_id, token)
    service.prizes.close_vote(event_id, prize_id)
    return service.prizes.view(event_id, eo=True)


@router.post("/{event_id}/prizes/{prize_id}/award")
async def award(
    event_id: str, prize_id: str, body: AwardIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: choose the winner (after a tie: one of the tied entries)."""
    service.authorize(event_id, token)
    service.prizes.award(event_id, prize_id, body.player)
    return service.prizes.view(event_id, eo=True)


@router.get("/{event_id}/ballot")
async def my_ballot(event_id: str, service: EventsDep, token: PlayerToken = None) -> dict[str, Any]:
    """A player: the open votes, their entries and the player's own vote."""
    return service.prizes.ballot_view(event_id, token)


@router.put("/{event_id}/prizes/{prize_id}/ballot")
async def cast_vote(
    event_id: str, prize_id: str, body: BallotIn, service: EventsDep, token: PlayerToken = None
) -> dict[str, Any]:
    """A player's secret vote; voting again replaces it until the vote closes."""
    service.prizes.cast_vote(event_id, token, prize_id, body.choice)
    return service.prizes.ballot_view(event_id, token)


@router.post("/{event_id}/players/{player_id}/disqualify")
async def disqualify(
    event_id: str, player_id: str, body: DisqualifyIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """EO: disqualify a player (or lift it), with the reason: not paired again (a round
    paired but not started is paired again without them), no prize. The same penalty
    record as POST /penalties gives (and withdraws)."""
    service.authorize(event_id, token)
    if body.disqualified:
        await service.discipline.disqualify(event_id, player_id, body.reason)
    else:
        await service.discipline.lift(event_id, player_id, body.reason)
    return service.book.player(event_id, player_id).model_dump()
