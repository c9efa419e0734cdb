"""Seasons: a circuit that holds events (Iron Gauntlet qualifiers, or a Masters
tournament's qualifiers), its public page, its table and each qualifier's top-three
report (a printable page and a CSV), and the final it seeds.

Reading a season is public; what changes it needs the keeper's token, made with the
season, in the `X-Keeper-Token` header (the page carries it in its link's #k=).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from app.api.deps import BaseUrlDep
from app.api.event_deps import EoToken, EventsDep
from app.api.exports import csv_response
from app.api.hardening import StrictJsonRoute
from app.api.page_templates import templates
from app.domain.penalties import REASON_LENGTH
from app.domain.qualifiers import IRON_GAUNTLET, KINDS
from app.events.seasons import FinalSpec

router = APIRouter(route_class=StrictJsonRoute)
KeeperToken = Annotated[str | None, Header(alias="X-Keeper-Token")]


class SeasonIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=120)
    kind: str = Field(IRON_GAUNTLET, max_length=32, description=" or ".join(KINDS))


class SeasonCreated(BaseModel):
    id: str
    keeper_token: str
    keeper_url: str
    public_url: str


class HeldIn(BaseModel):
    event_id: str = Field(..., min_length=1, max_length=64)
    event_key: str = Field(..., min_length=1, max_length=200, description="the event's EO token")


class MatchIn(BaseModel):
    players: list[Annotated[str, Field(max_length=80)]] = Field(..., max_length=64)
    same: bool = Field(True, description="true: one person; false: different people")


class FinalIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=120)
    format: str = Field("masters2019", max_length=32)
    points: int = Field(75, ge=0, le=1000)
    lists: int | None = Field(2, ge=1, le=3)
    per_qualifier: int = Field(4, ge=1, le=64)
    qp_list: str = Field("", max_length=100_000)


class QpListIn(BaseModel):
    text: str = Field(..., min_length=1, max_length=100_000)


class CorrectedIn(BaseModel):
    reason: str = Field(..., max_length=REASON_LENGTH, description="why: kept in the event's log")


@router.post("/api/seasons", status_code=201, response_model=SeasonCreated)
async def create_season(body: SeasonIn, service: EventsDep, base: BaseUrlDep) -> SeasonCreated:
    """A season; the keeper's token comes back once, in the body and the keeper's link."""
    season = service.seasons.create(body.name, body.kind)
    return SeasonCreated(
        id=season.id,
        keeper_token=season.keeper_token,
        keeper_url=f"{base}s/{season.id}#k={season.keeper_token}",
        public_url=f"{base}s/{season.id}",
    )


@router.get("/api/seasons/{season_id}")
async def get_season(season_id: str, service: EventsDep) -> dict[str, Any]:
    return service.seasons.view(season_id)


@router.get("/api/seasons/{season_id}/keeper")
async def get_season_keeper(
    season_id: str, service: EventsDep, token: KeeperToken = None
) -> dict[str, Any]:
    service.seasons.authorize(season_id, token)
    return service.seasons.view(season_id, keeper=True)


@router.post("/api/seasons/{season_id}/events", status_code=204)
async def hold_event(
    season_id: str, body: HeldIn, service: EventsDep, token: KeeperToken = None
) -> None:
    service.seasons.hold(season_id, token, body.event_id, body.event_key)


@router.delete("/api/seasons/{season_id}/events/{event_id}", status_code=204)
async def release_event(
    season_id: str, event_id: str, service: EventsDep, token: KeeperToken = None
) -> None:
    """The keeper takes an event out of the season (until the final is made)."""
    service.seasons.release(season_id, token, event_id)


@router.post("/api/seasons/{season_id}/matches", status_code=204)
async def settle_match(
    season_id: str, body: MatchIn, service: EventsDep, token: KeeperToken = None
) -> None:
    service.seasons.settle(season_id, token, body.players, body.same)


@router.post("/api/seasons/{season_id}/final", status_code=201)
async def create_final(
    season_id: str, body: FinalIn, service: EventsDep, base: BaseUrlDep, token: KeeperToken = None
) -> dict[str, str]:
    spec = FinalSpec(
        name=body.name,
        format_id=body.format,
        points=body.points,
        lists=body.lists,
        per_qualifier=body.per_qualifier,
        qp_list=body.qp_list,
    )
    event = service.seasons.create_final(season_id, token, spec)
    return {
        "id": event.id,
        "admin_url": f"{base}e/{event.id}/admin#k={event.admin_token}",
        "public_url": f"{base}e/{event.id}",
    }


@router.post("/api/events/{event_id}/qp-list")
async def import_qp_list(
    event_id: str, body: QpListIn, service: EventsDep, token: EoToken = None
) -> dict[str, int]:
    """A QP list (name, QPs a line) pasted on a world final: seeded players."""
    service.authorize(event_id, token)
    return {"added": service.seasons.import_qp_list(event_id, body.text)}


@router.get("/api/seasons/{season_id}/events/{event_id}/report")
async def report(season_id: str, event_id: str, service: EventsDep) -> dict[str, Any]:
    return service.season_reports.report(season_id, event_id)


@router.post("/api/seasons/{season_id}/events/{event_id}/report/sent")
async def report_sent(
    season_id: str, event_id: str, service: EventsDep, token: KeeperToken = None
) -> dict[str, Any]:
    """The keeper records the top three's report as sent, now (once): sent within 14
    days of the event's end, the event counts; later, its players get no QPs (ST4)."""
    return service.season_reports.sent(season_id, token, event_id)


