"""An event run under SR2019's variants: Classic Turn Timing's round clock and dice
down (DC10) reach every table of a round."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.game import Method, Phase
from app.domain.variants import CLASSIC
from app.events.base import EventSpec
from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.timesource import FakeTime
from tests.first_player import every_first_seat_goes_first

MIN = 60_000


def _event(service: EventService, players: int, **spec: object) -> str:
    event = service.registration.create_event(EventSpec(name="Classic night", **spec))  # type: ignore[arg-type]
    for n in range(players):
        service.registration.add_player(event.id, f"Player {n + 1:02d}", "Cygnar")
    return event.id


def test_variants_are_checked_when_the_event_is_created__DC10(service: EventService) -> None:
    with pytest.raises(BadInput, match="No Tiebreakers needs Classic Turn Timing"):
        _event(service, 0, variants=("no_tiebreakers",))
    with pytest.raises(BadInput, match="Masters 2019 has no variant"):
        _event(service, 0, format_id="masters2019", lists=2, variants=("classic_turn_timing",))
    with pytest.raises(BadInput, match="no point size 1 higher than 200"):
        _event(service, 0, points=200, variants=("classic_casual",))
    eid = _event(service, 0, variants=("no_tiebreakers", "classic_turn_timing"))
    assert service.book.event(eid).variants == "classic_turn_timing,no_tiebreakers"


async def test_classic_round_clock_and_dice_down_at_every_table__DC10(
    service: EventService,
) -> None:
    time: FakeTime = service.time  # type: ignore[assignment]
    eid = _event(service, 4, points=75, variants=("classic_turn_timing",))
    service.rounds.pair_next(eid)
    entry = await service.rounds.start(eid)
    assert entry.expected_end_ms is None  # set once every table has begun deployment
    rooms = [r for r in service.tables.rooms(eid) if r.meta and r.meta.round_number == 1]
    assert len(rooms) == 2
    await every_first_seat_goes_first(rooms)
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
    entry = service.book.rounds(eid)[-1]
    assert entry.expected_end_ms == time.now_ms() + 100 * MIN  # the round length, not DC4
    for room in rooms:
        timer = room.game.timer
        assert timer is not None and timer.timing.turn_ms == 10 * MIN
        assert timer.round_end_ms == entry.expected_end_ms
    first, second = rooms
    await first.apply(c.Role.EO, "", 0, c.DiceDown())  # the EO calls it at one table
    assert first.game.phase is Phase.OVER
    time.advance(100 * MIN)
    await service.round_ends.timers[eid]
    for room in rooms:
        ending = room.game.ending
        assert ending is not None and ending.method is Method.TIEBREAKER
        assert ending.winner is None
    # A game still in deployment has no scenario scoring to finish.
    assert not second.game.final_scoring_due
    assert second.game.clock.running is None and second.game.casters == (True, True)


def test_lists_are_checked_on_submission_and_the_eo_may_override__lists(
    service: EventService,
) -> None:
    eid = _event(service, 0, lists=2)
    with pytest.raises(BadInput, match="two lists are led by Caine 2"):
        service.registration.add_player(eid, "Ann", "Cygnar", "Caine 2 (75); Caine 2 (74)")
    with pytest.raises(BadInput, match="totals 71 to 75 points"):
        service.registration.add_player(eid, "Ann", "Cygnar", "Caine 2 (75); Haley 3 (80)")
    ann = service.registration.add_player(
        eid, "Ann", "Cygnar", "Caine 2 (75); Caine 2 (74)", "agreed"
    )
    assert ann.list_note == "agreed"
    with pytest.raises(BadInput, match="two lists are led by Haley 3"):
        service.registration.edit_player(eid, ann.id, "Ann", "Cygnar", "Haley 3; Haley 3")
    edited = service.registration.edit_player(
        eid, ann.id, "Ann", "Cygnar", "Haley 3 (75); Caine 2 (75)"
    )
    assert edited.list_note == ""


async def test_the_round_clocks_end_is_logged_as_dice_down__DC10(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    time = FakeTime()
    hub = TableHub(store, time, random.Random(1))
    try:
        room = hub.create(QuickGame(points=75, scenario="king-of-the-hill", variants=(CLASSIC,)))
        await room.apply(Side.P1, "p1", 1, c.StartClock())
        time.advance(100 * MIN)
        await room.apply(c.Role.SYSTEM, "", 0, c.FlagCheck())
        assert room.game.phase is Phase.OVER and room.game.timer is not None
        assert room.game.timer.called
        last = json.loads(store.log(room.table_id)[-1].command_json)
        assert last == {"c": "flag", "dice_down": True}
        reopened = TableHub(store, time, random.Random(1))
        again = reopened.get(room.table_id)
        assert again is not None and again.game == room.game  # replayed from the log
        await reopened.close()
    finally:
        await hub.close()
        store.close()
