"""Settled results stay settled: only the EO moves them, with a reason, as a correction."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest
from sqlalchemy import inspect

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult
from app.store.log_entry import LogEntry
from app.tables.hub import TableHub
from app.tables.room import TableRoom


def _tables(service: EventService, event_id: str, number: int) -> list[TableRoom]:
    return [r for r in service.tables.rooms(event_id) if r.meta and r.meta.round_number == number]


async def _settle(room: TableRoom, loser: Side = Side.P2) -> None:
    await room.apply(loser, "l", 1, c.Concede())
    await room.apply(loser.other, "w", 1, c.ReportGame(20))
    await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
    await room.apply(Side.P2, "p2", 2, c.ConfirmResult())


async def _round_one(service: EventService) -> tuple[str, list[TableRoom]]:
    event = service.registration.create_event(EventSpec(name="Settled", points=75))
    for n in range(4):
        service.registration.add_player(event.id, f"Player {n + 1}", "Cygnar")
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    tables = _tables(service, event.id, 1)
    for room in tables:
        await _settle(room)
    return event.id, tables


async def test_a_confirmed_result_is_corrected_only_with_a_reason__TS9(
    service: EventService,
) -> None:
    eid, (room, _other) = await _round_one(service)
    before = service.results.table_result(eid, room.table_id)
    assert before is not None and before.as_json()["winner"] == "p1"
    # The players cannot reopen it ...
    with pytest.raises(RuleError, match="only the EO"):
        await room.apply(Side.P2, "p2", 9, c.ReportGame(75))
    # ... and the EO must say why.
    flip = TableResult.from_wire(
        {"winner": "p2", "control_points": [0, 3], "army_points_destroyed": [0, 38]}
    )
    with pytest.raises(BadInput, match="reason"):
        await service.results.enter(eid, room.table_id, flip)
    assert service.results.table_result(eid, room.table_id) == before
    await service.results.enter(eid, room.table_id, flip, reason="P1 conceded by mistake")
    entered = service.results.table_result(eid, room.table_id)
    assert entered is not None
    after = entered.as_json()
    assert after["winner"] == "p2"
    assert after["correction"]["reason"] == "P1 conceded by mistake"
    assert after["correction"]["before"]["winner"] == "p1"
    assert not after["correction"]["round_closed"]
    logged = [a for a in service.book.actions(eid) if a.action == "correct_result"]
    assert len(logged) == 1 and "P1 conceded by mistake" in logged[0].detail_json


async def test_a_closed_rounds_results_are_locked_and_a_correction_moves_the_standings(
    service: EventService,
) -> None:
    eid, tables = await _round_one(service)
    service.rounds.pair_next(eid)  # round 1 is closed: round 2 is paired on its results
    room = tables[0]
    with pytest.raises(RuleError):
        await room.apply(Side.P2, "p2", 9, c.DisputeResult("too late"))
    assert room.meta is not None
    loser = room.meta.p2_player
    before = {s.player_id: s.tp for s in service.results.standings(eid)}
    assert before[loser] == 0 and before[room.meta.p1_player] == 1
    await service.results.enter(
        eid,
        room.table_id,
        TableResult.from_wire(
            {"winner": "p2", "control_points": [0, 3], "army_points_destroyed": [0, 38]}
        ),
        reason="wrong table reported",
    )
    after = {s.player_id: s.tp for s in service.results.standings(eid)}
    assert after[loser] == 1 and after[room.meta.p1_player] == 0
    corrected = service.results.table_result(eid, room.table_id)
    assert corrected is not None and corrected.as_json()["correction"]["round_closed"]


async def _restarted(service: EventService) -> tuple[EventService, TableHub]:
    hub = TableHub(service.store, service.time)
    hub.load()
    return EventService(service.store, hub, service.time), hub


async def test_an_eo_result_has_one_record_the_table_log__TS9(service: EventService) -> None:
    """The EO's entry is a command in the table's log, and nothing else: a restart reads
    it back with its correction, and no second copy (the old results table) exists."""
    eid, (room, _other) = await _round_one(service)
    flip = TableResult.from_wire(
        {
            "winner": "p2",
            "control_points": [0, 3],
            "army_points_destroyed": [0, 38],
            "method": "assassination",
            "lists": ["Vlad", "Sorscha"],
        }
    )
    await service.results.enter(eid, room.table_id, flip, reason="wrong table reported")
    entered = service.results.table_result(eid, room.table_id)
    assert entered is not None and entered.method == "assassination"
    logged = [json.loads(e.command_json) for e in service.store.log(room.table_id)]
    assert [e["c"] for e in logged].count("record_result") == 1
    assert logged[-1]["reason"] == "wrong table reported"
    assert "eo_result" not in inspect(service.store.engine).get_table_names()
    again, hub = await _restarted(service)
    assert again.results.table_result(eid, room.table_id) == entered
    assert again.results.standings(eid) == service.results.standings(eid)
    await again.close()
    await hub.close()


async def test_a_table_whose_log_does_not_replay_still_takes_the_eo_result__TS9(
    service: EventService,
) -> None:
    """A table whose log no longer replays is read-only for the players; the EO's result
    still lands in its log and counts, before and after a restart."""
    event = service.registration.create_event(EventSpec(name="Broken", points=75))
    for n in range(2):
        service.registration.add_player(event.id, f"Player {n + 1}", "Cygnar")
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    (table,) = _tables(service, event.id, 1)
    bad = LogEntry(
        version=table.version + 1,
        at_ms=service.time.now_ms(),
        actor="p2",
        device="x",
        seq=1,
        command_json=json.dumps({"c": "pass", "expect": "p2"}),  # P1 deploys: it never applies
    )
    service.store.append(table.table_id, bad, None, None)
    restarted, hub = await _restarted(service)
    broken = hub.get(table.table_id)
    assert broken is not None and broken.broken is not None
    with pytest.raises(RuleError, match="read-only"):
        await broken.apply(Side.P1, "p1", 5, c.Concede())
    assert restarted.results.table_result(event.id, table.table_id) is None
    decided = TableResult.from_wire(
        {"winner": "p1", "control_points": [2, 0], "army_points_destroyed": [30, 0]}
    )
    await restarted.results.enter(event.id, table.table_id, decided)
    assert restarted.results.table_result(event.id, table.table_id) == replace(decided, by="eo")
    again, hub2 = await _restarted(restarted)
    assert again.results.table_result(event.id, table.table_id) == replace(decided, by="eo")
    assert {s.player_id: s.tp for s in again.results.standings(event.id)} == {
        s.player_id: s.tp for s in restarted.results.standings(event.id)
    }
    for closing in (again, restarted):
        await closing.close()
    for h in (hub, hub2):
        await h.close()


async def test_the_same_correction_sent_twice_keeps_what_it_replaced__TS9(
    service: EventService,
) -> None:
    """The EO's reply is lost and they press Save again (or a second EO device sends the
    same): the second, identical entry changes nothing and logs nothing; the correction
    still names the result the players confirmed as the one it replaced."""
    eid, (room, _other) = await _round_one(service)
    flip = TableResult.from_wire(
        {"winner": "p2", "control_points": [0, 3], "army_points_destroyed": [0, 38]}
    )
    assert await service.results.enter(eid, room.table_id, flip, reason="wrong table reported")
    once = service.results.table_result(eid, room.table_id)
    game = room.game
    for reason in ("wrong table reported", ""):  # the same body; a bare retry too
        assert not await service.results.enter(eid, room.table_id, flip, reason=reason)
    entered = service.results.table_result(eid, room.table_id)
    assert entered == once and room.game is game
    assert entered is not None and entered.correction is not None
    assert entered.correction.before.winner is Side.P1  # the players' own winner
    assert entered.correction.before.by == "players"
    assert [a.action for a in service.book.actions(eid)].count("correct_result") == 1
    logged = [json.loads(e.command_json)["c"] for e in service.store.log(room.table_id)]
    assert logged.count("record_result") == 1


async def test_a_different_correction_after_it_still_moves_the_result__TS9(
    service: EventService,
) -> None:
    eid, (room, _other) = await _round_one(service)
    flip = TableResult.from_wire(
        {"winner": "p2", "control_points": [0, 3], "army_points_destroyed": [0, 38]}
    )
    await service.results.enter(eid, room.table_id, flip, reason="wrong table reported")
    tie = replace(flip, winner=None)
    with pytest.raises(BadInput, match="reason"):
        await service.results.enter(eid, room.table_id, tie)
    assert await service.results.enter(eid, room.table_id, tie, reason="it was a tie")
    entered = service.results.table_result(eid, room.table_id)
    assert entered is not None and entered.winner is None and entered.correction is not None
    assert entered.correction.before.winner is Side.P2 and entered.correction.before.by == "eo"
    assert [a.action for a in service.book.actions(eid)].count("correct_result") == 2


async def test_the_same_correction_from_two_eo_devices_at_once_is_logged_once__TS9(
    service: EventService,
) -> None:
    """Both are checked before either reaches the table; the table's lock decides: the
    second finds the result so already and changes and logs nothing."""
    eid, (room, _other) = await _round_one(service)
    flip = TableResult.from_wire(
        {"winner": "p2", "control_points": [0, 3], "army_points_destroyed": [0, 38]}
    )
    async with room.lock:  # the table is busy while both devices' entries come in
        both = [
            asyncio.create_task(
                service.results.enter(eid, room.table_id, flip, reason="wrong table reported")
            )
            for _device in range(2)
        ]
        for _turn in range(20):  # the loop's turns: each is checked and waits for the table
            await asyncio.sleep(0)
        assert not any(task.done() for task in both)
    entered = await asyncio.gather(*both)
    assert sorted(entered) == [False, True]
    result = service.results.table_result(eid, room.table_id)
    assert result is not None and result.correction is not None
    assert result.correction.before.winner is Side.P1  # the players' own, not the first entry
    logged = [json.loads(e.command_json)["c"] for e in service.store.log(room.table_id)]
    assert logged.count("record_result") == 1
    assert [a.action for a in service.book.actions(eid)].count("correct_result") == 1


async def test_the_same_result_sent_again_from_the_eos_table_page_is_refused_and_not_logged__TS9(
    service: EventService,
) -> None:
    eid, (room, _other) = await _round_one(service)
    flip = TableResult.from_wire(
        {"winner": "p2", "control_points": [0, 3], "army_points_destroyed": [0, 38]}
    )
    assert await service.results.enter(eid, room.table_id, flip, reason="wrong table reported")
    version = room.version
    again = c.RecordResult(
        winner=Side.P2,  # the game's P1 went first: the players' seats as the table has them
        control_points=(0, 3),
        army_points_destroyed=(0, 38),
        method=room.game.result().method,  # type: ignore[union-attr]
        reason="wrong table reported",
    )
    with pytest.raises(RuleError, match="nothing changed") as refused:
        await room.apply(c.Role.EO, "eo", 5, again)
    assert refused.value.code == "unchanged"
    assert room.version == version
