"""Event REST API and the EO dashboard socket.

Reading an event (pairings, standings, round clock) is public; everything that
changes it needs the EO token in the `X-EO-Token` header, never in a URL.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from app.api.deps import BaseUrlDep
from app.api.guard import (
    Heartbeats,
    error_message,
    open_socket,
    rate_limit,
    refuse,
    serve,
    token_matches,
)
from app.api.hardening import StrictJsonRoute
from app.api.rest import table_links
from app.domain.army_lists import HELP as LISTS_HELP
from app.domain.army_lists import ROSTER_HELP
from app.domain.errors import BadInput, NotFound
from app.domain.standings import record_sheet
from app.domain.variants import HELP as VARIANTS_HELP
from app.events.dashboard import Dashboards, summary
from app.events.service import EventService, EventSpec
from app.events.table_result import TableResult
from app.store.models import EventRecord
from app.tables import protocol
from app.tables.fanout import Subscriber
from app.tables.jsontext import loads

#: A dashboard's first message is every table of the event (~1.3 kB a table).
DASHBOARD_QUEUE_BYTES = 16 << 20

router = APIRouter(prefix="/api/events", route_class=StrictJsonRoute)
socket_router = APIRouter()


async def get_events(conn: HTTPConnection) -> EventService:
    service: EventService = conn.app.state.events
    return service


EventsDep = Annotated[EventService, Depends(get_events)]
EoToken = Annotated[str | None, Header(alias="X-EO-Token")]


STANDINGS_HELP = "ST2: baseline, assassin, control, destruction or finals"


class EventIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=120)
    format: str = Field("sr2019", max_length=32, description="a format id (GET /api/formats)")
    points: int = Field(
        75, ge=0, le=1000, description="event point size (sets the Deathclock, DC1)"
    )
    lists: int | None = Field(
        None,
        ge=1,
        le=3,
        description="army lists per player: sr2019 1-3 (default 1); masters2019 2 (Dyad) "
        "or 3 (Trinity), required; champions2019 2 (1 list, a 2nd optional)",
    )
    fixed_rounds: int | None = Field(None, ge=1, le=12)
    clock_minutes: int | None = Field(
        None, ge=1, le=360, description="player clock in minutes; omitted = the format's (DC1)"
    )
    cut_to_top: int | None = Field(
        None,
        ge=2,
        le=1024,
        description="Cut to Top X: any X from 2 to the number of players (RP1)",
    )
    standings: str = Field("baseline", max_length=32, description=STANDINGS_HELP)
    painting_category: str = Field("", max_length=60, description="Best-Painted category (ST3)")
    pregame: bool = Field(False, description="lists, starting roll and sides on the phones")
    variants: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=12, description=VARIANTS_HELP
    )
    active_duty_roster: str = Field(
        "", max_length=8000, description="champions2019: the Active Duty Roster. " + ROSTER_HELP
    )
    structure: str = Field(
        "",
        max_length=16,
        description="runewars2017 without fixed_rounds: 'basic' (default) or 'advanced', "
        "the Swiss rounds and cut by attendance (RP6)",
    )
    army_lists: bool = Field(
        False, description="runewars2017: each player registers with an army list, checked"
    )
    season: str = Field(
        "",
        max_length=16,
        description="runewars2017: the season of deployments and objectives, 'july2017' "
        "(default) or 'october2017'",
    )


class EventCreated(BaseModel):
    id: str
    admin_token: str
    admin_url: str
    public_url: str
    dashboard_url: str


class PlayerIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=60)
    faction: str = Field("", max_length=60)
    lists: str = Field("", max_length=8000, description=LISTS_HELP)
    list_note: str = Field("", max_length=300, description="the EO lets refused lists stand")
    painted: bool | None = Field(
        None,
        description="the army meets the event's Painting Required standard "
        "(omitted: as before; a new player: no)",
    )


class DropIn(BaseModel):
    dropped: bool = True


class RoundIn(BaseModel):
    scenario: str | None = Field(
        None, max_length=64, description="scenario id, or of a pack it allows; omitted: rolled"
    )


class SwapIn(BaseModel):
    a: str = Field(..., max_length=64)
    b: str = Field(..., max_length=64)


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


@router.post("", status_code=201, response_model=EventCreated)
async def create_event(body: EventIn, service: EventsDep, base: BaseUrlDep) -> EventCreated:
    """Create an event; the EO token comes back once, in the body and the admin link."""
    event = service.create_event(
        EventSpec(
            name=body.name,
            format_id=body.format,
            points=body.points,
            lists=body.lists,
            fixed_rounds=body.fixed_rounds,
            cut_to_top=body.cut_to_top,
            standings=body.standings,
            painting_category=body.painting_category,
            clock_minutes=body.clock_minutes,
            pregame=body.pregame,
            variants=tuple(body.variants),
            roster=body.active_duty_roster,
            structure=body.structure,
            season=body.season,
            army_lists=body.army_lists,
        )
    )
    return EventCreated(
        id=event.id,
        admin_token=event.admin_token,
        admin_url=f"{base}e/{event.id}/admin#k={event.admin_token}",
        public_url=f"{base}e/{event.id}",
        dashboard_url=f"{base}e/{event.id}/dashboard#k={event.admin_token}",
    )


@router.get("/{event_id}")
async def get_event(event_id: str, service: EventsDep) -> dict[str, Any]:
    """Public: the event, its players, rounds with pairings and results, standings."""
    return service.read_models.event_view(event_id)


@router.get("/{event_id}/admin")
async def get_event_admin(
    event_id: str, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    service.authorize(event_id, token)
    return service.read_models.event_view(event_id, admin=True)


@router.post("/{event_id}/players", status_code=201)
async def add_player(
    event_id: str, body: PlayerIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    service.authorize(event_id, token)
    player = service.add_player(
        event_id, body.name, body.faction, body.lists, body.list_note, bool(body.painted)
    )
    return player.model_dump()


@router.put("/{event_id}/players/{player_id}")
async def edit_player(
    event_id: str, player_id: str, body: PlayerIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    service.authorize(event_id, token)
    return service.edit_player(
        event_id, player_id, body.name, body.faction, body.lists, body.list_note, body.painted
    ).model_dump()


@router.post("/{event_id}/players/{player_id}/drop")
async def drop_player(
    event_id: str, player_id: str, body: DropIn, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """RP7: drop (or rejoin) a player."""
    service.authorize(event_id, token)
    return service.drop_player(event_id, player_id, body.dropped).model_dump()


@router.post("/{event_id}/players/import")
async def import_players(
    event_id: str, request: Request, service: EventsDep, token: EoToken = None
) -> dict[str, Any]:
    """CSV body with a header row: name, faction, lists, painted (yes/no)."""
    service.authorize(event_id, token)
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("the CSV must be UTF-8 text") from None
    added, errors = service.import_players(event_id, text)
    return {"added": [p.model_dump() for p in added], "errors": errors}


@router.post("/{event_id}/rounds", status_code=201)
async def pair_round(
    event_id: str,
    body: RoundIn,
    service: EventsDep,
    token: EoToken = None,
) -> dict[str, Any]:
    """Pair the next round (RP2/RP3) with its scenario (RP4) and open its tables."""
    service.authorize(event_id, token)
    entry = service.pair_next_round(event_id, body.scenario)
    return service.read_models.round_view(event_id, entry.number, admin=True)


@router.post("/{event_id}/rounds/current/swap")
async def swap_players(
    event_id: str,
    body: SwapIn,
    service: EventsDep,
    token: EoToken = None,
) -> dict[str, Any]:
    service.authorize(event_id, token)
    warnings = service.swap(event_id, body.a, body.b)
    return {"warnings": warnings}


@router.post("/{event_id}/rounds/current/start")
async def start_round(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, Any]:
    """Start every table's clock; the round's expected end is set (DC4)."""
    service.authorize(event_id, token)
    entry = await service.start_round(event_id)
    return {
        "number": entry.number,
        "started_ms": entry.started_ms,
        "expected_end_ms": entry.expected_end_ms,
    }


@router.post("/{event_id}/rounds/current/end")
async def end_round(event_id: str, service: EventsDep, token: EoToken = None) -> dict[str, str]:
    """DC8 now (it also runs by itself at the round's expected end)."""
    service.authorize(event_id, token)
    calls = await service.call_round_end(event_id)
    return calls


@router.get("/{event_id}/tables")
async def event_tables(
    event_id: str, service: EventsDep, base: BaseUrlDep, token: EoToken = None
) -> list[dict[str, Any]]:
    """EO: every table of the event with its seat links and QR codes (table cards)."""
    service.authorize(event_id, token)
    now = service.time.now_ms()
    rooms = service.rooms(event_id)
    links = await run_in_threadpool(lambda: [table_links(r, base).model_dump() for r in rooms])
    return [
        {"round": r.meta.round_number if r.meta else None, "links": link, **summary(r, now)}
        for r, link in zip(rooms, links, strict=True)
    ]


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
    policy = service.tournament(event_id)
    if policy is not None:
        return await policy.enter_result(event_id, table_id, body)
    form = _result_in(body)
    result = TableResult.from_wire(form.model_dump())
    await service.enter_result(event_id, table_id, result, form.reason)
    entered = service.table_result(event_id, table_id)
    return {} if entered is None else entered.as_json()


def _result_in(body: dict[str, Any]) -> ResultIn:
    """A Warmachine table's result, its mistakes answered as a request's body's (422)."""
    try:
        return ResultIn.model_validate(body)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        ) from None


