"""HTML pages: the quick-game form, the links page, the table (phone) and its log."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

from app.api.deps import BaseUrlDep, HubDep
from app.api.events import EventsDep
from app.api.rest import QuickGameIn, create_quick_game, links_of
from app.domain.errors import BadInput, RuleError
from app.domain.formats import FORMATS
from app.events.service import EventSpec

WEB = Path(__file__).resolve().parent.parent.parent / "web"
templates = Jinja2Templates(directory=WEB / "templates")
router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "home.html", {"formats": list(FORMATS.values()), "error": None}
    )


def _none_if_blank(value: str | None) -> str | None:
    return value if value not in (None, "") else None


@router.post("/quick", response_class=HTMLResponse)
async def quick_game(
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
        request,
        "links.html",
        {"links": await links_of(room, base), "names": room.game.setup.names},
    )


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err["loc"])
    return f"{where}: {err['msg']}"


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    if hub.get(table_id) is None:
        raise HTTPException(404, f"no table {table_id!r}")
    return templates.TemplateResponse(request, "table.html", {"table_id": table_id})


@router.get("/t/{table_id}/log", response_class=HTMLResponse)
async def log_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    if hub.get(table_id) is None:
        raise HTTPException(404, f"no table {table_id!r}")
    return templates.TemplateResponse(request, "log.html", {"table_id": table_id})


# --- events ------------------------------------------------------------------------


@router.get("/events/new", response_class=HTMLResponse)
async def new_event_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "event_new.html", {"formats": list(FORMATS.values()), "error": None, "form": {}}
    )


@router.post("/events", response_model=None)
async def create_event_form(
    request: Request,
    service: EventsDep,
    name: Annotated[str, Form()] = "",
    format: Annotated[str, Form()] = "sr2019",
    points: Annotated[str, Form()] = "75",
    lists: Annotated[str, Form()] = "",
    fixed_rounds: Annotated[str | None, Form()] = None,
    cut_to_top: Annotated[str | None, Form()] = None,
    timing: Annotated[str, Form()] = "",
    variants: Annotated[list[str] | None, Form()] = None,
) -> HTMLResponse | RedirectResponse:
    chosen = tuple(v for v in (timing, *(variants or [])) if v)
    form = {
        "name": name,
        "format": format,
        "points": points,
        "lists": lists,
        "fixed_rounds": fixed_rounds,
        "cut_to_top": cut_to_top,
        "timing": timing,
        "variants": list(variants or []),
    }
    try:
        event = service.create_event(
            EventSpec(
                name=name,
                format_id=format,
                points=_whole(points, "points"),
                lists=None if not lists else _whole(lists, "lists"),
                fixed_rounds=None if not fixed_rounds else _whole(fixed_rounds, "fixed rounds"),
                cut_to_top=None if not cut_to_top else _whole(cut_to_top, "cut to top"),
                variants=chosen,
            )
        )
    except RuleError as exc:
        return templates.TemplateResponse(
            request,
            "event_new.html",
            {"formats": list(FORMATS.values()), "error": exc.message, "form": form},
            status_code=400,
        )
    return RedirectResponse(f"/e/{event.id}/admin#k={event.admin_token}", status_code=303)


def _whole(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise BadInput(f"{name} must be a whole number") from None


def _event_page(request: Request, service: EventsDep, event_id: str, template: str) -> HTMLResponse:
    event = service.event(event_id)
    return templates.TemplateResponse(
        request, template, {"event_id": event.id, "event_name": event.name}
    )


@router.get("/e/{event_id}", response_class=HTMLResponse)
async def event_page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
    """Public: pairings, standings and the round clock."""
    return _event_page(request, service, event_id, "event.html")


@router.get("/e/{event_id}/admin", response_class=HTMLResponse)
async def event_admin_page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
    return _event_page(request, service, event_id, "event_admin.html")


@router.get("/e/{event_id}/dashboard", response_class=HTMLResponse)
async def dashboard_page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
    return _event_page(request, service, event_id, "dashboard.html")


@router.get("/e/{event_id}/cards", response_class=HTMLResponse)
async def cards_page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
    return _event_page(request, service, event_id, "cards.html")


@router.get("/e/{event_id}/players/{player_id}/sheet", response_class=HTMLResponse)
async def sheet_page(
    request: Request, event_id: str, player_id: str, service: EventsDep
) -> HTMLResponse:
    player = service.player(event_id, player_id)
    event = service.event(event_id)
    return templates.TemplateResponse(
        request,
        "sheet.html",
        {"event_id": event.id, "event_name": event.name, "player_id": player.id},
    )


# The table page's app shell, cached by the service worker: styles, icons, manifest and
# the modules of the table page.
_SHELL_DIRS = ("css", "lib", "table")
_SHELL_FILES = ("manifest.webmanifest", "icon.svg", "icon-192.png", "icon-512.png")


@functools.cache
def _service_worker() -> str:
    static = WEB / "static"
    files = [static / name for name in _SHELL_FILES]
    for folder in _SHELL_DIRS:
        files += sorted(p for p in (static / folder).iterdir() if p.suffix in (".css", ".js"))
    source = (static / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode())
    for path in files:
        digest.update(path.relative_to(static).as_posix().encode())
        digest.update(path.read_bytes())
    shell = ["/static/" + path.relative_to(static).as_posix() for path in files]
    return source.replace('"__SHELL__"', json.dumps(shell)).replace(
        "__VERSION__", digest.hexdigest()[:16]
    )


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, from the site's root so that its scope can cover /t/."""
    return Response(
        _service_worker(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )
