"""The game view the phones render: every report field, prompts asked once."""

from __future__ import annotations

from dataclasses import asdict

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.game import Setup, apply, new_game
from app.tables.view import game_view


def test_the_view_carries_every_field_of_a_report__TS9() -> None:
    game = new_game(Setup("sr2019", "bunkers", 60_000, 75), 0)
    game = apply(game, Side.P1, c.StartClock(), 0)
    game = apply(game, Side.P1, c.Concede(), 1_000)
    game = apply(game, Side.P2, c.ReportGame(army_points_destroyed=40, list_played="B"), 2_000)
    view = game_view(game, 3_000)
    report = game.reports[Side.P2]
    assert report is not None
    assert view["reports"] == [None, asdict(report)]
