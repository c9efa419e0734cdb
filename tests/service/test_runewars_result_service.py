"""The organiser enters and corrects Runewars tables' results through the event service:
a disputed table judged, a collected result corrected with its reason so the stored
standings follow, the table's log keeping both (TS11, ST5)."""

from __future__ import annotations

import random

import pytest

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars.state import Phase, RwGame
from app.events.base import EventSpec
from app.events.runewars.codec import load_event
from app.events.service import EventService
from app.events.tournaments import Policy
from app.store.events import EventRepo
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from tests.service.test_runewars_event import play


def _policy(service: EventService, eid: str) -> Policy:
    policy = service.tournaments.of_event(eid)
    assert policy is not None
    return policy


async def _to_scoring(room: TableRoom, time: FakeTime) -> None:
    await play(room, time, random.Random(1), to_time=True)  # stops at game round 3
    await room.apply(
        Side.P1 if isinstance(room.game, RwGame) and room.game.first is Side.P1 else Side.P2,
        "phone",
        50,
        rc.ArmyDestroyed(None),
    )


async def _one_table_scored(service: EventService, name: str) -> tuple[str, Policy, TableRoom]:
    """A two-player event whose one table is scoring, its result entered (A wins)."""
    time = service.time
    assert isinstance(time, FakeTime)
    eid = service.registration.create_event(
        EventSpec(name, format_id="runewars2017", fixed_rounds=2)
    ).id
    policy = _policy(service, eid)
    for player in ("Ann", "Bob"):
        policy.register(eid, player, 190)
    policy.pair_next(eid)
    await policy.start_round(eid)
    (room,) = policy.live(eid).rooms()
    await _to_scoring(room, time)
    await policy.enter_result(eid, room.table_id, {"entries": [[0, 20], [0, 0]]})
    return eid, policy, room


def _fail_the_next_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """The event's next write of its state fails (the store went away), the later ones not."""
    real_put = EventRepo.put_tournament_state
    failures = [RuntimeError("the store went away")]

    def failing_put(self: EventRepo, *args: str) -> None:
        if failures:
            raise failures.pop()
        real_put(self, *args)

    monkeypatch.setattr(EventRepo, "put_tournament_state", failing_put)


async def test_a_collected_result_corrected_moves_the_standings__TS11_ST5(
    service: EventService,
) -> None:
    time = service.time
    assert isinstance(time, FakeTime)
    eid = service.registration.create_event(
        EventSpec("RW Open", format_id="runewars2017", fixed_rounds=2)
    ).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        policy.register(eid, name, 190)
    policy.pair_next(eid)
    await policy.start_round(eid)
    live = policy.live(eid)
    first, second = live.rooms()
    ((_, g1), t1), ((_, g2), t2) = sorted(live.tables.items())
    assert (first.table_id, second.table_id) == (t1, t2)

    with pytest.raises(RuleError, match="has not ended at the table: give the reason"):
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
    actions = [(a.action, a.detail_json) for a in service.book.actions(eid)]
    assert any(kind == "correct_result" and "miscounted" in detail for kind, detail in actions)
    assert sum(kind == "enter_result" for kind, _ in actions) == 2
    room = service.hub.get(t1)
    assert room is not None and isinstance(room.game, RwGame)
    assert room.game.phase is Phase.OVER and room.game.correction is not None
    assert g2 != g1


async def test_a_correction_whose_event_write_fails_is_not_half_applied__TS11_ST5(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table takes the organiser's correction (its log: the first write); the
    event's state and the EO's action (the second write, one unit) fail. Every reading
    of the event already follows the table's log, nothing of the failed unit is stored,
    and sending the correction again completes it once: the table's log is not written
    twice, the action is logged once."""
    eid, policy, room = await _one_table_scored(service, "RW Fail")
    table_id = room.table_id
    ((_, game_no), _) = next(iter(policy.live(eid).tables.items()))
    match = policy.live(eid).state.rounds[0].matches[0]
    assert policy.live(eid).state.rounds[0].results[game_no].winner == match.a

    def stored() -> tuple[str, str]:
        with service.book.read() as repo:
            row = repo.tournament_state(eid)
            assert row is not None
            return row.state_json, row.tables_json

    before_state = stored()
    before_actions = len(service.book.actions(eid))
    log_before = room.version
    _fail_the_next_store(monkeypatch)
    fix = {"entries": [[0, 0], [0, 30]], "reason": "objective tokens miscounted"}
    with pytest.raises(RuntimeError, match="went away"):
        await policy.enter_result(eid, table_id, fix)
    # The table took it (its log is the result's one record) ...
    assert room.version == log_before + 1
    assert isinstance(room.game, RwGame) and room.game.correction is not None
    # ... the failed unit stored nothing: neither the event's state nor the EO's action.
    assert stored() == before_state
    assert len(service.book.actions(eid)) == before_actions
    # Every reading of the event follows the table already (no half-written result).
    assert policy.live(eid).state.rounds[0].results[game_no].winner == match.a  # as stored
    top = policy.standings(eid)
    assert [(s.player_id, s.tp) for s in top] == [(match.b, 6), (match.a, 5)]
    shown = policy.view(eid)["standings"]
    assert [s["tp"] for s in shown] == [6, 5]

    # The EO sends the correction again: the event's write is made, once.
    again = await policy.enter_result(eid, table_id, fix)
    assert again["corrected"] is True and again["result"]["winner"] == "p2"
    assert room.version == log_before + 1  # the table's log is not written twice
    state = policy.live(eid).state
    assert state.rounds[0].results[game_no].winner == match.b
    assert state.player(match.b).tp == 6 and state.player(match.a).tp == 5
    actions = [a.action for a in service.book.actions(eid)]
    assert actions[before_actions:] == ["correct_result"]
    assert stored() != before_state


async def test_a_correction_left_unstored_is_stored_by_the_next_step__TS11_ST5(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No retry: the next step that stores the event (here, collecting results) stores
    the correction the table holds, so the stored standings follow too."""
    eid, policy, room = await _one_table_scored(service, "RW Late")
    table_id = room.table_id
    ((_, game_no), _) = next(iter(policy.live(eid).tables.items()))
    match = policy.live(eid).state.rounds[0].matches[0]

    _fail_the_next_store(monkeypatch)
    with pytest.raises(RuntimeError):
        await policy.enter_result(eid, table_id, {"entries": [[0, 0], [0, 30]], "reason": "x"})
    assert policy.collect(eid) == 1
    with service.book.read() as repo:
        row = repo.tournament_state(eid)
    assert row is not None
    assert load_event(row.state_json).rounds[0].results[game_no].winner == match.b


async def test_a_result_judged_on_the_table_itself_moves_the_event__TS11_ST5(
    service: EventService,
) -> None:
    """The organiser's link may judge the table on its own socket (not the event's REST):
    the event follows the table's log all the same, and stores it with its next step."""
    eid, policy, room = await _one_table_scored(service, "RW Link")
    match = policy.live(eid).state.rounds[0].matches[0]
    fix = rc.JudgeScores(((0, 0), (0, 30)), reason="tokens miscounted")
    await room.apply(Role.EO, "eo-phone", 1, fix)
    assert [(s.player_id, s.tp) for s in policy.standings(eid)] == [(match.b, 6), (match.a, 5)]
    assert policy.collect(eid) == 1
    assert policy.live(eid).state.rounds[0].results[match.game].winner == match.b
