"""Event REST API: creating and reading an event, the EO's log, the standings and a
player's record sheet, and the EO dashboard socket. The players', rounds' and results'
routes (app.api.event_players, event_rounds, event_results) ride on its router.

Reading an event (pairings, standings, round clock) is public; everything that
changes it needs the EO token in the `X-EO-Token` header, never in a URL.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, Field

from app.api import event_players, event_results, event_rounds
from app.api.deps import BaseUrlDep
from app.api.event_deps import EoToken, EventsDep
from app.api.guard import error_message, open_socket, refuse, serve, token_matches
from app.api.hardening import StrictJsonRoute
from app.api.limits import Heartbeats, rate_limit
from app.domain.army_lists import ROSTER_HELP
from app.domain.errors import NotFound
from app.domain.formats import FORMATS
from app.domain.standings import record_sheet
from app.domain.variants import HELP as VARIANTS_HELP
from app.events.base import EventSpec
from app.events.dashboard import Dashboards
from app.events.eo_log import log_rows
from app.events.service import EventService
from app.tables import protocol
from app.tables.fanout import Subscriber
from app.tables.jsontext import loads

#: A dashboard's first message is every table of the event (~1.3 kB a table).
DASHBOARD_QUEUE_BYTES = 16 << 20

router = APIRouter(prefix="/api/events", route_class=StrictJsonRoute)
socket_router = APIRouter()
for part in (event_players.router, event_rounds.router, event_results.router):
    router.include_router(part)  # the event's other jobs, under the same prefix


STANDINGS_HELP = "the final standings' order: baseline, assassin, control, destruction or finals"


def _lists_choices() -> str:
    """The `lists` setting each format takes, as its document says (its default first)."""
    parts = []
    for fmt in FORMATS.values():
        choices = " or ".join(f"{r.lists} ({r.name})" for r in fmt.list_rules)
        default = "required" if fmt.default_lists is None else f"default {fmt.default_lists}"
        parts.append(f"{fmt.id} {choices}, {default}")
    return "army lists per player, by format: " + "; ".join(parts)


LISTS_CHOICES = _lists_choices()


class EventIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=120)
    format: str = Field("sr2019", max_length=32, description="a format id (GET /api/formats)")
    points: int = Field(
        75, ge=0, le=1000, description="event point size (sets the Deathclock, DC1)"
    )
    lists: int | None = Field(None, ge=1, le=3, description=LISTS_CHOICES)
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
    fresh_tables: bool = Field(
        False, description="nobody at the same table number twice where the pairings allow it"
    )
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


@router.post("", status_code=201, response_model=EventCreated)
async def create_event(body: EventIn, service: EventsDep, base: BaseUrlDep) -> EventCreated:
    """Create an event; the EO token comes back once, in the body and the admin link."""
    event = service.registration.create_event(
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
            fresh_tables=body.fresh_tables,
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


@router.get("/{event_id}/actions")
async def eo_actions(
    event_id: str, service: EventsDep, token: EoToken = None
) -> list[dict[str, Any]]:
    service.authorize(event_id, token)
    return log_rows(service.book.actions(event_id), service.book.players(event_id))


@router.get("/{event_id}/standings")
async def get_standings(event_id: str, service: EventsDep) -> list[dict[str, Any]]:
    """ST1: TP, SoS, CP, APD (an event run by its own policy: its own, e.g. ST5)."""
    policy = service.tournaments.of_event(event_id)
    if policy is not None:
        return [s.row() for s in policy.standings(event_id)]
    return [asdict(s) for s in service.results.standings(event_id)]


@router.get("/{event_id}/players/{player_id}/sheet")
async def player_sheet(event_id: str, player_id: str, service: EventsDep) -> dict[str, Any]:
    """ST6: the player's record sheet."""
    records = service.results.player_records(event_id)
    player = next((p for p in records if p.id == player_id), None)
    if player is None:
        raise NotFound(f"no player {player_id!r} in this event")
    return {
        "player": {"id": player.id, "name": player.name, "faction": player.faction},
        "rounds": record_sheet(player, records, service.results.tie_word(event_id)),
        "penalties": service.discipline.record(event_id, player_id),
    }


@socket_router.websocket("/ws/events/{event_id}")
async def dashboard_socket(websocket: WebSocket, event_id: str) -> None:
    """Send {"t":"hello","token":<EO token or "">}; get a snapshot, then coalesced updates."""
    service: EventService = websocket.app.state.events
    dashboards: Dashboards = websocket.app.state.dashboards
    try:
        admin_token: str | None = service.book.event(event_id).admin_token
    except NotFound:
        admin_token = None
    text = await open_socket(websocket, "such event", admin_token is not None)
    if text is None or admin_token is None:
        return
    try:
        hello = loads(text)
    except ValueError:
        await refuse(websocket, "bad_input", "send hello with the EO token, or none", 4400)
        return
    token = hello.get("token") if isinstance(hello, dict) else None
    role = "eo" if token_matches(token, admin_token) else "public"
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
