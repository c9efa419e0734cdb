"""Service tests' rounds played the quick way: every table's first seat wins by the EO's
entry (3 CP to 1, 30 APD to 10)."""

from __future__ import annotations

from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult
from app.tables.room import TableRoom


def round_tables(service: EventService, event_id: str, number: int) -> list[TableRoom]:
    return [r for r in service.tables.rooms(event_id) if r.meta and r.meta.round_number == number]


async def first_seats_win(service: EventService, event_id: str, number: int) -> list[str]:
    """Every table of the round goes to its first seat: the losers' ids."""
    won = TableResult.from_wire(
        {"winner": "p1", "control_points": [3, 1], "army_points_destroyed": [30, 10]}
    )
    losers = []
    for room in round_tables(service, event_id, number):
        assert await service.results.enter(event_id, room.table_id, won)
        assert room.meta is not None
        losers.append(room.meta.p2_player)
    return losers


async def round_one_played(
    service: EventService, spec: EventSpec, names: tuple[str, ...]
) -> tuple[str, list[str]]:
    """A new event of these players, round 1 paired, started and won by the first seats:
    the event's id and round 1's losers."""
    event = service.registration.create_event(spec)
    for name in names:
        service.registration.add_player(event.id, name, "Cygnar")
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    return event.id, await first_seats_win(service, event.id, 1)


async def cut_day_after_round_one(service: EventService) -> str:
    """Cut to Top 4 with eight players, round 1 played (four undefeated: the cut is due
    when round 2 is paired)."""
    names = tuple(f"Player {n + 1}" for n in range(8))
    spec = EventSpec(name="Cut", points=75, cut_to_top=4)
    return (await round_one_played(service, spec, names))[0]
