"""An event on the legacy scenario pack (TS10): the EO picks the pack and sets the
player clock; each round's scenario is the EO's choice or rolled, never repeated."""

from __future__ import annotations

import asyncio

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.formats import get_format
from app.events.base import EventSpec
from app.events.service import EventService
from tests.first_player import every_first_seat_goes_first

MIN = 60_000


async def test_the_eo_picks_the_pack_and_sets_the_clock__TS10(service: EventService) -> None:
    with pytest.raises(BadInput, match="between 1 and 360 minutes"):
        service.registration.create_event(
            EventSpec(name="Old school", format_id="legacy", clock_minutes=0)
        )
    event = service.registration.create_event(
        EventSpec(name="Old school", format_id="legacy", clock_minutes=50)
    )
    for n in range(4):
        service.registration.add_player(event.id, f"Player {n + 1}", "Cygnar")
    service.rounds.pair_next(event.id, "gauntlet")
    entry = await service.rounds.start(event.id)
    assert entry.scenario_id == "gauntlet"
    rooms = [r for r in service.tables.rooms(event.id) if r.meta and r.meta.round_number == 1]
    assert len(rooms) == 2
    await every_first_seat_goes_first(rooms)
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
    entry = service.book.rounds(event.id)[-1]
    assert entry.expected_end_ms == service.time.now_ms() + 2 * 50 * MIN
    for room in rooms:
        assert room.game.setup.player_clock_ms == 50 * MIN
        assert room.game.format.id == "legacy" and room.game.scenario.name == "Gauntlet"
    view = service.read_models.event_view(event.id)
    assert view["event"]["clock_minutes"] == 50
    assert view["rounds"][0]["scenario"]["name"] == "Gauntlet"
    for room in rooms:
        await room.apply(Side.P2, "l", 1, c.Concede())
        await room.apply(Side.P1, "w", 1, c.ReportGame(20))
        await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
        await room.apply(Side.P2, "p2", 2, c.ConfirmResult())
    with pytest.raises(RuleError, match="not repeated"):
        service.rounds.pair_next(event.id, "gauntlet")
    second = service.rounds.pair_next(event.id)  # rolled among the fifteen left
    assert second.scenario_id != "gauntlet"


async def test_without_a_clock_the_pack_offers_the_dc1_table__TS10(service: EventService) -> None:
    event = service.registration.create_event(
        EventSpec(name="Old school", format_id="legacy", points=50)
    )
    assert event.clock_minutes is None
    for n in range(2):
        service.registration.add_player(event.id, f"Player {n + 1}", "Cygnar")
    service.rounds.pair_next(event.id, "daybreak")
    (room,) = service.tables.rooms(event.id)
    assert room.game.setup.player_clock_ms == 42 * MIN


async def test_the_eo_picks_a_legacy_scenario_for_one_round__TS10(service: EventService) -> None:
    event = service.registration.create_event(
        EventSpec(name="Steamroller", format_id="sr2019", points=50)
    )
    for n in range(4):
        service.registration.add_player(event.id, f"Player {n + 1}", "Khador")
    first = service.rounds.pair_next(event.id, "nightfall")
    assert first.scenario_id == "nightfall"
    rooms = service.tables.rooms(event.id)
    for room in rooms:
        assert (room.game.format.id, room.game.scenario.name) == ("legacy", "Nightfall")
        assert room.game.setup.player_clock_ms == 42 * MIN  # the event's clock (DC1)
    await service.rounds.start(event.id)
    assert service.read_models.event_view(event.id)["rounds"][0]["scenario"]["name"] == (
        "Nightfall"
    )
    await every_first_seat_goes_first(rooms)
    for room in rooms:
        await room.apply(Side.P1, "w", 1, c.PassTurn(expect=Side.P1))
        await room.apply(Side.P2, "l", 1, c.PassTurn(expect=Side.P2))
        await room.apply(Side.P1, "w", 2, c.PassTurn(expect=Side.P1))
        await room.apply(Side.P2, "l", 2, c.PassTurn(expect=Side.P2))  # P1's turn 1
        assert room.game.round_notes == ("Round 1: normal LOS",)
        await room.apply(Side.P2, "l", 3, c.CasterDestroyed())
        await room.apply(Side.P1, "w", 3, c.ReportGame(30))
        await room.apply(Side.P2, "l", 4, c.ReportGame(10))
        await room.apply(Side.P1, "w", 4, c.ConfirmResult())
        await room.apply(Side.P2, "l", 5, c.ConfirmResult())
    standings = service.read_models.event_view(event.id)["standings"]
    assert sorted(row["tp"] for row in standings) == [0, 0, 1, 1]
    second = service.rounds.pair_next(event.id)  # rolled from the event's own six
    assert second.scenario_id in {s.id for s in get_format("sr2019").scenarios}


async def test_iron_gauntlet_has_no_legacy_rounds__TS10(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="IG", format_id="ig2014", points=50))
    for n in range(2):
        service.registration.add_player(event.id, f"Player {n + 1}", "Khador", "A\nB", painted=True)
    with pytest.raises(BadInput, match="unknown scenario 'gauntlet'"):
        service.rounds.pair_next(event.id, "gauntlet")
