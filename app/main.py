"""App factory: the store and the live tables wired in the lifespan; the organiser's side
(app.organiser) behind its door (app.organiser_door)."""

from __future__ import annotations

import asyncio
import functools
import gc
import importlib
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig

from app.api import errors, page_templates, ws
from app.api.budgets import ReadBudget
from app.api.hardening import BodyLimit, ClientGuard, SecurityHeaders
from app.api.limits import ClientLimits, Heartbeats
from app.cluster.backplane import Backplane, RedisBroadcast
from app.cluster.cluster import Cluster, new_worker_id
from app.collector import CROWD, Census, pace_collector
from app.events.dashboard import Dashboards
from app.organiser_door import OrganiserDoor, OrganiserGate
from app.quiet_logs import quiet_socket_logs
from app.settings import Settings
from app.store.lease import Leases
from app.store.log_rows import log_rows
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.log_page import LogPages
from app.tables.placement import Placement
from app.tables.timesource import SystemTime, TimeSource


def census_of(heartbeats: Heartbeats, hub: TableHub) -> Census:
    """What the collector's pace reads of the sockets and tables (app.collector). A socket
    that closes leaves nothing for the collector (app.sockets): only the tables let go
    count towards a full walk."""
    return Census(
        churn=heartbeats.churn(),
        released=hub.released,
        held=len(heartbeats.heard) + len(hub.rooms),
    )


def create_app(
    settings: Settings | None = None,
    time: TimeSource | None = None,
    io_time: TimeSource | None = None,
) -> FastAPI:
    """`time` runs the game clocks; `io_time` the sockets' heartbeat and rate limits."""
    quiet_socket_logs()
    settings = settings or Settings.from_env()
    clock = time or SystemTime()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        rng = random.Random(settings.seed)
        cluster = None
        if settings.clustered:
            problem = settings.cluster_problem()
            if problem is not None:
                raise RuntimeError(problem)
            worker_id = new_worker_id()
            backplane = Backplane(settings.redis_url, settings.redis_prefix, worker_id)
            hub = TableHub(store, clock, rng, RedisBroadcast(backplane))
            hub.load(events_only=True)  # the dashboards'; the others as phones open them
            leases = Leases(store.engine, worker_id, settings.lease_ms, life_line=True)
            cluster = Cluster(hub, backplane, leases)
            await cluster.start()
        else:
            hub = TableHub(store, clock, rng)
            hub.load(later=True)  # the event tables; quick games right after (load_later)
        if settings.seed is not None:  # a seeded server rolls the same dice each run
            dice = random.Random(f"dice:{settings.seed}")
            hub.dice = lambda: random.Random(dice.random())
        app.state.cluster = cluster
        #: Where a table's commands are applied (a socket's, the organiser's, the server's
        #: timers'): here, or at the worker that owns the table.
        placement: Placement = hub.placement
        app.state.placement = placement
        gc.collect()
        gc.freeze()  # what was loaded lives as long as the server: only a full collection walks it
        hub.start_timers()
        dashboards = Dashboards(clock)
        hub.listeners.append(dashboards.table_changed)

        async def open_organiser_side() -> None:
            # Imported in a thread of its own: the loop serves the tables meanwhile.
            await asyncio.to_thread(importlib.import_module, "app.organiser")
            from app.organiser import Parts, open_organiser

            parts = Parts(settings, store, hub, clock, rng, placement, dashboards, cluster)
            open_organiser(app, parts)

        door = OrganiserDoor(open_organiser_side)
        app.state.organiser_door = door
        app.state.hub = hub
        app.state.log_pages = LogPages(functools.partial(log_rows, store.engine))
        app.state.dashboards = dashboards
        heartbeats = Heartbeats(app.state.io_time, settings.heartbeat_ms)
        app.state.heartbeats = heartbeats
        sweeper = asyncio.create_task(heartbeats.run())
        unloader = asyncio.create_task(hub.unload_forever())
        # The quick games in play, read while the first sockets are served. They stay in
        # the collector: the sockets' objects, alive by then, must not be frozen with them
        # (a cycle through a frozen object is never collected), nor must a quick game that
        # leaves memory later.
        loader = asyncio.create_task(hub.load_later())
        io_time: TimeSource = app.state.io_time
        opener = asyncio.create_task(door.open_when_settled(io_time.now_ms, heartbeats.churn))

        census = functools.partial(census_of, heartbeats, hub)
        collector = asyncio.create_task(pace_collector(io_time.now_ms, census, crowd=CROWD))
        try:
            yield
        finally:
            loader.cancel()
            opener.cancel()
            door.close()
            collector.cancel()
            sweeper.cancel()
            unloader.cancel()
            if door.is_open:
                await app.state.events.close()
            if cluster is not None:
                await cluster.close()
            await hub.close()
            app.state.log_pages.close()
            store.close()

    # No OpenTelemetry: the server sets no provider up, and FastAPI would otherwise look
    # the global ones up again for every request and every socket.
    no_telemetry: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
    app = FastAPI(title="Deathclock", version="0.1.0", lifespan=lifespan, telemetry=no_telemetry)
    app.state.settings = settings
    app.state.io_time = io_time or SystemTime()

    errors.install(app)
    whole_schema = app.openapi

    def openapi() -> dict[str, Any]:
        """The whole API's schema: the organiser's routes in it before a start opens them."""
        from app.organiser import include_routes

        include_routes(app)
        return whole_schema()

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/health", include_in_schema=False)
    async def health(request: Request) -> JSONResponse:
        """Whether this worker takes commands; with several workers, Redis and its lease."""
        cluster: Cluster | None = getattr(request.app.state, "cluster", None)
        if cluster is None:
            return JSONResponse({"status": "ok"})
        body = cluster.health()
        ok = body["redis"] == "ok" and body["lease"] == "ok"
        body["status"] = "ok" if ok else "server trouble"
        return JSONResponse(body, status_code=200 if ok else 503)

    app.mount("/static", StaticFiles(directory=page_templates.WEB / "static"), name="static")
    limits = ClientLimits(app.state.io_time, settings.client_per_s, settings.client_burst)
    app.state.client_limits = limits
    app.state.read_budget = ReadBudget.from_settings(settings, app.state.io_time)
    app.add_middleware(OrganiserGate)  # the pages and REST wait for the organiser's side
    app.add_middleware(ws.TableSockets)  # inside the guard: a socket spends its budget first
    app.add_middleware(BodyLimit)  # a body past its limit is refused as it streams in
    app.add_middleware(ClientGuard, limits=limits)
    app.add_middleware(SecurityHeaders)  # outermost: a refusal gets the headers too
    return app
