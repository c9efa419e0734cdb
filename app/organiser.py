"""The organiser's side of the server: the event's use cases (app.events.service) and every
router of pages and REST, the players' and the EO's.

A start imports it only once the tables' phones are served (app.organiser_door): it is
most of what the server imports (SQLModel's event records, some ninety routes, each
analysed by FastAPI as it is declared), and a phone whose table runs needs none of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fastapi import FastAPI

from app.api import (
    discipline,
    event_control,
    events,
    exports,
    pages,
    player,
    prizes,
    rest,
    seasons,
    tournament,
)
from app.cluster.cluster import Cluster
from app.events.dashboard import Dashboards
from app.events.service import EventService
from app.settings import Settings
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.timesource import TimeSource

ROUTERS = (
    rest.router,
    tournament.router,
    events.router,
    event_control.router,
    events.socket_router,
    prizes.router,
    discipline.router,
    exports.router,
    player.router,
    player.pages,
    pages.router,
    seasons.router,
)


@dataclass(frozen=True, slots=True)
class Parts:
    """What the organiser's side is built on: the lifespan's, already running."""

    settings: Settings
    store: Store
    hub: TableHub
    time: TimeSource
    rng: random.Random
    placement: Placement
    dashboards: Dashboards
    cluster: Cluster | None


def open_organiser(app: FastAPI, parts: Parts) -> EventService:
    """The event's use cases wired to the tables, the dashboards and the other workers,
    their round timers started, and every router of pages and REST in the app."""
    service = EventService(
        parts.store,
        parts.hub,
        parts.time,
        parts.rng,
        parts.settings.players_per_event,
        parts.placement,
    )
    service.book.listeners.append(service.read_models.publisher(parts.dashboards))
    if parts.cluster is not None:
        service.book.listeners.append(parts.cluster.event_changed)
        parts.cluster.event_listeners.append(service.book.changed)
        parts.cluster.event_listeners.append(service.round_clock.follow)
    service.round_clock.start_timers()
    app.state.events = service
    include_routes(app)
    return service


def include_routes(app: FastAPI) -> None:
    """Every router of pages and REST in the app, once (an app started again has them)."""
    if not getattr(app.state, "organiser_routes", False):
        for router in ROUTERS:
            app.include_router(router)
        app.state.organiser_routes = True
