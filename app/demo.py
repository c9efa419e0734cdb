"""`deathclock demo`: a running 12-player event, round 2 under way at different turns.

Round 1 is played out in the past; round 2 started 35 minutes ago: its tables stand at
different turns with control points scored and kill boxes called, one is paused, and
two are already over (one confirmed, one waiting for a confirmation). The games are
played through the real table rooms with a clock that runs in the past, so the
server that loads the database continues every running clock from the true now.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from types import MappingProxyType

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.game import Phase, apply
from app.domain.scenarios import ElementKind
from app.events.base import EventSpec
from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.placement import Alone
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

PLAYERS = [
    ("Ana Reyes", "Cygnar"),
    ("Ben Okafor", "Khador"),
    ("Chloe Martin", "Trollbloods"),
    ("Dmitri Volkov", "Cryx"),
    ("Erin Walsh", "Legion of Everblight"),
    ("Farid Haddad", "Protectorate of Menoth"),
    ("Grace Kim", "Circle Orboros"),
    ("Hugo Brandt", "Convergence of Cyriss"),
    ("Isla Moreau", "Retribution of Scyrah"),
    ("Jonas Berg", "Skorne"),
    ("Kofi Mensah", "Grymkin"),
    ("Lena Fischer", "Infernals"),
]

MIN = 60_000
#: The demo is one process: its tables' commands are applied here.
HERE = Alone()


@dataclass(frozen=True, slots=True)
class DemoEvent:
    event_id: str
    admin_token: str


def _scoring(room: TableRoom, rng: random.Random | None) -> c.Scoring:
    """Who controls what at a turn end: nothing in round 1; in round 2 now and then the
    active player holds an element, now and then the opponent contests one."""
    if rng is None:
        return c.Scoring()
    elements = [e.id for e in room.game.scenario.elements if e.kind is not ElementKind.OBJECTIVE]
    control = {}
    if elements and rng.random() < 0.6:
        control[rng.choice(elements)] = room.game.active
    if elements and rng.random() < 0.2:
        control[rng.choice(elements)] = room.game.active.other
    return c.Scoring(control=MappingProxyType(control))


async def _tap(
    room: TableRoom, device: str, seq: int, rng: random.Random | None = None, end: bool = False
) -> None:
    """A clock tap; with `rng`, the turn end scores and now and then calls a kill box,
    without ending the game unless `end` (a scenario victory)."""
    game = room.game
    command = c.PassTurn(expect=game.active)
    if game.phase is Phase.TURN and (game.kill_box_due or game.scoring_due):
        kill_box = bool(rng and rng.random() < 0.15) if game.kill_box_due else None
        scoring = _scoring(room, rng) if game.scoring_due else None
        command = c.PassTurn(game.active, c.TurnEnd(kill_box=kill_box, scoring=scoring))
        ended = apply(game, game.active, command, room.time.now_ms()).phase is Phase.OVER
        if ended and not end and not game.last_turn:  # a lead that would end it: not yet
            quiet = c.TurnEnd(
                kill_box=False if game.kill_box_due else None,
                scoring=c.Scoring() if game.scoring_due else None,
            )
            command = c.PassTurn(game.active, quiet)
    await HERE.execute(room, game.active, device, seq, command)


async def _first_player(room: TableRoom, rng: random.Random) -> None:
    """Off the clock: the dice rolled at the table, the winner goes first or second, and
    the first player starts deployment."""
    first, second = rng.sample(range(1, 7), 2)
    winner = Side.P1 if first > second else Side.P2
    await HERE.execute(room, winner, "demo-first", 1, c.StartingRoll(at_table=(first, second)))
    await HERE.execute(room, winner, "demo-first", 2, c.ChooseOrder(first=rng.random() < 0.7))
    await HERE.execute(room, Side.P1, "demo-first", 3, c.StartClock())


async def _finish(room: TableRoom, rng: random.Random, confirm: bool) -> None:
    """A round-2 game that is over: reports in, confirmed by one or both players."""
    game = room.game
    if game.phase is not Phase.OVER:
        loser = Side(rng.randint(0, 1))
        await HERE.execute(room, loser, "demo", 200, c.CasterDestroyed())
    if room.game.final_scoring_due:
        await HERE.execute(room, Side.P1, "demo", 201, c.FinalScoring(_scoring(room, rng)))
    for side in Side:
        apd = rng.randint(10, 60)
        await HERE.execute(room, side, f"demo-{side.label}", 202, c.ReportGame(apd, None, "List 1"))
    for side in Side if confirm else (Side.P1,):
        await HERE.execute(room, side, f"demo-{side.label}", 203, c.ConfirmResult())


async def _play_out(room: TableRoom, clock: FakeTime, rng: random.Random) -> None:
    """Round 1: deployment, a few turns, then an assassination, reports and confirmations."""
    for seq in range(1, 4 + rng.randint(2, 6)):
        clock.advance(rng.randint(20, 60) * 1000)
        await _tap(room, "demo", seq)
    loser = Side(rng.randint(0, 1))
    await HERE.execute(room, loser, "demo", 100, c.CasterDestroyed())
    if room.game.final_scoring_due:
        await HERE.execute(room, loser.other, "demo", 101, c.FinalScoring(c.Scoring()))
    for side in Side:
        apd = rng.randint(20, 60) if side is loser.other else rng.randint(5, 40)
        await HERE.execute(room, side, f"demo-{side.label}", 102, c.ReportGame(apd, None, "List 1"))
    for side in Side:
        await HERE.execute(room, side, f"demo-{side.label}", 103, c.ConfirmResult())


async def build_demo(database_url: str, now_ms: int | None = None) -> DemoEvent:
    real_now = now_ms if now_ms is not None else time.time_ns() // 1_000_000
    clock = FakeTime(real_now - 150 * MIN)
    rng = random.Random(2019)
    store = Store(database_url)
    hub = TableHub(store, clock, rng)
    hub.load()
    service = EventService(store, hub, clock, rng)
    try:
        event = service.registration.create_event(EventSpec(name="Demo Steamroller", points=75))
        for name, faction in PLAYERS:
            service.registration.add_player(event.id, name, faction, "List 1, List 2")

        service.rounds.pair_next(event.id)
        await service.rounds.start(event.id)
        for room in service.tables.rooms(event.id):
            await _first_player(room, rng)
            await _play_out(room, clock, rng)

        clock.advance(real_now - 35 * MIN - clock.now_ms())
        service.rounds.pair_next(event.id)
        await service.rounds.start(event.id)
        tables = [r for r in service.tables.rooms(event.id) if r.meta and r.meta.round_number == 2]
        for room in tables:
            await _first_player(room, rng)
        # Each table's taps spread over the round so far (both clocks used alike), the
        # tables' taps interleaved in time order.
        start = clock.now_ms()
        taps = []
        for i in range(len(tables)):
            count = min(4 + i * 2, 13)
            step = 30 * MIN // count
            taps += [(start + k * step + rng.randint(0, step // 3), i) for k in range(1, count + 1)]
        for seq, (at_ms, i) in enumerate(sorted(taps), start=1):
            clock.advance(at_ms - clock.now_ms())
            if tables[i].game.phase is not Phase.OVER:
                await _tap(tables[i], "demo", seq, rng)
        for room, confirm in zip(reversed(tables[3:]), (True, False), strict=False):
            await _finish(room, rng, confirm)
        if len(tables) > 2:
            await HERE.execute(tables[2], c.Role.EO, "", 0, c.PauseClock())
        return DemoEvent(event.id, event.admin_token)
    finally:
        await service.close()
        await hub.close()
        store.close()


def run_demo(database_url: str, base_url: str) -> DemoEvent:
    demo = asyncio.run(build_demo(database_url))
    base = base_url.rstrip("/")
    print(f"Demo event ready in {database_url}")
    print(f"  dashboard: {base}/e/{demo.event_id}/dashboard#k={demo.admin_token}")
    print(f"  EO admin:  {base}/e/{demo.event_id}/admin#k={demo.admin_token}")
    print(f"  public:    {base}/e/{demo.event_id}")
    return demo