@router.get("/{event_id}/actions")
async def eo_actions(
    event_id: str, service: EventsDep, token: EoToken = None
) -> list[dict[str, Any]]:
    service.authorize(event_id, token)
    return [
        {"at_ms": a.at_ms, "action": a.action, **json.loads(a.detail_json)}
        for a in service.actions(event_id)
    ]


@router.get("/{event_id}/standings")
async def get_standings(event_id: str, service: EventsDep) -> list[dict[str, Any]]:
    """ST1: TP, SoS, CP, APD (an event run by its own policy: its own, e.g. ST5)."""
    policy = service.tournament(event_id)
    if policy is not None:
        return [s.row() for s in policy.standings(event_id)]
    return [asdict(s) for s in service.standings(event_id)]


@router.get("/{event_id}/players/{player_id}/sheet")
async def player_sheet(event_id: str, player_id: str, service: EventsDep) -> dict[str, Any]:
    """ST6: the player's record sheet."""
    records = service.player_records(event_id)
    player = next((p for p in records if p.id == player_id), None)
    if player is None:
        raise NotFound(f"no player {player_id!r} in this event")
    return {
        "player": {"id": player.id, "name": player.name, "faction": player.faction},
        "rounds": record_sheet(player, records, service.tie_word(event_id)),
    }