@router.post("/api/seasons/{season_id}/events/{event_id}/report/corrected")
async def report_corrected(
    season_id: str,
    event_id: str,
    body: CorrectedIn,
    service: EventsDep,
    token: KeeperToken = None,
) -> dict[str, Any]:
    """The keeper sends a corrected report, with the reason: the event's top three as
    they stand now replace the report sent before (the season counts what was reported)."""
    return service.season_reports.corrected(season_id, token, event_id, body.reason)


@router.get("/api/seasons/{season_id}/events/{event_id}/report.csv")
async def report_csv(season_id: str, event_id: str, service: EventsDep) -> Response:
    """The top three's names and final standings, and the day the report is due."""
    found = service.season_reports.report(season_id, event_id)
    rows = [
        {
            "event": found["name"],
            "final standing": row["rank"],
            "name": row["name"],
            "qualifier points": row["qp"],
            "event ended": _day(found["finished_ms"]),
            "report due": _day(found["report_due_ms"]),
            "report sent": "" if found["reported_ms"] is None else _day(found["reported_ms"]),
            "report": found["report"],
        }
        for row in found["top_three"]
    ]
    return csv_response(rows, f"top-three-{event_id}.csv")


def _day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")


@router.get("/s/new", response_class=HTMLResponse)
async def new_season_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "season.html", {"season_id": "", "season_name": ""})


@router.get("/s/{season_id}", response_class=HTMLResponse)
async def season_page(request: Request, season_id: str, service: EventsDep) -> HTMLResponse:
    season = service.seasons.season(season_id)
    return templates.TemplateResponse(
        request, "season.html", {"season_id": season.id, "season_name": season.name}
    )


@router.get("/s/{season_id}/report/{event_id}", response_class=HTMLResponse)
async def report_page(
    request: Request, season_id: str, event_id: str, service: EventsDep
) -> HTMLResponse:
    """The top-three report, printable."""
    found = service.season_reports.report(season_id, event_id)
    context = {
        "season_id": season_id,
        "report": found,
        "ended": _day(found["finished_ms"]),
        "due": _day(found["report_due_ms"]),
        "sent": None if found["reported_ms"] is None else _day(found["reported_ms"]),
        "corrected": None if found["corrected_ms"] is None else _day(found["corrected_ms"]),
    }
    return templates.TemplateResponse(request, "season_report.html", context)
