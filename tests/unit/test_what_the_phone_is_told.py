"""What the phones are told about a game, format by format (issue 37): each test names the
document's section or rule id it follows."""

from __future__ import annotations

from app.domain import commands as c
from app.domain.game import Method
from app.tables.warmachine.view import game_view

from .helpers import P1, P2, Table


def _ig_tied() -> Table:
    table = Table.new("outflank", format_id="ig2014", army_points=50)
    table.play_to(3, P1)
    table.do(P1, c.CasterDestroyed(both=True))
    return table


def test_ig2014_decided_by_follows_its_own_tiebreakers__TS7_3rd_tiebreaker() -> None:
    """Iron Gauntlet's Scenario Reference Sheet: casters, CP, army points remaining, then
    army points destroyed. A win on points remaining stops there (not on APD)."""
    table = _ig_tied()
    table.do(P1, c.ReportGame(army_points_destroyed=10, scenario_presence=24))
    game = table.do(P2, c.ReportGame(army_points_destroyed=40, scenario_presence=20))
    result = game.result()
    assert result is not None and result.winner is P1 and result.method is Method.TIEBREAKER
    assert game_view(game, table.now)["decided_by"] == [
        {"step": "casters", "values": [0, 0]},
        {"step": "control_points", "values": [0, 0]},
        {"step": "scenario_presence", "values": [24, 20]},
    ]


def test_ig2014_decided_by_reaches_apd_last__TS7_4th_tiebreaker() -> None:
    table = _ig_tied()
    table.do(P1, c.ReportGame(army_points_destroyed=30, scenario_presence=20))
    game = table.do(P2, c.ReportGame(army_points_destroyed=10, scenario_presence=20))
    assert [s["step"] for s in game_view(game, table.now)["decided_by"]] == [
        "casters",
        "control_points",
        "scenario_presence",
        "army_points_suffered",
    ]
    assert game_view(game, table.now)["decided_by"][-1]["values"] == [10, 30]
