"""REST: start a quick game, list formats and scenarios, read a table's log."""

from __future__ import annotations

import contextlib
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from app.api.budgets import READ_REFUSED, ReadBudget, too_many
from app.api.deps import BaseUrlDep, HubDep
from app.api.hardening import StrictJsonRoute
from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.formats import FORMATS
from app.domain.games import OTHER_GAMES
from app.tables import round_gate
from app.tables.engines import engine_for
from app.tables.hub import new_token
from app.tables.log_page import LOG_PAGE, LogPages
from app.tables.quick import QuickGame, both_named
from app.tables.room import TableRoom
from app.tables.warmachine.engine import WARMACHINE
from app.tables.warmachine.story_view import story_view

router = APIRouter(prefix="/api", route_class=StrictJsonRoute)


class QuickGameIn(BaseModel):
    format: str = Field(
        "sr2019",
        max_length=32,
        description="a format id (GET /api/formats): sr2019, masters2019, champions2019, "
        "ig2014, legacy or runewars2017",
    )
    points: int | None = Field(
        None, ge=0, le=1000, description="event point size; sets the clock (DC1)"
    )
    clock_minutes: float | None = Field(None, gt=0, le=360, description="custom player clock")
    clock_seconds: int | None = Field(None, gt=0, le=21600, description="custom player clock")
    scenario: str = Field("random", max_length=64, description="scenario id, or 'random'")
    p1_name: str = Field(
        "",
        max_length=60,
        description="the player who takes the first turn; blank: 'First player'. "
        "A pre-game or a Runewars table needs both names (the table settles the order)",
    )
    p2_name: str = Field("", max_length=60, description="the other player; blank: 'Second player'")
    army_points: int | None = Field(None, ge=0, le=1000)
    pregame: bool = Field(
        False, description="the starting roll, sides and lists on the phones before the clock"
    )
    p1_army: int | None = Field(
        None, ge=0, le=1000, description="the army value of p1_name's army (Runewars)"
    )
    p2_army: int | None = Field(
        None, ge=0, le=1000, description="the army value of p2_name's army (Runewars)"
    )
    variants: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list,
        max_length=12,
        description="sr2019 event variants, e.g. classic_turn_timing (DC10)",
    )


class SeatLink(BaseModel):
    url: str
    qr_svg: str
    name: str = Field("", description="the player the link seats")
    first: bool | None = Field(
        None, description="this player goes first (null: not decided yet, at the pre-game)"
    )


class TableLinks(BaseModel):
    id: str
    format: str
    format_name: str
    scenario: str
    player_clock_ms: int
    p1: SeatLink
    p2: SeatLink
    watch: str
    eo: str


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    import segno  # read on the first links page, not at start

    return str(segno.make(url, error="m").svg_data_uri(scale=4))


async def links_of(room: TableRoom, base: str) -> TableLinks:
    """The table's links; its QR codes (a few ms each) are drawn off the event loop."""
    return await run_in_threadpool(table_links, room, base)


def table_links(room: TableRoom, base: str) -> TableLinks:
    def link(token: str) -> str:
        return f"{base}t/{room.table_id}#k={token}"

    summary = room.engine.summary(room.game)
    first = summary.get("first") if round_gate.first_known(room) else None  # once decided

    def seat(token: str, at: Side) -> SeatLink:
        url = link(token)
        name = room.game.setup.names[at]
        goes_first = None if first is None else first is at
        return SeatLink(url=url, qr_svg=qr_svg(url), name=name, first=goes_first)

    return TableLinks(
        id=room.table_id,
        format=summary["format"],
        format_name=summary["format_name"],
        scenario=summary["scenario"],
        player_clock_ms=summary["player_clock_ms"],
        p1=seat(room.tokens.p1, Side.P1),
        p2=seat(room.tokens.p2, Side.P2),
        watch=link(room.tokens.watch),
        eo=link(room.tokens.eo),
    )


async def create_quick_game(hub: HubDep, body: QuickGameIn) -> TableRoom:
    """A quick game's table; with `pregame`, its pre-game opened on the phones."""
    opening = engine_for(body.format).pregame if body.pregame else None
    if body.pregame and opening is None:
        raise BadInput(
            "this game's tables have no pre-game on the phones: the first player and "
            "the sides are the table's own first steps"
        )
    if opening is not None:
        both_named(body.p1_name, body.p2_name, "the starting roll decides who goes first")
    room = hub.create(
        QuickGame(
            format_id=body.format,
            points=body.points,
            clock_minutes=body.clock_minutes,
            clock_seconds=body.clock_seconds,
            scenario=body.scenario,
            p1_name=body.p1_name,
            p2_name=body.p2_name,
            army_points=body.army_points,
            p1_army=body.p1_army,
            p2_army=body.p2_army,
            variants=tuple(body.variants),
        )
    )
    if opening is not None:
        await hub.placement.execute(room, c.Role.SYSTEM, "", 0, opening)
    return room


