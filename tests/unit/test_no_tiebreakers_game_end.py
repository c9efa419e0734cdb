"""SR2019 "No Tiebreakers" (steamroller-2019.txt, Victory Variants): "This event does not
use tiebreakers. If time expires, the game is a tie." At the end of the second player's
turn 7 the scenario's Victory Conditions still apply ("the player with the most control
points wins via scenario victory"); where they would send equal CP to "the 3rd tiebreaker
... and if necessary the 4th", and where both casters fall at once ("victory is
determined using tiebreakers"), this event has none: the game is a tie."""

from __future__ import annotations

from app.domain import commands as c
from app.domain import variants
from app.domain.frozen import replace
from app.domain.game import Game, Method, Phase, Setup, new_game
from tests.unit.helpers import EO, MINUTE, P1, P2, Table, scoring


def _no_tiebreakers() -> Table:
    setup = Setup(
        format_id="sr2019",
        scenario_id="king-of-the-hill",
        player_clock_ms=60 * MINUTE,
        army_points=75,
        variants=(variants.CLASSIC, variants.NO_TIEBREAKERS),
    )
    return Table(new_game(setup, 0), 0)


def _reported(table: Table, apd: tuple[int, int]) -> Game:
    for side in (P1, P2):
        table.do(side, c.ReportGame(army_points_destroyed=apd[side], scenario_presence=None))
    return table.game


def test_no_tiebreakers_equal_cp_at_turn_seven_is_a_tie__TS4() -> None:
    table = _no_tiebreakers()
    table.play_to(7, P2)
    game = table.tap()
    assert game.phase is Phase.OVER and game.control_points == (0, 0)
    assert game.ending is not None and game.ending.winner is None
    assert game.ending.method is Method.SCENARIO  # the Victory Conditions, not tiebreakers
    result = _reported(table, (40, 10)).result()  # APD would decide it: not used here
    assert result is not None and result.winner is None and result.method is Method.SCENARIO


def test_no_tiebreakers_both_casters_at_once_is_a_tie__TS6_TS7() -> None:
    table = _no_tiebreakers()
    table.play_to(3, P1)
    game = table.do(P1, c.CasterDestroyed(both=True))
    assert game.ending is not None and game.ending.winner is None
    assert game.ending.method is not Method.TIEBREAKER
    result = _reported(table, (40, 10)).result()
    assert result is not None and result.winner is None


def test_no_tiebreakers_most_cp_at_turn_seven_still_wins_by_scenario__TS4() -> None:
    """The Victory Conditions' "most control points wins via scenario victory" is no
    tiebreaker: it stands under No Tiebreakers."""
    table = _no_tiebreakers()
    table.play_to(7, P2)
    table.game = replace(table.game, control_points=(3, 2))
    game = table.tap()
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P1)


def test_no_tiebreakers_dice_down_is_a_tie_whatever_the_lead__DC10() -> None:
    """No Tiebreakers: "If time expires, the game is a tie"; a CP lead short of a
    scenario victory in the last scoring does not win."""
    table = _no_tiebreakers()
    table.play_to(3, P1)
    table.game = replace(table.game, control_points=(4, 0))
    table.do(EO, c.DiceDown())
    game = table.do(P1, c.FinalScoring(scoring({}), kill_box=False))  # still a lead of 4, not 5
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.TIME, None)
    result = _reported(table, (40, 10)).result()
    assert result is not None and result.winner is None and result.method is Method.TIME


def test_no_tiebreakers_a_scenario_victory_in_the_last_scoring_wins__DC10() -> None:
    """Dice down "still prompts a final iteration of scenario scoring": a lead of 5 CP
    there is a scenario victory, a clear winner, not a time-out tie."""
    table = _no_tiebreakers()
    table.play_to(3, P1)
    table.game = replace(table.game, control_points=(4, 0))
    table.do(EO, c.DiceDown())
    game = table.do(P1, c.FinalScoring(scoring({"flag-1": P1}), kill_box=False))
    assert game.control_points == (5, 0) and game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P1)


def test_no_tiebreakers_ties_say_why_on_the_phones__TS4_TS7() -> None:
    """The result's words name the tie's reason, not a method that won nothing."""
    from app.tables.warmachine.view import game_view

    level = _no_tiebreakers()
    level.play_to(7, P2)
    level.tap()
    _reported(level, (40, 10))
    assert game_view(level.game, 0)["result"]["words"] == "Tie on equal control points"

    both = _no_tiebreakers()
    both.play_to(3, P1)
    both.do(P1, c.CasterDestroyed(both=True))
    _reported(both, (40, 10))
    assert game_view(both.game, 0)["result"]["words"] == "Tie: both casters destroyed"
