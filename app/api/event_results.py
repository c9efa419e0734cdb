"""The EO's results of an event's tables: entered, or corrected with the reason (TS9),
in the form the event's tournament policy takes. Every call needs the EO token."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError

from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.events.table_result import TableResult

#: Under app.api.events' router, whose prefix is /api/events.
router = APIRouter(route_class=StrictJsonRoute)


Points = Annotated[int, Field(ge=0, le=10_000)]


IN_PAIRING_ORDER = "the pairing's first player's, then its second's"


class ResultIn(BaseModel):
    winner: str | None = Field(
        None,
        max_length=8,
        description="'p1' or 'p2': the pairing's first or second player (whoever went "
        "first at the table), or null for a tie",
    )
    control_points: list[Points] = Field(..., max_length=2, description=IN_PAIRING_ORDER)
    army_points_destroyed: list[Points] = Field(..., max_length=2, description=IN_PAIRING_ORDER)
    method: Literal[
        "scenario", "assassination", "clock", "concession", "tiebreaker", "time", "eo"
    ] = Field("eo", description="how the game ended (TS9)")
    lists: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=lambda: ["", ""],
        max_length=2,
        description="list played, " + IN_PAIRING_ORDER,
    )
    reason: str = Field(
        "",
        max_length=300,
        description="why the EO enters it (required to correct a settled result); the "
        "players see it with the result, the action log keeps it",
    )


@router.put("/{event_id}/tables/{table_id}/result")
async def enter_result(
    event_id: str,
    table_id: str,
    body: dict[str, Any],
    service: EventsDep,
    token: EoToken = None,
) -> dict[str, Any]:
    """EO: enter or correct a table's result (overrides the players' confirmation).

    What a result is, the event's tournament policy says: a Warmachine table's is
    `ResultIn` (winner, control points, army points destroyed, method, lists, reason);
    a Runewars table's is both players' `entries` ([army value destroyed, objective
    points] for P1, P2), the Final Flurry `flurry` hits on equal scores, `conceded`
    ('p1', 'p2' or null) and the `reason` (needed to correct a decided result)."""
    service.authorize(event_id, token)
    policy = service.tournaments.of_event(event_id)
    if policy is not None:
        return await policy.enter_result(event_id, table_id, body)
    form = _result_in(body)
    result = TableResult.from_wire(form.model_dump())
    changed = await service.results.enter(event_id, table_id, result, form.reason)
    entered = service.results.table_result(event_id, table_id)
    reply = {} if entered is None else entered.as_json()
    return reply | {"unchanged": not changed}  # the same result again: nothing moved


def _result_in(body: dict[str, Any]) -> ResultIn:
    """A Warmachine table's result, its mistakes answered as a request's body's (422)."""
    try:
        return ResultIn.model_validate(body)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        ) from None
