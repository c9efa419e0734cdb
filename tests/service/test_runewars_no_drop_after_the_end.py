"""RP7 (the regulations' "Pairings"): dropping is how a player leaves an event still
being played ("The organizer will avoid pairing him or her in future rounds by dropping
them"). Once a Runewars event is over its standings are final: a drop then would make
its winner "dropped after round 1" with no way back (nobody rejoins a finished event), so
it is refused and nothing changes."""

from __future__ import annotations

import pytest

from app.domain.errors import RuleError
from app.events.base import EventSpec
from app.events.service import EventService
from tests.service.test_runewars_cut_winner_service import _policy, _round, _swiss


async def test_nobody_drops_from_a_finished_runewars_event__RP7(service: EventService) -> None:
    eid = service.registration.create_event(
        EventSpec("RW Done", format_id="runewars2017", fixed_rounds=1)
    ).id
    policy = _policy(service, eid)
    ids = {name: policy.register(eid, name, 190) for name in ("Ann", "Bob", "Cal", "Dee")}
    await _round(service, policy, eid, _swiss)
    assert policy.live(eid).state.over
    before = [(s.name, s.rank, s.status) for s in policy.standings(eid)]
    assert before[0] == ("Ann", 1, "finished")
    with pytest.raises(RuleError, match="the event is over: Ann cannot drop from it"):
        await policy.drop(eid, ids["Ann"])
    assert not policy.live(eid).state.player(ids["Ann"]).dropped
    assert [(s.name, s.rank, s.status) for s in policy.standings(eid)] == before
