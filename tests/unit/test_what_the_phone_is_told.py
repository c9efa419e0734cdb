"""What the phones are told about a game, format by format (issue 37): each test names the
document's section or rule id it follows."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.errors import RuleError
from app.domain.frozen import replace
from app.domain.game import Method, Phase, Setup, new_game
from app.domain.pregame import Pregame
from app.tables.warmachine.view import game_view

from .helpers import MINUTE, P1, P2, Table


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


# -- TS8, SR2019 "Sportsmanship": a concession -----------------------------------------


def _conceded(p2_list: str | None) -> Table:
    table = Table.new(army_points=75)
    table.play_to(2, P1)
    pregame = Pregame(steps=(), lists=("Haley2 / Storm Division (75)", p2_list))
    table.game = replace(table.game, pregame=pregame)
    table.do(P2, c.Concede())
    table.do(P1, c.ReportGame(army_points_destroyed=10))
    return table


def test_a_concession_gives_half_the_conceding_players_list__TS8_sportsmanship() -> None:
    """ "army points destroyed equal to half the total value of the opponent's starting
    army, rounded up": the list P2 played is 49 points, not the event's 75."""
    table = _conceded("Kreoss3 / Exemplar Interdiction (49)")
    result = table.game.result()
    assert result is not None and result.army_points_destroyed == (25, 0)
    view = game_view(table.game, table.now)
    assert view["result"]["conceded_army"] == {
        "points": 49,
        "list": "Kreoss3 / Exemplar Interdiction (49)",
        "by": "p2",
    }


def test_a_concession_without_the_lists_points_uses_the_event_size_and_says_so__TS8() -> None:
    table = _conceded("Kreoss3")
    result = table.game.result()
    assert result is not None and result.army_points_destroyed == (38, 0)
    army = game_view(table.game, table.now)["result"]["conceded_army"]
    assert army == {"points": 75, "list": None, "by": "p2"}


def test_after_a_concession_the_header_cp_is_the_results__TS8_sportsmanship() -> None:
    """One truth: the winner's 3 CP on the result are the CP the phone's header shows."""
    table = _conceded(None)
    view = game_view(table.game, table.now)
    assert view["result"]["control_points"] == [3, 0]
    assert view["control_points"] == [3, 0]


def test_iron_gauntlet_concession_does_not_speak_of_half_an_army__TS8() -> None:
    table = Table.new("outflank", format_id="ig2014", army_points=50)
    table.play_to(2, P1)
    table.do(P2, c.Concede())
    game = table.do(P1, c.ReportGame(army_points_destroyed=17))
    assert game_view(game, table.now)["result"]["conceded_army"] is None


# -- legacy-scenarios.txt, Scattered Lines ------------------------------------------------


def test_scattered_lines_has_no_advance_deployment_on_the_clock__legacy_scattered_lines() -> None:
    """ "Models with advanced deployment must be deployed in the deployment zone during
    regular deployment": after both players' deployment, P1's turn 1 begins."""
    table = Table.new("scattered-lines", format_id="legacy", army_points=75)
    assert table.start().phase is Phase.DEPLOYMENT
    table.tap()
    game = table.tap()
    assert (game.phase, game.turn, game.active) == (Phase.TURN, 1, P1)
    assert game_view(game, table.now)["phase"] == "turn"


def test_other_legacy_scenarios_keep_advance_deployment__legacy_scattered_lines() -> None:
    table = Table.new("transverse-assault", format_id="legacy", army_points=75)
    table.start()
    table.tap()
    assert table.tap().phase is Phase.ADVANCE_DEPLOYMENT


# -- SR2019 "Classic Turn Timing" ----------------------------------------------------------


def test_the_turn_timer_is_not_started_during_deployment__classic_turn_timing() -> None:
    """ "A player's turn time begins after the resolution of continuous effects": a turn's."""
    table = Table(
        new_game(
            Setup("sr2019", "king-of-the-hill", 60 * MINUTE, 50, variants=("classic_turn_timing",)),
            0,
        )
    )
    table.start()
    assert table.game.phase is Phase.DEPLOYMENT
    with pytest.raises(RuleError, match="not during deployment"):
        table.try_do(P1, c.StartTurnTimer())
    timer = game_view(table.game, table.now)["timer"]
    assert timer["round_ms"] == 70 * MINUTE  # the variant's round length at 50 points


# -- TS7: scenario presence is asked only where it can decide ------------------------------


def test_presence_is_not_asked_after_an_assassination__TS7_scenario_presence() -> None:
    table = Table.new()
    table.play_to(2, P1)
    game = table.do(P1, c.CasterDestroyed())
    assert game.phase is Phase.OVER
    assert game_view(game, table.now)["presence_asked"] is False


def test_presence_is_asked_when_the_tiebreakers_decide__TS7_scenario_presence() -> None:
    table = Table.new()
    table.play_to(2, P1)
    game = table.do(P1, c.CasterDestroyed(both=True))
    assert game_view(game, table.now)["presence_asked"] is True
