"""Read models: built from one query set, once per change of the event, and every
use case that changes an event says so ("changed")."""

from __future__ import annotations

import asyncio

from app.domain import commands as c
from app.domain.clock import Side
from app.events.service import EventService
from tests.first_player import every_first_seat_goes_first

from .test_event_service import _event, _finish, _tables


def _changes(service: EventService) -> list[str]:
    seen: list[str] = []
    service.book.listeners.append(seen.append)
    return seen


async def test_a_view_is_built_once_per_change(service: EventService) -> None:
    models = service.read_models
    eid = _event(service, 4)
    models.event_view(eid)
    models.event_view(eid, admin=True)
    models.dashboard_snapshot(eid, "eo")
    assert models.builds == 1  # both audiences, and the dashboard, from one build

    service.registration.add_player(eid, "Late Comer")
    assert "Late Comer" in [p["name"] for p in models.event_view(eid)["players"]]
    models.event_view(eid, admin=True)
    assert models.builds == 2

    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    view = models.event_view(eid)
    assert models.builds == 3
    room = _tables(service, eid, 1)[0]
    await room.apply(Side.P1, "p1", 1, c.Concede())  # the table's status moves
    await asyncio.sleep(0)
    after = models.event_view(eid)
    assert models.builds == 4
    statuses = {p["table_id"]: p["status"] for p in after["rounds"][0]["pairings"]}
    assert statuses[room.table_id] != "playing"
    assert view["server_ms"] <= after["server_ms"]
    models.event_view(eid)
    assert models.builds == 4


async def test_every_use_case_that_changes_an_event_says_so(service: EventService) -> None:
    eid = _event(service, 4)
    seen = _changes(service)
    player = service.registration.add_player(eid, "Extra")
    service.registration.edit_player(eid, player.id, "Extra Renamed", "", "")
    service.registration.drop_player(eid, player.id)
    service.registration.import_players(eid, "name\nFrom CSV\n")
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    await every_first_seat_goes_first(service.tables.rooms(eid))
    await asyncio.sleep(0)  # the round's end, set once every table has begun
    await service.round_clock.call_end(eid)
    assert seen == [eid] * 8


async def test_a_confirmed_result_is_announced_after_the_tables_work(
    service: EventService,
) -> None:
    eid = _event(service, 2)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room = _tables(service, eid, 1)[0]
    seen = _changes(service)
    during: list[int] = []  # what the listeners had heard while the table did its work
    service.hub.listeners.append(lambda _room: during.append(len(seen)))
    await _finish(room)
    for _ in range(5):
        await asyncio.sleep(0)
    assert during and set(during) == {0}  # never from inside the table's commit
    assert seen == [eid]  # but from the loop's next turn
    standings = service.read_models.event_view(eid)["standings"]
    assert standings[0]["tp"] == 1
