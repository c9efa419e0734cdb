"""HTML pages: the quick-game form, the links page, the table (phone) and its log, and the
service worker; an event's pages (app.api.event_pages) ride on its router."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.api import event_pages
from app.api.deps import BaseUrlDep, HubDep
from app.api.event_deps import EventsDep
from app.api.page_templates import WEB, templates
from app.api.rest import QuickGameIn, create_quick_game, links_of
from app.domain.errors import RuleError
from app.domain.formats import FORMATS
from app.domain.game import Game
from app.events.service import EventService
from app.tables.room import TableRoom
from app.tables.warmachine.outcome import log_words
from app.tables.warmachine.view import elements_json

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "home.html", {"formats": list(FORMATS.values()), "error": None}
    )


def _none_if_blank(value: str | None) -> str | None:
    return value if value not in (None, "") else None


@router.post("/quick", response_model=None)
async def quick_game(
    request: Request,
    hub: HubDep,
    format: Annotated[str, Form()] = "sr2019",
    points: Annotated[str | None, Form()] = None,
    clock_minutes: Annotated[str | None, Form()] = None,
    clock_seconds: Annotated[str | None, Form()] = None,
    scenario: Annotated[str, Form()] = "random",
    p1_name: Annotated[str, Form()] = "",
    p2_name: Annotated[str, Form()] = "",
    army_points: Annotated[str | None, Form()] = None,
    pregame: Annotated[str | None, Form()] = None,
    timing: Annotated[str, Form()] = "",
    variants: Annotated[list[str] | None, Form()] = None,
) -> HTMLResponse | RedirectResponse:
    form = {
        "format": format,
        "points": points,
        "clock_minutes": clock_minutes,
        "clock_seconds": clock_seconds,
        "scenario": scenario,
        "p1_name": p1_name,
        "p2_name": p2_name,
        "army_points": army_points,
        "pregame": pregame,
        "timing": timing,
        "variants": list(variants or []),
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
                "pregame": pregame is not None,
                "variants": [v for v in (timing, *(variants or [])) if v],
            }
        )
        room = await create_quick_game(hub, body)
    except (ValidationError, RuleError) as exc:
        message = exc.message if isinstance(exc, RuleError) else _first_error(exc)
        return templates.TemplateResponse(
            request,
            "home.html",
            {"formats": list(FORMATS.values()), "error": message, "form": form},
            status_code=400,
        )
    # Post/redirect/get: reloading the links page shows this game again, never a new one.
    # The links carry the tokens, so the page opens from the browser that made the game
    # only: the EO token rides in a cookie for that one path, never in a URL.
    path = f"/t/{room.table_id}/links"
    response = RedirectResponse(path, status_code=303)
    response.set_cookie(
        LINKS_COOKIE,
        room.tokens.eo,
        max_age=LINKS_COOKIE_AGE_S,
        path=path,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


LINKS_COOKIE = "deathclock_links"
LINKS_COOKIE_AGE_S = 24 * 3600

#: Form fields in the players' words, for the first error of a form.
_FIELD_WORDS = {
    "format": "Format",
    "points": "Game size",
    "clock_minutes": "Custom clock (minutes)",
    "clock_seconds": "Custom clock (seconds)",
    "scenario": "Scenario",
    "p1_name": "The first name",
    "p2_name": "The second name",
    "army_points": "Army points",
}


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = str(err["loc"][-1]) if err["loc"] else ""
    words = _FIELD_WORDS.get(field, field.replace("_", " ").capitalize())
    message = str(err["msg"])
    if message.startswith("Input should be "):
        return f"{words} must be {message.removeprefix('Input should be ')}."
    return f"{words}: {message.removeprefix('Value error, ')}."


@router.get("/t/{table_id}/links", response_class=HTMLResponse)
async def quick_links_page(
    request: Request, table_id: str, hub: HubDep, base: BaseUrlDep
) -> HTMLResponse:
    """A quick game's links page, for the browser that made the game (its cookie)."""
    room = hub.get(table_id)
    key = request.cookies.get(LINKS_COOKIE, "")
    if room is None or room.meta is not None or room.tokens.role_for(key) != "eo":
        return templates.TemplateResponse(
            request,
            "home.html",
            {
                "formats": list(FORMATS.values()),
                "error": "These links open only in the browser that made the game: "
                "use the seat links you shared, or make a new game.",
                "form": {},
            },
            status_code=404,
        )
    return templates.TemplateResponse(
        request,
        "links.html",
        {"links": await links_of(room, base), "names": room.game.setup.names},
        headers={"Cache-Control": "no-store"},
    )


def _table_label(room: TableRoom, service: EventService) -> str:
    """ "Table 3 · Round 2 · <event>" for an event's table, "Quick game" otherwise."""
    meta = room.meta
    if meta is None:
        return "Quick game"
    try:
        event_name = service.book.event(meta.event_id).name
    except RuleError:
        event_name = ""
    parts = [f"Table {meta.table_no}", f"Round {meta.round_number}", event_name]
    return " · ".join(p for p in parts if p)


def _no_table(request: Request, table_id: str, service: EventsDep) -> HTMLResponse:
    """A seat link that opens no table: a page that says why and whom to ask."""
    stale = service.control.stale_link(table_id) if len(table_id) <= 64 else None
    return templates.TemplateResponse(
        request, "stale_table.html", {"stale": stale}, status_code=404
    )


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table_page(
    request: Request, table_id: str, hub: HubDep, service: EventsDep
) -> HTMLResponse:
    room = hub.get(table_id)
    if room is None:
        return _no_table(request, table_id, service)
    return templates.TemplateResponse(
        request,
        room.engine.page,
        {"table_id": table_id, "table_label": _table_label(room, service)},
    )


@router.get("/t/{table_id}/log", response_class=HTMLResponse)
async def log_page(
    request: Request, table_id: str, hub: HubDep, service: EventsDep
) -> HTMLResponse:
    room = hub.get(table_id)
    if room is None:
        return _no_table(request, table_id, service)
    players = list(room.game.setup.names)  # the links' order; the log says who went first
    label = f"{_table_label(room, service)} · {' vs '.join(players)}"
    # The scenario's elements, so that a scoring reads "Ann's objective", not its id.
    elements = elements_json(room.game) if isinstance(room.game, Game) else []
    tie_word = room.game.format.tie_word if isinstance(room.game, Game) else "Tie"
    # What a destroyed caster did in this game's rules, in the words its ending says.
    words = log_words(room.game) if isinstance(room.game, Game) else {}
    return templates.TemplateResponse(
        request,
        "log.html",
        {
            "table_id": table_id,
            "table_label": label,
            "players": players,
            "elements": elements,
            "tie_word": tie_word,
            "words": words,
        },
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


router.include_router(event_pages.router)  # an event's pages, under the same router
