"""The game view the phones render: every report field, prompts asked once."""

from __future__ import annotations

from dataclasses import asdict

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.game import Setup, apply, new_game
from app.tables.warmachine.view import game_view


def test_the_view_carries_every_field_of_a_report__TS9() -> None:
    game = new_game(Setup("sr2019", "bunkers", 60_000, 75), 0)
    game = apply(game, Side.P1, c.StartClock(), 0)
    game = apply(game, Side.P1, c.Concede(), 1_000)
    game = apply(game, Side.P2, c.ReportGame(army_points_destroyed=40, list_played="B"), 2_000)
    view = game_view(game, 3_000)
    report = game.reports[Side.P2]
    assert report is not None
    assert view["reports"] == [None, asdict(report)]


def test_the_table_info_carries_every_rule_value_the_phone_replays_offline() -> None:
    """A phone replays offline taps with the server's numbers, never its own constants."""
    from app.domain.game import UNDO_WINDOW_MS
    from app.tables.warmachine.view import table_info

    game = new_game(Setup("sr2019", "bunkers", 60_000, 75), 0)
    info = table_info("t1", game)
    assert info["undo_window_ms"] == UNDO_WINDOW_MS
    assert info["kill_box_cp"] == game.format.kill_box_cp
    assert info["victory_lead"] == game.format.victory_lead
    assert info["scoring_from"] == {"turn": game.format.scoring_from.turn, "side": "p2"}
    assert all(isinstance(e["cp"], int) for e in info["scenario"]["elements"])
