"""A table's result is typed through the service, read from its table's log; JSON only at
the API."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.method import Method
from app.events.table_result import TableResult, recorded_result
from app.tables.jsontext import dumps, loads
from app.tables.warmachine.codec import command_from_wire, command_to_wire
from tests.unit.helpers import table_at


def test_an_eo_correction_reads_back_from_the_table_log_as_it_went_in__TS9() -> None:
    """The EO's result is a command in the table's log, its one record: written to the
    log and read back, it says everything the event shows (method, lists, reason)."""
    entered = c.RecordResult(
        winner=Side.P2,
        control_points=(0, 3),
        army_points_destroyed=(0, 38),
        method=Method.ASSASSINATION,
        lists=("Vlad", "Sorscha"),
        reason="wrong table reported",
        round_closed=True,
    )
    assert command_from_wire(loads(dumps(command_to_wire(entered)))) == entered
    bare = c.RecordResult(winner=None, control_points=(1, 1), army_points_destroyed=(9, 9))
    assert command_from_wire(command_to_wire(bare)) == bare


def test_the_result_the_event_counts_is_read_from_the_game__TS9() -> None:
    table = table_at(3, Side.P2)
    table.do(Side.P1, c.Concede())
    table.do(Side.P2, c.ReportGame(army_points_destroyed=10, list_played="Vlad"))
    assert recorded_result(table.game) is None  # nobody confirmed yet
    table.do(Side.P2, c.ConfirmResult())
    table.do(Side.P1, c.ConfirmResult())
    players = recorded_result(table.game)
    assert players is not None and players.by == "players" and players.winner is Side.P2
    game = table.do(
        c.Role.EO,
        c.RecordResult(
            winner=Side.P1,
            control_points=(3, 0),
            army_points_destroyed=(38, 0),
            lists=("Vlad", ""),
            reason="P1 conceded by mistake",
        ),
    )
    result = recorded_result(game)
    assert result is not None and result.by == "eo" and result.winner is Side.P1
    assert result.correction is not None
    assert result.correction.before == players and not result.correction.round_closed
    shown = result.as_json()
    assert shown["by"] == "eo" and shown["correction"]["before"]["by"] == "players"
    assert result.outcome_for(Side.P1) == "win" and players.outcome_for(Side.P1) == "loss"


@pytest.mark.parametrize(
    "body",
    [
        {"winner": "p3", "control_points": [0, 0], "army_points_destroyed": [0, 0]},
        {"winner": None, "control_points": [0], "army_points_destroyed": [0, 0]},
        {"winner": None, "control_points": [0, 0], "army_points_destroyed": [0, -1]},
    ],
)
def test_an_eo_result_is_checked_at_the_edge(body: dict[str, object]) -> None:
    with pytest.raises(BadInput):
        TableResult.from_wire(body)
