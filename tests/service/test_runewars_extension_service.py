"""The regulations' "Lost and Damaged Components" through the event service (DC11): the
organiser gives one table of the round a short time extension with a reason; that
table's phones, the dashboard's card and the event's view show it; the round timer
calls time on the other tables at 90 minutes and on that one at its own end, and the
organiser's call of time reaches it only then. Time is the injected fake clock."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.runewars.state import RwGame
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.tournaments import Policy
from app.tables.room import TableRoom
from app.tables.runewars import table as runewars_table
from app.tables.timesource import FakeTime

MINUTE = 60_000


def _policy(service: EventService, eid: str) -> Policy:
    policy = service.tournaments.of_event(eid)
    assert policy is not None
    return policy


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)  # the timers' callbacks run on the loop


def _called(room: TableRoom) -> bool:
    assert isinstance(room.game, RwGame)
    return room.game.time_called


async def test_one_table_gets_more_time_and_its_time_is_called_at_its_end__DC11(
    service: EventService,
) -> None:
    time = service.time
    assert isinstance(time, FakeTime)
    eid = service.registration.create_event(
        EventSpec("Ext", format_id="runewars2017", fixed_rounds=2)
    ).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        policy.register(eid, name, 190)
    policy.pair_next(eid)
    (table_1, table_2) = sorted(
        policy.live(eid).rooms(), key=lambda r: r.meta.table_no if r.meta else 0
    )
    # At the beginning of the round: Ann's dice are missing; the minutes count from the start.
    await policy.extend(eid, table_1.table_id, 4, "Ann's dice are missing")
    await policy.start_round(eid)
    time.advance(20 * MINUTE)
    await policy.extend(eid, table_1.table_id, 6, "Ann looks for her range ruler")
    with pytest.raises(BadInput, match="give the reason"):
        await policy.extend(eid, table_2.table_id, 5, "")
    with pytest.raises(NotFound):
        await policy.extend(eid, "no-such-table", 5, "lost dice")

    view = policy.view(eid)["rounds"][0]
    row = next(p for p in view["pairings"] if p["table"] == 1)
    assert (row["extension_minutes"], row["extension_reason"]) == (
        10,
        "Ann looks for her range ruler",
    )
    assert row["ends_ms"] == view["started_ms"] + 100 * MINUTE
    other = next(p for p in view["pairings"] if p["table"] == 2)
    assert (other["extension_minutes"], other["ends_ms"]) == (0, view["started_ms"] + 90 * MINUTE)
    phone = json.loads(table_1.snapshot("p1"))
    assert phone["game"]["extension_minutes"] == 10
    assert phone["game"]["extension_reason"] == "Ann looks for her range ruler"
    assert isinstance(table_1.game, RwGame)
    card = runewars_table.board(table_1.table_id, 1, table_1.game, "playing", time.now_ms())
    assert card["extension_minutes"] == 10 and card["time_left_ms"] == 80 * MINUTE

    time.advance(70 * MINUTE)  # 90 minutes: the round timer calls time on table 2 only
    await _settle()
    assert _called(table_2) and not _called(table_1)
    await policy.call_time(eid)  # the organiser's call waits for table 1's own end
    assert not _called(table_1)
    calls = [a for a in service.book.actions(eid) if a.action == "call_time"]
    assert json.loads(calls[-1].detail_json)["later"] == [1]
    time.advance(10 * MINUTE)
    await _settle()
    assert _called(table_1)
    log = service.hub.store.log(table_1.table_id)
    assert any('"extend_time"' in e.command_json and e.actor == "eo" for e in log)
    assert log[-1].actor == "system" and '"call_time"' in log[-1].command_json
    extended = [a for a in service.book.actions(eid) if a.action == "extend_table"]
    assert [json.loads(a.detail_json)["minutes"] for a in extended] == [4, 6]
    policy.collect(eid)
    with pytest.raises(RuleError, match="time is already called"):
        await policy.extend(eid, table_1.table_id, 5, "too late")
