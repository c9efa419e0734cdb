"""An event's HTML pages: the new-event form, the public, EO, dashboard, cards, prizes
and vote pages (a format run by its own policy has its own), and a player's sheet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from app.api.event_deps import EventsDep
from app.api.page_templates import templates
from app.domain.army_lists import HELP as LISTS_HELP
from app.domain.army_lists import ROSTER_HELP
from app.domain.errors import BadInput, RuleError
from app.domain.formats import FORMATS
from app.domain.prizes import PAINTING_CATEGORIES
from app.domain.rankings import RANKINGS, get_ranking
from app.events.base import EventSpec

router = APIRouter()


@router.get("/events/new", response_class=HTMLResponse)
async def new_event_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "event_new.html", {**_new_event_choices(), "error": None, "form": {}}
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
    standings: Annotated[str, Form()] = "baseline",
    painting_category: Annotated[str, Form()] = "",
    clock_minutes: Annotated[str | None, Form()] = None,
    pregame: Annotated[str | None, Form()] = None,
    fresh_tables: Annotated[str | None, Form()] = None,
    timing: Annotated[str, Form()] = "",
    variants: Annotated[list[str] | None, Form()] = None,
    active_duty_roster: Annotated[str, Form()] = "",
    structure: Annotated[str, Form()] = "",
    season: Annotated[str, Form()] = "",
    army_lists: Annotated[str | None, Form()] = None,
) -> HTMLResponse | RedirectResponse:
    chosen = tuple(v for v in (timing, *(variants or [])) if v)
    form = {
        "pregame": pregame,
        "fresh_tables": fresh_tables,
        "name": name,
        "format": format,
        "points": points,
        "lists": lists,
        "fixed_rounds": fixed_rounds,
        "cut_to_top": cut_to_top,
        "standings": standings,
        "painting_category": painting_category,
        "clock_minutes": clock_minutes,
        "timing": timing,
        "variants": list(variants or []),
        "active_duty_roster": active_duty_roster,
        "structure": structure,
        "season": season,
        "army_lists": army_lists,
    }
    try:
        event = service.registration.create_event(
            EventSpec(
                name=name,
                format_id=format,
                points=_whole(points, "points"),
                lists=None if not lists else _whole(lists, "lists"),
                fixed_rounds=None if not fixed_rounds else _whole(fixed_rounds, "fixed rounds"),
                cut_to_top=None if not cut_to_top else _whole(cut_to_top, "cut to top"),
                standings=standings,
                painting_category=painting_category,
                clock_minutes=None
                if not clock_minutes
                else _whole(clock_minutes, "player clock minutes"),
                pregame=bool(pregame),
                fresh_tables=bool(fresh_tables),
                variants=chosen,
                roster=active_duty_roster,
                structure=structure,
                season=season,
                army_lists=bool(army_lists),
            )
        )
    except RuleError as exc:
        return templates.TemplateResponse(
            request,
            "event_new.html",
            {**_new_event_choices(), "error": exc.message, "form": form},
            status_code=400,
        )
    return RedirectResponse(f"/e/{event.id}/admin#k={event.admin_token}", status_code=303)


def _new_event_choices() -> dict[str, Any]:
    return {
        "formats": list(FORMATS.values()),
        "rankings": list(RANKINGS.values()),
        "painting_categories": PAINTING_CATEGORIES,
        "roster_formats": [
            f.id for f in FORMATS.values() if any(r.roster_always is not None for r in f.list_rules)
        ],
        "roster_help": ROSTER_HELP,
        "lists_help": LISTS_HELP,
        "variant_formats": [f.id for f in FORMATS.values() if f.variants],
        "round_variant_formats": [f.id for f in FORMATS.values() if f.round_variants],
        "format_list_rules": format_list_rules(),
    }


def format_list_rules() -> dict[str, list[str]]:
    """Each format's own list rules, whatever the event's variants, in its document's
    words (IG2014: field allowance C across lists, specialists by size, fully painted)."""
    out: dict[str, list[str]] = {}
    for fmt in FORMATS.values():
        for rule in fmt.list_rules:
            words = rule.with_painting(rule.rules).words(fmt.default_points)
            if words:
                out[fmt.id] = words
                break
    return out


def _whole(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise BadInput(f"{name} must be a whole number") from None


#: The EO's and the public's pages of an event run by its format's own tournament policy.
OWN_POLICY_PAGES = {"event.html": "tournament.html", "event_admin.html": "tournament.html"}


def _event_page(request: Request, service: EventsDep, event_id: str, template: str) -> HTMLResponse:
    event = service.book.event(event_id)
    ranking = get_ranking(event.standings)
    admin = template == "event_admin.html"
    if service.tournaments.of_event(event_id) is not None:
        template = OWN_POLICY_PAGES.get(template, template)
    return templates.TemplateResponse(
        request,
        template,
        {
            "event_id": event.id,
            "event_name": event.name,
            "admin": admin,
            "standings_words": ranking.order_words,
            "assassin_column": "assassinations" in ranking.keys,
        },
    )


#: The event's pages, each its template over the event's name: (path, template, what).
EVENT_PAGES = (
    ("", "event.html", "Public: pairings, standings and the round clock."),
    ("/admin", "event_admin.html", "The EO's page (the EO key stays in the link's fragment)."),
    ("/dashboard", "dashboard.html", "Every table's clock and status, live."),
    ("/cards", "cards.html", "Table cards to print, one or two per page."),
    ("/lists", "lists_print.html", "Every player's army lists to print, one sheet a player."),
    ("/prizes", "prizes.html", "The prizes, for the public and the EO; printable."),
    ("/vote", "vote.html", "A player's blind vote, opened from their seat link."),
)


def _event_page_route(template: str, what: str) -> Callable[..., Awaitable[HTMLResponse]]:
    async def page(request: Request, event_id: str, service: EventsDep) -> HTMLResponse:
        return _event_page(request, service, event_id, template)

    page.__doc__ = what
    page.__name__ = f"{template.removesuffix('.html')}_page"
    return page


for _path, _template, _what in EVENT_PAGES:
    router.add_api_route(
        f"/e/{{event_id}}{_path}",
        _event_page_route(_template, _what),
        methods=["GET"],
        response_class=HTMLResponse,
    )


@router.get("/e/{event_id}/players/{player_id}/sheet", response_class=HTMLResponse)
async def sheet_page(
    request: Request, event_id: str, player_id: str, service: EventsDep
) -> HTMLResponse:
    event = service.book.require(event_id, "results")  # ST6's sheet: CP and APD by round
    player = service.book.player(event_id, player_id)
    return templates.TemplateResponse(
        request,
        "sheet.html",
        {"event_id": event.id, "event_name": event.name, "player_id": player.id},
    )
