"""ST3: a disqualification given in error is lifted with the reason. Once the event is
over nobody rejoins it, so a player who had not dropped before the disqualification is
back as they finished it: their final standing says so, not "dropped after the last
round". One who had dropped before stays dropped, and while the event runs the EO lets a
player rejoin (RP7), as before."""

from __future__ import annotations

from app.events.service import EventService
from tests.service.test_registration_after_the_end import _finished

WHY, ERROR = "Loaded dice", "the dice were checked: they are fair"


def _status(service: EventService, eid: str, name: str) -> str:
    return str(next(r.status for r in service.results.standings(eid) if r.name == name))


async def test_a_disqualification_lifted_after_the_end_restores_the_finisher__ST3(
    service: EventService,
) -> None:
    eid = await _finished(service)
    ann = next(p for p in service.book.players(eid) if p.name == "Ann")
    await service.discipline.disqualify(eid, ann.id, WHY)
    assert _status(service, eid, "Ann") == "disqualified"
    await service.discipline.lift(eid, ann.id, ERROR)
    player = service.book.player(eid, ann.id)
    assert not player.disqualified and not player.dropped
    assert _status(service, eid, "Ann") == "finished"  # the event is over (RP1)


async def test_one_who_had_dropped_stays_dropped_when_it_is_lifted__ST3_RP7(
    service: EventService,
) -> None:
    eid = await _finished(service, drops="Hal")
    hal = next(p for p in service.book.players(eid) if p.name == "Hal")
    await service.discipline.disqualify(eid, hal.id, WHY)
    await service.discipline.lift(eid, hal.id, ERROR)
    assert service.book.player(eid, hal.id).dropped
    assert _status(service, eid, "Hal") == "dropped"
