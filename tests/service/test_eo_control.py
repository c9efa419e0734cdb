"""The EO keeps control of a draft round, its players and its tables."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.events.base import EventSpec
from app.events.service import EventService
from app.tables.room import TableRoom
from tests.first_player import every_first_seat_goes_first

MIN = 60_000


def _event(service: EventService, players: int, **spec: object) -> str:
    event = service.registration.create_event(EventSpec(name="Control event", **spec))  # type: ignore[arg-type]
    for n in range(players):
        service.registration.add_player(event.id, f"Player {n + 1:02d}", "Khador")
    return event.id


def _paired(service: EventService, event_id: str) -> set[str]:
    entry = service.book.current_round(event_id)
    assert entry is not None
    rows = json.loads(entry.pairings_json)
    return {x for row in rows for x in (row["p1"], row["p2"]) if x}


def _table_ids(service: EventService, event_id: str) -> set[str]:
    entry = service.book.current_round(event_id)
    assert entry is not None
    return {row["table_id"] for row in json.loads(entry.pairings_json) if row["table_id"]}


async def test_a_draft_is_paired_again_with_its_scenario_and_old_tables_go_stale(
    service: EventService,
) -> None:
    eid = _event(service, 6)
    first = service.rounds.pair_next(eid)
    old = _table_ids(service, eid)
    again = service.control.repair_draft(eid)
    assert (again.number, again.scenario_id) == (1, first.scenario_id)
    new = _table_ids(service, eid)
    assert len(new) == 3 and not new & old
    for table_id in old:
        assert service.hub.get(table_id) is None
        stale = service.control.stale_link(table_id)
        assert stale is not None and stale.event_name == "Control event"
        assert stale.round == 1 and "paired again" in stale.why
    assert service.control.stale_link("0" * 32) is None
    assert service.control.stale_link("%") is None and service.control.stale_link("_" * 32) is None


async def test_a_draft_is_discarded_and_the_round_paired_anew(service: EventService) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    old = _table_ids(service, eid)
    assert service.control.discard_draft(eid) == 1
    assert service.book.rounds(eid) == []
    assert all(service.hub.get(t) is None for t in old)
    with pytest.raises(RuleError, match="not started"):
        service.control.discard_draft(eid)
    assert service.rounds.pair_next(eid).number == 1


async def test_a_started_round_is_neither_paired_again_nor_discarded(
    service: EventService,
) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    with pytest.raises(RuleError):
        service.control.repair_draft(eid)
    with pytest.raises(RuleError):
        service.control.discard_draft(eid)
    assert len(_table_ids(service, eid)) == 2


async def test_a_player_dropped_or_added_late_leaves_or_joins_the_draft__RP7(
    service: EventService,
) -> None:
    eid = _event(service, 6)
    service.rounds.pair_next(eid)
    ann = service.book.players(eid)[0]
    service.registration.drop_player(eid, ann.id)
    assert ann.id not in _paired(service, eid) and len(_paired(service, eid)) == 5
    late = service.registration.add_player(eid, "Latecomer")
    assert late.joined_round == 1  # the draft takes them in: no loss for round 1
    assert late.id in _paired(service, eid)
    service.registration.drop_player(eid, ann.id, dropped=False)
    assert ann.id in _paired(service, eid) and len(_paired(service, eid)) == 7
    await service.rounds.start(eid)
    records = {r.id: r for r in service.results.player_records(eid)}
    assert all(r.outcome.value != "loss" for r in records[late.id].rounds)


async def test_a_player_added_by_mistake_is_deleted_before_they_played(
    service: EventService,
) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    mistake = service.registration.add_player(eid, "Typo Name")
    assert mistake.id in _paired(service, eid)
    service.control.delete_player(eid, mistake.id)
    assert mistake.id not in _paired(service, eid)
    assert mistake.id not in {p.id for p in service.book.players(eid)}
    await service.rounds.start(eid)
    played = service.book.players(eid)[0]
    with pytest.raises(RuleError, match="has played in round 1") as refused:
        service.control.delete_player(eid, played.id)
    assert "Drop them instead" in refused.value.message
    assert played.id in {p.id for p in service.book.players(eid)}


async def test_a_swap_leaves_a_stale_link_that_names_the_event(service: EventService) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    rows = json.loads(service.book.current_round(eid).pairings_json)  # type: ignore[union-attr]
    service.rounds.swap(eid, rows[0]["p1"], rows[1]["p1"])
    stale = service.control.stale_link(rows[0]["table_id"])
    assert stale is not None and "swapped" in stale.why and stale.round == 1


async def test_round_end_preview_names_the_tables_it_would_tie__DC8(
    service: EventService,
) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    tables: list[TableRoom] = service.tables.rooms(eid)
    await every_first_seat_goes_first(tables)
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
    short = tables[1]
    await short.apply(c.Role.EO, "", 0, c.AdjustClock(side=Side.P1, remaining_ms=2 * MIN))
    await short.apply(c.Role.EO, "", 0, c.AdjustClock(side=Side.P2, remaining_ms=2 * MIN))
    preview = service.control.round_end_preview(eid)
    assert preview == {tables[0].table_id: "tie", short.table_id: "play_on"}
    assert tables[0].game.phase.value != "over"  # nothing was done
    assert await service.round_clock.call_end(eid) == preview


async def test_the_eo_cannot_set_a_clock_above_the_player_clock__DC5(
    service: EventService,
) -> None:
    eid = _event(service, 2, points=75)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room = service.tables.rooms(eid)[0]
    command = {"c": "adjust_clock", "side": "p1", "remaining_ms": 119 * MIN}
    with pytest.raises(BadInput, match="0:00 to 60:00"):
        await service.tables.command(eid, room.table_id, command)


async def test_a_disputed_table_shows_the_reason_and_both_reports(service: EventService) -> None:
    eid = _event(service, 2)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room = service.tables.rooms(eid)[0]
    await room.apply(Side.P1, "a", 1, c.Concede())
    await room.apply(Side.P1, "a", 2, c.ReportGame(12, list_played="Haley"))
    await room.apply(Side.P2, "b", 1, c.ReportGame(40, list_played="Butcher"))
    await room.apply(Side.P1, "a", 3, c.DisputeResult("I never conceded"))
    detail = service.tables.detail(eid, room.table_id)
    first, second = room.game.setup.names  # each reason after its player's name
    assert detail["disputed"] == f"{first}: I never conceded"
    assert [r["army_points_destroyed"] for r in detail["reports"]] == [12, 40]
    assert [r["list_played"] for r in detail["reports"]] == ["Haley", "Butcher"]
    assert detail["ending"] == {"method": "concession", "winner": "p2"}
    await room.apply(Side.P2, "b", 2, c.DisputeResult("P1 conceded at turn 3"))
    await room.apply(Side.P1, "a", 4, c.DisputeResult("I never conceded, ask the judge"))
    reasons = service.tables.detail(eid, room.table_id)["disputed"].split("\n")
    assert reasons == [
        f"{second}: P1 conceded at turn 3",
        f"{first}: I never conceded, ask the judge",
    ]


async def test_the_eo_log_names_whose_clock_the_eo_set__DC5(service: EventService) -> None:
    """The EO's log says whose clock was set by the player's name, never by a seat: after
    a starting roll that made the second seat's player go first, "p1" (the side that goes
    first) is that player."""
    eid = _event(service, 2, points=75)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room = service.tables.rooms(eid)[0]
    assert room.meta is not None
    players = {p.id: p.name for p in service.book.players(eid)}
    first_seat, second_seat = players[room.meta.p1_player], players[room.meta.p2_player]
    await room.apply(Side.P1, "a", 1, c.StartingRoll(at_table=(6, 1)))
    await room.apply(Side.P1, "a", 2, c.ChooseOrder(first=False))  # the second seat goes first
    for side in ("p1", "p2"):
        command = {"c": "adjust_clock", "side": side, "remaining_ms": 45 * MIN}
        await service.tables.command(eid, room.table_id, command)
    logged = [
        json.loads(a.detail_json)["detail"]
        for a in service.book.actions(eid)
        if a.action == "table_adjust_clock"
    ]
    assert [(d["side"], d["name"]) for d in logged] == [("p1", second_seat), ("p2", first_seat)]


@pytest.mark.parametrize(
    ("format_id", "points", "call"), [("sr2019", 75, "play_on"), ("ig2014", 50, "tie")]
)
async def test_the_round_end_preview_calls_a_paused_table_as_its_format_does__DC8(
    service: EventService, format_id: str, points: int, call: str
) -> None:
    """SR2019 lets a table the EO paused this round play on at the round's end; IG2014
    has no such exception (a draw). The admin's preview says what the round's end then
    does, table by table."""
    eid = _event(service, 2, format_id=format_id, points=points)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room: TableRoom = service.tables.rooms(eid)[0]
    await every_first_seat_goes_first([room])
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
    await room.apply(c.Role.EO, "", 0, c.PauseClock())
    await room.apply(c.Role.EO, "", 0, c.ResumeClock())
    assert room.game.paused_by_eo
    preview = service.control.round_end_preview(eid)
    assert preview == {room.table_id: call}
    assert await service.round_clock.call_end(eid) == preview
