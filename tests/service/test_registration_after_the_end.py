"""Once the event is over (RP1: its rounds played, or one player ahead of every other on
TP after a round) nobody joins it: adding, importing or letting a dropped player rejoin
would reopen it (a 9th player raises 8 players' 3 rounds to 4, the prizes turn
provisional, a season holding the event loses its points). While it runs, a late
arrival still joins from the next round (RP7)."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.events.base import EventSpec
from app.events.service import EventService

NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")


async def _settle_round(service: EventService, event_id: str) -> None:
    """Pair and start the next round; P2 concedes at every table, both confirm."""
    service.rounds.pair_next(event_id)
    await service.rounds.start(event_id)
    number = len(service.book.rounds(event_id))
    for room in service.tables.rooms(event_id):
        if room.meta is None or room.meta.round_number != number:
            continue
        await room.apply(Side.P2, "l", 1, c.Concede())
        await room.apply(Side.P1, "w", 1, c.ReportGame(20))
        await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
        await room.apply(Side.P2, "p2", 2, c.ConfirmResult())


async def _finished(service: EventService, drops: str = "") -> str:
    """8 players, all 3 rounds (RP1: 8 or fewer → 3) settled; `drops` (a name) drops
    after round 2."""
    event = service.registration.create_event(EventSpec(name="Finished"))
    for name in NAMES:
        service.registration.add_player(event.id, name, "Cygnar")
    for number in range(1, 4):
        if number == 3 and drops:
            leaver = next(p for p in service.book.players(event.id) if p.name == drops)
            service.registration.drop_player(event.id, leaver.id)
        await _settle_round(service, event.id)
    assert service.results.event_over(event.id)
    assert service.results.planned_rounds(event.id) == 3
    return event.id


async def test_nobody_is_added_once_the_event_is_over__RP1(service: EventService) -> None:
    eid = await _finished(service)
    before = len(service.book.actions(eid))
    with pytest.raises(RuleError, match="the event is over"):
        service.registration.add_player(eid, "Ivy", "Cygnar")
    assert service.results.event_over(eid)
    assert service.results.planned_rounds(eid) == 3
    assert [p.name for p in service.book.players(eid)] == list(NAMES)
    assert len(service.book.actions(eid)) == before  # nothing logged either


async def test_nobody_is_imported_once_the_event_is_over__RP1(service: EventService) -> None:
    eid = await _finished(service)
    with pytest.raises(RuleError, match="the event is over"):
        service.registration.import_players(eid, "name,faction\nIvy,Cygnar\nJon,Khador\n")
    assert service.results.event_over(eid)
    assert len(service.book.players(eid)) == 8


async def test_a_dropped_player_does_not_rejoin_once_the_event_is_over__RP1_RP7(
    service: EventService,
) -> None:
    eid = await _finished(service, drops="Hal")  # dropping changes no round count
    hal = next(p for p in service.book.players(eid) if p.name == "Hal")
    assert service.results.event_over(eid)
    with pytest.raises(RuleError, match="the event is over"):
        service.registration.drop_player(eid, hal.id, dropped=False)
    assert service.book.player(eid, hal.id).dropped
    assert service.results.event_over(eid)


async def test_nobody_drops_once_the_event_is_over__RP1_RP7(service: EventService) -> None:
    """A player who played every round finished the event: the final standings do not
    come to say they dropped after its last round."""
    eid = await _finished(service)
    hal = next(p for p in service.book.players(eid) if p.name == "Hal")
    before = len(service.book.actions(eid))
    with pytest.raises(RuleError, match="the event is over"):
        service.registration.drop_player(eid, hal.id)
    assert not service.book.player(eid, hal.id).dropped
    row = next(r for r in service.results.standings(eid) if r.name == "Hal")
    assert row.status == "finished" and not row.dropped
    assert len(service.book.actions(eid)) == before


async def test_a_late_arrival_still_joins_while_the_event_runs__RP7(
    service: EventService,
) -> None:
    event = service.registration.create_event(EventSpec(name="Running"))
    for name in NAMES[:7]:
        service.registration.add_player(event.id, name, "Cygnar")
    await _settle_round(service, event.id)
    assert not service.results.event_over(event.id)
    late = service.registration.add_player(event.id, "Ivy", "Cygnar")
    assert late.joined_round == 2
    assert service.results.planned_rounds(event.id) == 3  # 8 players in the event: 3 rounds
