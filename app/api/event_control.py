"""The EO's control of an event beyond the day's plan: the admin link for another
device, a draft round paired again or discarded, a player deleted, what DC8 would do
now, one table's links and dispute, and a command of the EO's to one table. Every call
needs the EO token (X-EO-Token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from app.api.budgets import TOO_MANY_COMMANDS, seat_commands, too_many
from app.api.deps import BaseUrlDep, get_settings
from app.api.event_deps import EoToken, EventsDep
from app.api.hardening import StrictJsonRoute
from app.api.rest import qr_svg, table_links

router = APIRouter(prefix="/api/events", route_class=StrictJsonRoute)


def _draft_note(service: EventsDep, event_id: str, before: int | None) -> str | None:
    """What a change of the field did to a round paired but not started."""
    if before is None:
        return None
    after = service.control.draft(event_id)
    if after is None:
        return f"Round {before} could not be paired again: its pairings were discarded."
    return f"Round {before} was paired again."


def _draft_number(service: EventsDep, event_id: str) -> int | None:
    entry = service.control.draft(event_id)
    return None if entry is None else entry.number


@router.get("/{event_id}/admin-link")
async def admin_link(
    event_id: str, service: EventsDep, base: BaseUrlDep, token: EoToken = None
) -> dict[str, str]:
    """The EO's link (the token in its fragment) and its QR code, for another device."""
    event = service.authorize(event_id, token)
    url = f"{base}e/{event.id}/admin#k={event.admin_token}"
    return {"url": url, "qr_svg": await run_in_threadpool(qr_svg, url)}


@router.post("/{event_id}/rounds/current/repair")
async def repair_round(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """Pair the round not started yet again, with its scenario; its old seat links go stale."""
    service.authorize(event_id, token)
    entry = service.control.repair_draft(event_id)
    return service.read_models.round_view(event_id, entry.number, admin=True)


@router.delete("/{event_id}/rounds/current")
async def discard_round(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, int]:
    """Discard the round not started yet (its tables and pairings)."""
    service.authorize(event_id, token)
    return {"discarded": service.control.discard_draft(event_id)}


@router.get("/{event_id}/rounds/current/end-preview")
async def round_end_preview(
    event_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, str]:
    """DC8 as it would be applied now, by table id: "tie", "play_on" or "clock_out"."""
    service.authorize(event_id, token)
    return service.control.round_end_preview(event_id)


@router.delete("/{event_id}/players/{player_id}")
async def delete_player(
    event_id: str, player_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """A player added by mistake, before they played (refused once they have played)."""
    service.authorize(event_id, token)
    before = _draft_number(service, event_id)
    player = service.control.delete_player(event_id, player_id)
    return {
        "deleted": player.id,
        "name": player.name,
        "draft": _draft_note(service, event_id, before),
    }


@router.get("/{event_id}/tables/{table_id}")
async def table_detail(
    event_id: str, table_id: str, service: EventsDep, base: BaseUrlDep, token: EoToken = None
) -> dict[str, Any]:
    """One table for the EO: its seat links and QR codes, its dispute and both reports."""
    service.authorize(event_id, token)
    room = service.tables.get(event_id, table_id)
    links = await run_in_threadpool(table_links, room, base)
    meta = room.meta
    return {
        **service.tables.detail(event_id, table_id),
        "round": meta.round_number if meta else None,
        "table_no": meta.table_no if meta else None,
        "scenario": room.engine.summary(room.game)["scenario"],
        "links": links.model_dump(),
    }


@router.post("/{event_id}/tables/{table_id}/command", response_model=dict[str, Any])
async def table_command(
    event_id: str,
    table_id: str,
    body: dict[str, Any],
    service: EventsDep,
    request: Request,
    token: EoToken = None,
) -> dict[str, Any] | Response:
    """EO: one table's own command, logged in its log: a Warmachine table's pause,
    resume, adjust_clock, call_tie, start or dice_down; a Runewars table's start_round
    or call_time (its round timer, DC11). Anything else is refused with the reason.
    They spend the EO's command budget at that table, which its EO screens share: past
    it, 429 and nothing is logged."""
    service.authorize(event_id, token)
    room = service.tables.get(event_id, table_id)
    budget = seat_commands(room, "eo", get_settings(request), request.app.state.io_time)
    if not budget.allow():
        return too_many(TOO_MANY_COMMANDS, budget.wait_s())
    room, version = await service.tables.command(event_id, table_id, body)
    return {"v": version, "status": room.engine.status(room.game)}