@router.post("/tables", status_code=201, response_model=TableLinks)
async def create_table(body: QuickGameIn, hub: HubDep, base: BaseUrlDep) -> TableLinks:
    """Start a quick game; returns both seat links (with QR codes), watch and EO links.
    With `pregame`, the phones settle lists (written freely), the starting roll and
    sides first."""
    room = await create_quick_game(hub, body)
    return await links_of(room, base)


@router.get("/formats")
async def formats() -> list[dict[str, Any]]:
    return [
        {
            "id": f.id,
            "name": f.name,
            "player_clock_minutes": dict(f.player_clock_minutes),
            "default_points": f.default_points,
            "scenarios": [{"id": s.id, "name": s.name, "roll": s.roll} for s in f.scenarios],
            "lists": [
                {"lists": r.lists, "fewest": r.fewest, "most": r.most, "name": r.name}
                for r in f.list_rules
            ],
            "default_lists": f.default_lists,
            # Packs whose scenarios the EO may choose for a round of this format.
            "scenario_packs": list(f.scenario_packs),
            "engine": f.engine,
        }
        for f in FORMATS.values()
    ] + [other_game(g) for g in OTHER_GAMES]


def other_game(g: Any) -> dict[str, Any]:
    """A format of another game: a round timer and a game-round counter, scored by army
    value destroyed plus objectives (DC11, TS11)."""
    return {
        "id": g.id,
        "name": g.name,
        "engine": g.engine,
        "round_minutes": g.round_minutes,
        "final_minutes": g.final_minutes,
        "last_game_round": g.last_game_round,
        "most_army_points": g.most_army_points,
        "deployments": list(g.deployments),
        "objectives": list(g.objectives),
        "scenarios": [],
    }


@router.get("/tables/{table_id}/log", response_model=dict[str, Any])
async def table_log(
    table_id: str,
    hub: HubDep,
    request: Request,
    after: Annotated[int, Query(ge=0, lt=2**53)] = 0,
    limit: Annotated[int, Query(ge=1, le=LOG_PAGE)] = LOG_PAGE,
    x_table_token: Annotated[str | None, Header()] = None,
) -> Response:
    """Every tap, switch, score and undo with its server time (any of the table's links),
    a page at a time: `entries` after version `after`, and `next` to go on from (None: done).
    Pages share the socket's read budget (per table link and per address): past it, 429."""
    room = await hub.open(table_id)
    if room is None:
        raise HTTPException(404, f"no table {table_id!r}")
    link = room.tokens.role_for(x_table_token)
    if link is None:
        raise HTTPException(403, "this needs a link of this table (seat, watch or EO)")
    state = request.app.state
    budget: ReadBudget = state.read_budget
    address = request.client.host if request.client else "unknown"
    wait_s = budget.take(table_id, link, address)
    if wait_s is not None:
        return too_many(READ_REFUSED, wait_s)
    pages: LogPages = state.log_pages
    page = await pages.page(room.table_id, room.version, after, limit)
    return Response(page, media_type="application/json")


@router.get("/tables/{table_id}/story", response_model=dict[str, Any] | None)
async def table_story(
    table_id: str, hub: HubDep, x_table_token: Annotated[str | None, Header()] = None
) -> dict[str, Any] | None:
    """A finished game told again (any of the table's links): each player's clock time per
    turn, the CP after each turn and what decided it; null while the game goes on."""
    room = await hub.open(table_id)
    if room is None:
        raise HTTPException(404, f"no table {table_id!r}")
    if room.tokens.role_for(x_table_token) is None:
        raise HTTPException(403, "this needs a link of this table (seat, watch or EO)")
    if room.engine is not WARMACHINE or room.broken is not None:
        return None
    log = await run_in_threadpool(room.store.log, room.table_id, 0, room.version)
    return story_view(room.initial, room.game, log)


class RotateIn(BaseModel):
    link: str = Field(..., max_length=16, description="p1, p2 or watch: the link to replace")


@router.post("/tables/{table_id}/rotate", response_model=TableLinks)
async def rotate_link(
    table_id: str,
    body: RotateIn,
    hub: HubDep,
    base: BaseUrlDep,
    request: Request,
    x_table_token: Annotated[str | None, Header()] = None,
    x_eo_token: Annotated[str | None, Header()] = None,
) -> TableLinks:
    """A lost phone: the EO replaces a seat or watch link; the old one stops working."""
    room = hub.get(table_id)
    if room is None:
        raise HTTPException(404, f"no table {table_id!r}")
    allowed = room.tokens.role_for(x_table_token) == "eo"
    if not allowed and room.meta is not None:
        events = request.app.state.events
        with contextlib.suppress(RuleError):
            allowed = events.authorize(room.meta.event_id, x_eo_token) is not None
    if not allowed:
        raise HTTPException(403, "only the organiser replaces links: open this from the EO's link")
    if body.link not in ("p1", "p2", "watch"):
        raise HTTPException(400, "link must be p1, p2 or watch")
    room.replace_token(body.link, new_token())
    return await links_of(room, base)
