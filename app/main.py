"""App factory: store, live tables and routers wired in the lifespan."""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.api import errors, events, pages, rest, tournament, ws
from app.api.guard import ClientLimits, Heartbeats
from app.api.hardening import ClientGuard, SecurityHeaders
from app.collector import pace_collector
from app.events.dashboard import Dashboards
from app.events.service import EventService
from app.settings import Settings
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import SystemTime, TimeSource


def create_app(
    settings: Settings | None = None,
    time: TimeSource | None = None,
    io_time: TimeSource | None = None,
) -> FastAPI:
    """`time` runs the game clocks; `io_time` the sockets' heartbeat and rate limits."""
    settings = settings or Settings.from_env()
    clock = time or SystemTime()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        rng = random.Random(settings.seed)
        hub = TableHub(store, clock, rng)
        hub.load()
        gc.collect()
        gc.freeze()  # what was loaded lives as long as the server: keep it out of the collector
        hub.start_timers()
        dashboards = Dashboards(clock)
        hub.listeners.append(dashboards.table_changed)
        service = EventService(store, hub, clock, rng, settings.players_per_event)
        service.listeners.append(service.read_models.publisher(dashboards))
        service.start_timers()
        app.state.hub = hub
        app.state.events = service
        app.state.dashboards = dashboards
        heartbeats = Heartbeats(app.state.io_time, settings.heartbeat_ms)
        app.state.heartbeats = heartbeats
        sweeper = asyncio.create_task(heartbeats.run())
        unloader = asyncio.create_task(hub.unload_forever())
        io_time: TimeSource = app.state.io_time
        collector = asyncio.create_task(pace_collector(io_time.now_ms, heartbeats.churn))
        try:
            yield
        finally:
            collector.cancel()
            sweeper.cancel()
            unloader.cancel()
            await service.close()
            await hub.close()
            store.close()

    app = FastAPI(title="Deathclock", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.state.io_time = io_time or SystemTime()

    errors.install(app)

    app.include_router(rest.router)
    app.include_router(ws.router)
    app.include_router(tournament.router)
    app.include_router(events.router)
    app.include_router(events.socket_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.WEB / "static"), name="static")
    limits = ClientLimits(app.state.io_time, settings.client_per_s, settings.client_burst)
    app.state.client_limits = limits
    app.add_middleware(ClientGuard, limits=limits)
    app.add_middleware(SecurityHeaders)  # outermost: a refusal gets the headers too
    return app
