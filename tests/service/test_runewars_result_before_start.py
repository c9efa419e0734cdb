"""A Runewars result waits for its round: before the organiser starts the round (its
pairings not yet public, RP4) the EO's entry is refused, and the standings, the event
page and the tables stay as they were; once it starts, the same entry is taken (ST5)."""

from __future__ import annotations

import pytest

from app.domain.errors import RuleError
from app.events.base import EventSpec
from app.events.service import EventService
from tests.service.test_runewars_cut_winner_service import _policy


async def test_a_result_before_the_round_starts_is_refused__RP4_ST5(
    service: EventService,
) -> None:
    eid = service.registration.create_event(
        EventSpec("RW Early", format_id="runewars2017", fixed_rounds=1)
    ).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob"):
        policy.register(eid, name, 190)
    policy.pair_next(eid)
    (room,) = policy.live(eid).rooms()
    before = [(s.name, s.tp, s.mov) for s in policy.standings(eid)]
    entry = {"entries": [[150, 0], [40, 0]], "reason": "slip handed in"}
    with pytest.raises(RuleError, match="round 1 has not started"):
        await policy.enter_result(eid, room.table_id, entry)
    assert [(s.name, s.tp, s.mov) for s in policy.standings(eid)] == before
    assert room.version == 0  # nothing logged on the table

    await policy.start_round(eid)
    taken = await policy.enter_result(eid, room.table_id, entry)
    assert taken["result"] is not None
