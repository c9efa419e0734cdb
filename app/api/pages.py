"""HTML pages: the quick-game form, the links page, the table (phone) and its log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

from app.api.deps import BaseUrlDep, HubDep
from app.api.rest import QuickGameIn, create_quick_game, table_links
from app.domain.errors import RuleError
from app.domain.formats import FORMATS

WEB = Path(__file__).resolve().parent.parent.parent / "web"
templates = Jinja2Templates(directory=WEB / "templates")
router = APIRouter()


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "home.html", {"formats": list(FORMATS.values()), "error": None}
    )


def _none_if_blank(value: str | None) -> str | None:
    return value if value not in (None, "") else None


@router.post("/quick", response_class=HTMLResponse)
def quick_game(
    request: Request,
    hub: HubDep,
    base: BaseUrlDep,
    format: Annotated[str, Form()] = "sr2019",
    points: Annotated[str | None, Form()] = None,
    clock_minutes: Annotated[str | None, Form()] = None,
    clock_seconds: Annotated[str | None, Form()] = None,
    scenario: Annotated[str, Form()] = "random",
    p1_name: Annotated[str, Form()] = "Player 1",
    p2_name: Annotated[str, Form()] = "Player 2",
    army_points: Annotated[str | None, Form()] = None,
) -> HTMLResponse:
    form = {
        "format": format,
        "points": points,
        "clock_minutes": clock_minutes,
        "clock_seconds": clock_seconds,
        "scenario": scenario,
        "p1_name": p1_name,
        "p2_name": p2_name,
        "army_points": army_points,
    }
    try:
        body = QuickGameIn.model_validate(
            {
                "format": format,
                "points": _none_if_blank(points),
                "clock_minutes": _none_if_blank(clock_minutes),
                "clock_seconds": _none_if_blank(clock_seconds),
                "scenario": scenario,
                "p1_name": p1_name,
                "p2_name": p2_name,
                "army_points": _none_if_blank(army_points),
            }
        )
        room = create_quick_game(hub, body)
    except (ValidationError, RuleError) as exc:
        message = exc.message if isinstance(exc, RuleError) else _first_error(exc)
        return templates.TemplateResponse(
            request,
            "home.html",
            {"formats": list(FORMATS.values()), "error": message, "form": form},
            status_code=400,
        )
    return templates.TemplateResponse(
        request, "links.html", {"links": table_links(room, base), "names": room.game.setup.names}
    )


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err["loc"])
    return f"{where}: {err['msg']}"


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    if hub.get(table_id) is None:
        raise HTTPException(404, f"no table {table_id!r}")
    return templates.TemplateResponse(request, "table.html", {"table_id": table_id})


@router.get("/t/{table_id}/log", response_class=HTMLResponse)
def log_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    if hub.get(table_id) is None:
        raise HTTPException(404, f"no table {table_id!r}")
    return templates.TemplateResponse(request, "log.html", {"table_id": table_id})
