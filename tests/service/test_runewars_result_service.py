"""The organiser enters and corrects Runewars tables' results through the event service:
a disputed table judged, a collected result corrected with its reason so the stored
standings follow, the table's log keeping both (TS11, ST5)."""

from __future__ import annotations

import random

import pytest

from app.domain.clock import Side
from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars.state import Phase, RwGame
from app.events.service import EventService, EventSpec
from app.events.tournaments import Policy
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from tests.service.test_runewars_event import play


def _policy(service: EventService, eid: str) -> Policy:
    policy = service.tournament(eid)
    assert policy is not None
    return policy


async def _to_scoring(room: TableRoom, time: FakeTime) -> None:
    await play(room, time, random.Random(1), to_time=True)  # stops at game round 3
    await room.execute(
        Side.P1 if isinstance(room.game, RwGame) and room.game.first is Side.P1 else Side.P2,
        "phone",
        50,
        rc.ArmyDestroyed(None),
    )


async def test_a_collected_result_corrected_moves_the_standings__TS11_ST5(
    service: EventService,
) -> None:
    time = service.time
    assert isinstance(time, FakeTime)
    eid = service.create_event(EventSpec("RW Open", format_id="runewars2017", fixed_rounds=2)).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        policy.register(eid, name, 190)
    policy.pair_next(eid)
    await policy.start_round(eid)
    live = policy.live(eid)
    first, second = live.rooms()
    ((_, g1), t1), ((_, g2), t2) = sorted(live.tables.items())
    assert (first.table_id, second.table_id) == (t1, t2)

    with pytest.raises(RuleError, match="once the table is scoring"):
        await policy.enter_result(eid, t1, {"entries": [[10, 0], [0, 0]]})
    await _to_scoring(first, time)
    await _to_scoring(second, time)
    # A disputed table: the organiser enters both scores (mutual destruction: 200 each).
    judged = await policy.enter_result(eid, t1, {"entries": [[0, 20], [0, 0]]})
    assert judged["corrected"] is False and judged["result"]["winner"] == "p1"
    await policy.enter_result(eid, t2, {"entries": [[0, 10], [0, 0]]})
    assert policy.collect(eid) == 0  # both results already taken with the organiser's entry
    state = policy.live(eid).state
    match = next(m for m in state.rounds[0].matches if m.game == g1)
    assert state.rounds[0].results[match.game].winner == match.a
    top = [s.player_id for s in policy.standings(eid)]
    assert match.a in top[:2] and match.b in top[2:]  # the winners' 6 TP lead the losers' 5

    with pytest.raises(BadInput, match="give the reason"):
        await policy.enter_result(eid, t1, {"entries": [[0, 0], [0, 30]]})
    with pytest.raises(BadInput, match="has no winner"):
        await policy.enter_result(eid, t1, {"entries": [[0, 0], [0, 30]], "winner": "p2"})
    with pytest.raises(NotFound, match="no table"):
        await policy.enter_result(eid, "nope", {"entries": [[0, 0], [0, 30]], "reason": "x"})
    fixed = await policy.enter_result(
        eid, t1, {"entries": [[0, 0], [0, 30]], "reason": "objective tokens miscounted"}
    )
    assert fixed["corrected"] is True and fixed["result"]["winner"] == "p2"
    assert fixed["correction"]["before"]["winner"] == "p1"
    assert fixed["correction"]["reason"] == "objective tokens miscounted"

    state = policy.live(eid).state
    assert state.rounds[0].results[g1].winner == match.b
    assert state.player(match.b).tp == 6 and state.player(match.a).tp == 5
    assert [g.won for g in state.player(match.a).games] == [False]
    top = [s.player_id for s in policy.standings(eid)]
    assert match.b in top[:2] and match.a in top[2:]  # ST5: the standings follow
    actions = [(a.action, a.detail_json) for a in service.actions(eid)]
    assert any(kind == "correct_result" and "miscounted" in detail for kind, detail in actions)
    assert sum(kind == "enter_result" for kind, _ in actions) == 2
    room = service.hub.get(t1)
    assert room is not None and isinstance(room.game, RwGame)
    assert room.game.phase is Phase.OVER and room.game.correction is not None
    assert g2 != g1
