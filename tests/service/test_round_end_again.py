"""A round's end that fails at one table (its worker gone, the disk refusing) lets go of its
claim and is made again: by its timer on its own a moment later, or by the EO at once; the
calls it writes name every table it ended, those the failed call ended too (DC8). A table
is tied once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app.api.errors import http_status
from app.domain import commands as c
from app.domain.errors import ServerTrouble
from app.domain.game import Phase
from app.domain.tournament import RoundEndCall
from app.events.round_end import LOOK_AGAIN_MS
from app.events.service import EventService
from app.store.events import END_CLAIM_RELEASED
from app.tables.timesource import FakeTime
from tests.first_player import every_first_seat_goes_first
from tests.service.field_of import event_of

MIN = 60_000


async def _round_of_four(service: EventService) -> tuple[str, list[Any]]:
    event_id = event_of(service, 8)
    service.rounds.pair_next(event_id)
    rooms = service.tables.rooms(event_id)
    await service.rounds.start(event_id)
    await every_first_seat_goes_first(rooms)
    return event_id, rooms


def _unreachable_once(service: EventService, monkeypatch: pytest.MonkeyPatch, room: Any) -> None:
    """The round's end cannot reach `room` the first time it calls a tie there."""
    placement = service.round_ends.placement
    execute = placement.execute
    failed: list[Any] = []

    async def once(at: Any, *args: Any) -> Any:
        if at is room and isinstance(args[-1], c.CallTie) and not failed:
            failed.append(at)
            raise RuntimeError("server trouble: this table's worker is gone")
        return await execute(at, *args)

    monkeypatch.setattr(placement, "execute", once)


def _ties_logged(service: EventService, room: Any) -> int:
    return sum(
        1
        for entry in service.store.log(room.table_id)
        if json.loads(entry.command_json).get("c") == "call_tie"
    )


async def test_the_eo_calls_the_round_end_again_and_every_table_it_ended_is_named__DC8(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    time: FakeTime = service.time  # type: ignore[assignment]
    event_id, rooms = await _round_of_four(service)
    _unreachable_once(service, monkeypatch, rooms[2])
    time.advance(30 * MIN)
    with pytest.raises(ServerTrouble, match="call it again in a moment") as failed:
        await service.round_clock.call_end(event_id)
    assert http_status(failed.value) == 503 and failed.value.code == "server_trouble"
    assert [room.game.phase is Phase.OVER for room in rooms] == [True, True, False, True]
    entry = service.book.rounds(event_id)[-1]
    assert entry.end_calls_json is None  # nothing written yet...
    assert entry.end_claimed_ms == END_CLAIM_RELEASED  # ...and the failed call's claim let go

    time.advance(1_000)
    calls = await service.round_clock.call_end(event_id)  # the EO at once: not "busy"
    assert calls == {room.table_id: RoundEndCall.TIE.value for room in rooms}
    assert all(room.game.phase is Phase.OVER for room in rooms)
    assert [_ties_logged(service, room) for room in rooms] == [1, 1, 1, 1]
    written = service.book.rounds(event_id)[-1].end_calls_json
    assert written is not None and json.loads(written) == calls
    assert await service.round_clock.call_end(event_id) == calls  # answered, not made again


async def test_the_round_end_timer_tries_again_on_its_own_once_its_claim_lapses__DC8(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the round's end time every clock here has run out (DC7 decides those games, not
    the round's end): what matters is that the timer, whose call failed, calls again."""
    time: FakeTime = service.time  # type: ignore[assignment]
    event_id, rooms = await _round_of_four(service)
    ends = service.round_ends
    end_call = ends._end_call
    failed: list[Any] = []

    async def once(room: Any, *args: Any) -> Any:
        if room is rooms[0] and not failed:
            failed.append(room)
            raise RuntimeError("server trouble: this table's worker is gone")
        return await end_call(room, *args)

    monkeypatch.setattr(ends, "_end_call", once)
    entry = service.book.rounds(event_id)[-1]
    assert entry.expected_end_ms is not None
    time.advance(entry.expected_end_ms - time.now_ms())  # the round's end time: its timer
    for _ in range(20):
        await asyncio.sleep(0)
    assert failed == [rooms[0]]
    assert service.book.rounds(event_id)[-1].end_calls_json is None
    assert event_id in ends.timers and not ends.timers[event_id].done()  # still at it
    time.advance(LOOK_AGAIN_MS)  # it looks again in a moment
    for _ in range(20):
        await asyncio.sleep(0)
    written = service.book.rounds(event_id)[-1].end_calls_json
    assert written is not None and json.loads(written) == {}  # every game was over by then
    assert all(room.game.phase is Phase.OVER for room in rooms)