@socket_router.websocket("/ws/events/{event_id}")
async def dashboard_socket(websocket: WebSocket, event_id: str) -> None:
    """Send {"t":"hello","token":<EO token or "">}; get a snapshot, then coalesced updates."""
    service: EventService = websocket.app.state.events
    dashboards: Dashboards = websocket.app.state.dashboards
    try:
        event: EventRecord | None = service.event(event_id)
    except NotFound:
        event = None
    text = await open_socket(websocket, "such event", event is not None)
    if text is None or event is None:
        return
    try:
        hello = loads(text)
    except ValueError:
        await refuse(websocket, "bad_input", "send hello with the EO token, or none", 4400)
        return
    token = hello.get("token") if isinstance(hello, dict) else None
    role = "eo" if token_matches(token, event.admin_token) else "public"
    sub = Subscriber(role, limit_bytes=DASHBOARD_QUEUE_BYTES)
    dashboard = dashboards.get(event_id)
    build = partial(service.read_models.dashboard_snapshot, event_id, role)
    dashboard.join(sub, dashboard.snapshot_text(role, build))

    heartbeats: Heartbeats = websocket.app.state.heartbeats
    rate = rate_limit(websocket.app.state.settings, websocket.app.state.io_time)

    async def handle(msg: protocol.ClientMessage) -> None:
        if isinstance(msg, protocol.Ping):
            sub.offer(protocol.pong(msg, service.time.now_ms()))
        elif isinstance(msg, protocol.Sync):
            sub.offer(dashboard.snapshot_text(role, build))  # built once per change
        else:
            sub.offer(error_message("bad_input", "a dashboard sends ping and sync only"))

    # A dashboard that stops reading is dropped (1013) and resyncs, like a phone.
    try:
        await serve(websocket, sub, heartbeats, rate, handle)
    finally:
        dashboard.leave(sub)
