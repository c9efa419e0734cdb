"""A round's start and its end reach every table at once: each command is acked once it is
on disk, and the tables share the disk's flushes instead of waiting for one each (a round of
256 tables took 1.7 s to start, most of it waiting for the disk). A table that cannot be
reached fails the start, and starting again opens the tables the first try missed."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.game import Phase
from app.domain.tournament import RoundEndCall
from app.events.service import EventService
from tests.first_player import every_first_seat_goes_first
from tests.service.field_of import event_of


async def test_32_tables_open_and_end_sharing_the_disk_flushes__DC8(
    service: EventService,
) -> None:
    event_id = event_of(service, 64)
    service.rounds.pair_next(event_id)
    rooms = service.tables.rooms(event_id)
    assert len(rooms) == 32
    before = service.store.flushes
    await service.rounds.start(event_id)
    opened = service.store.flushes - before
    assert all(room.game.in_pregame for room in rooms)  # every table is in its pre-game
    # One table after another took a flush each, 32 or more. At once they share: one, in
    # fact; a slow machine may split them over a few more spacings, never one a table.
    assert 1 <= opened <= 8, opened

    await every_first_seat_goes_first(rooms)
    assert service.book.rounds(event_id)[-1].expected_end_ms is not None
    time: Any = service.time
    time.advance(30 * 60_000)  # the EO calls the round's end half an hour in: ties (DC8)
    before = service.store.flushes
    calls = await service.round_clock.call_end(event_id)
    ended = service.store.flushes - before
    assert sorted(calls) == sorted(room.table_id for room in rooms)
    assert set(calls.values()) == {RoundEndCall.TIE.value}
    assert all(room.game.phase is Phase.OVER for room in rooms)
    assert 1 <= ended <= 8, ended  # two in fact: the flag checks, then the ties


async def test_a_table_that_cannot_be_reached_fails_the_start_and_the_next_try_opens_it(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = event_of(service, 8)
    service.rounds.pair_next(event_id)
    rooms = service.tables.rooms(event_id)
    unreachable = rooms[1]
    execute = service.rounds.placement.execute

    async def failing(room: Any, *args: Any) -> Any:
        if room is unreachable:
            raise RuntimeError("server trouble: this table's worker is gone")
        return await execute(room, *args)

    monkeypatch.setattr(service.rounds.placement, "execute", failing)
    with pytest.raises(RuntimeError, match="worker is gone"):
        await service.rounds.start(event_id)
    assert service.book.rounds(event_id)[-1].started_ms is None  # the round has not started
    assert [room.game.in_pregame for room in rooms] == [True, False, True, True]
    assert [room.version for room in rooms] == [1, 0, 1, 1]

    monkeypatch.setattr(service.rounds.placement, "execute", execute)
    entry = await service.rounds.start(event_id)
    assert entry.started_ms is not None
    assert all(room.game.in_pregame for room in rooms)
    assert [room.version for room in rooms] == [1, 1, 1, 1]  # each opened once
