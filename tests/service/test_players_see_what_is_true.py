"""What the phones are told is true: presence, the undo window, the result and what
decided it, the dashboard's CP, round-time only where there is a round, plain words."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.game import UNDO_UNSEEN_MS, UNDO_WINDOW_MS
from app.store.repository import Store
from app.tables import protocol
from app.tables.fanout import Subscriber
from app.tables.hub import TableHub
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from app.tables.warmachine.view import game_view, table_summary


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[TableRoom, FakeTime]]:
    store = Store(f"sqlite:///{tmp_path / 'true.db'}")
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_minutes=60, scenario="bunkers"))
    yield room, time
    await hub.close()
    store.close()


def _drain(sub: Subscriber) -> list[dict[str, object]]:
    out = []
    while not sub.queue.empty():
        out.append(json.loads(sub.queue.get_nowait()))
    return out


def _presence(messages: list[dict[str, object]]) -> dict[str, object]:
    found = [m for m in messages if m["t"] == "presence"]
    assert found, messages
    return found[-1]["seats"]  # type: ignore[return-value]


async def test_presence_says_when_the_opponent_is_gone_and_a_second_device_joins(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, _ = table
    p1, p2 = Subscriber("p1"), Subscriber("p2")
    room.join(p1, None, "phone-a", presence=True)
    assert _presence(_drain(p1))["p2"] == {"online": False, "devices": 0}
    room.join(p2, None, "phone-b", presence=True)
    assert _presence(_drain(p1))["p2"] == {"online": True, "devices": 1}
    # A second device opens P2's seat: both of P2's screens hear it (two devices).
    p2_again = Subscriber("p2")
    room.join(p2_again, None, "phone-c", presence=True)
    assert _presence(_drain(p2))["p2"] == {"online": True, "devices": 2}
    # The same device reconnecting is one device, not two.
    room.leave(p2_again)
    assert _presence(_drain(p1))["p2"]["devices"] == 1  # type: ignore[index]
    room.leave(p2)
    assert _presence(_drain(p1))["p2"] == {"online": False, "devices": 0}
    # A screen that did not ask for presence (older phones, watchers) gets none.
    watch = Subscriber("watch")
    room.join(watch, None, "tv")
    assert all(m["t"] != "presence" for m in _drain(watch))


async def _to_turn(room: TableRoom, time: FakeTime) -> None:
    await room.apply(Side.P1, "a", 1, c.StartClock())
    for seq, side in enumerate((Side.P1, Side.P2, Side.P1, Side.P2), start=2):
        time.advance(1000)
        await room.apply(side, "ab"[side], seq, c.PassTurn(expect=side))


async def test_an_undo_request_lapses_by_itself_after_the_window(
    table: tuple[TableRoom, FakeTime],
) -> None:
    """The opponent's window starts when their phone shows the request; the server then
    lapses it at its moment, and every screen is told who asked and that it lapsed."""
    room, time = table
    await _to_turn(room, time)
    await room.apply(Side.P1, "a", 10, c.PassTurn(expect=Side.P1))
    await room.apply(Side.P1, "a", 11, c.ProposeUndo())
    view = game_view(room.game, time.now_ms())
    asked = [d for d in view["due"] if d["kind"] == "answer_undo"]
    assert asked and not asked[0]["seen"]
    assert asked[0]["until_ms"] == time.now_ms() + UNDO_UNSEEN_MS
    time.advance(20_000)  # the request is not lost while Bob's phone has not shown it
    await room.apply(Side.P2, "b", 12, c.UndoSeen())
    view = game_view(room.game, time.now_ms())
    asked = [d for d in view["due"] if d["kind"] == "answer_undo"]
    assert asked and asked[0]["until_ms"] == time.now_ms() + UNDO_WINDOW_MS
    time.advance(UNDO_WINDOW_MS)
    await room.apply(c.Role.SYSTEM, "", 0, c.FlagCheck())
    lapsed = game_view(room.game, time.now_ms())
    assert lapsed["undo"] is None
    assert all(d["kind"] != "answer_undo" for d in lapsed["due"])
    assert {"kind": "undo_outcome", "asked_by": "p1", "end": "lapsed"}.items() <= next(
        d for d in lapsed["due"] if d["kind"] == "undo_outcome"
    ).items()
    with pytest.raises(RuleError, match="lapsed"):
        await room.apply(Side.P2, "b", 13, c.AnswerUndo(accept=True))


async def test_the_turn_end_prompts_follow_the_formats_marks__TS2_TS3(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    await _to_turn(room, time)
    await room.apply(Side.P1, "a", 10, c.PassTurn(expect=Side.P1))
    await room.apply(Side.P2, "b", 11, c.PassTurn(expect=Side.P2))
    # P1's turn 2: the kill box is asked, scoring not yet (from the end of P2's turn 2).
    table_info = json.loads(room.snapshot("p1"))["table"]
    assert table_info["kill_box_from"] == {"turn": 2, "side": "p1"}
    assert table_info["scoring_from"] == {"turn": 2, "side": "p2"}
    due = game_view(room.game, time.now_ms())["due"]
    assert {"kind": "turn_end", "by": "p1", "kill_box": True, "scoring": False} in due
    await room.apply(Side.P1, "a", 12, c.PassTurn(Side.P1, c.TurnEnd(kill_box=False)))
    due = game_view(room.game, time.now_ms())["due"]
    turn_end = c.TurnEnd(kill_box=False, scoring=c.Scoring())
    assert {"kind": "turn_end", "by": "p2", "kill_box": True, "scoring": True} in due
    await room.apply(Side.P2, "b", 13, c.PassTurn(Side.P2, turn_end))


async def test_a_tie_broken_by_presence_shows_each_tiebreaker_and_no_stale_prompt__TS7(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    await _to_turn(room, time)
    await room.apply(Side.P1, "a", 10, c.CasterDestroyed(both=True))
    await room.apply(Side.P1, "a", 11, c.ReportGame(30, None, ""))
    await room.apply(Side.P2, "b", 12, c.ReportGame(30, None, ""))
    asked = game_view(room.game, time.now_ms())
    assert {"kind": "scenario_presence"} in asked["due"] and asked["result"] is None
    await room.apply(Side.P1, "a", 13, c.ReportGame(30, 4, ""))
    await room.apply(Side.P2, "b", 14, c.ReportGame(30, 2, ""))
    await room.apply(Side.P1, "a", 15, c.ConfirmResult())
    await room.apply(Side.P2, "b", 16, c.ConfirmResult())
    view = game_view(room.game, time.now_ms())
    assert view["result"]["winner"] == "p1" and view["settled"]
    assert view["due"] == []  # no "still tied" once presence broke the tie
    assert view["decided_by"] == [
        {"step": "casters", "values": [0, 0]},
        {"step": "control_points", "values": [0, 0]},
        {"step": "army_points_suffered", "values": [30, 30]},
        {"step": "scenario_presence", "values": [4, 2]},
    ]


async def test_the_dashboard_shows_the_results_cp_after_a_concession(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    await _to_turn(room, time)
    await room.apply(Side.P2, "b", 10, c.Concede())
    await room.apply(Side.P1, "a", 11, c.ReportGame(12, None, ""))
    result = game_view(room.game, time.now_ms())["result"]
    row = table_summary(room.table_id, 1, room.game, "finished", time.now_ms())
    assert row["control_points"] == result["control_points"] == [3, 0]


async def test_a_quick_game_has_no_round_time_to_call_a_tie_on__DC8(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    await _to_turn(room, time)
    assert json.loads(room.snapshot("eo"))["table"]["round"] is None
    with pytest.raises(RuleError, match="no round"):
        await room.apply(c.Role.EO, "eo", 1, c.CallTie())


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("army_points_destroyed", "Army points destroyed"),
        ("scenario_presence", "Scenario presence"),
    ],
)
def test_a_fraction_of_army_points_is_refused_in_plain_words(field: str, words: str) -> None:
    raw = {"army_points_destroyed": 12, field: 12.5}
    text = json.dumps({"t": "cmd", "seq": 1, "c": "report", **raw})
    with pytest.raises(BadInput) as refused:
        protocol.parse(text)
    assert refused.value.message.startswith(words + " must be a whole number")
    assert field not in refused.value.message
    adjust = json.dumps(
        {"t": "cmd", "seq": 2, "c": "adjust_clock", "side": "p1", "remaining_ms": "x"}
    )
    with pytest.raises(BadInput) as bad_clock:
        protocol.parse(adjust)
    assert "remaining_ms" not in bad_clock.value.message
