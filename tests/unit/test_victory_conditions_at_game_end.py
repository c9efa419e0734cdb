"""TS4, DC10: a game that ends with no winner at its fixed length (the end of the second
player's turn 7) or at dice down follows the scenario's Victory Conditions
(steamroller-2019.txt, masters-champions-2019.txt): "If the game ends before a player
wins via scenario or assassination victory, the player with the most control points wins
via scenario victory. If the players are tied for control points when the game ends, use
the 3rd tiebreaker (army points destroyed) and if necessary the 4th tiebreaker (scenario
presence) to determine the winner." The 1st tiebreaker (casters remaining) is for what
the documents send to "tiebreakers": both casters destroyed at once."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain import variants
from app.domain.formats import get_format
from app.domain.frozen import replace
from app.domain.game import Game, Method, Phase, Setup, new_game
from app.domain.rulebook import Tiebreaker
from app.domain.state import end_by_victory_conditions
from app.tables.snapshot import read, write
from app.tables.warmachine.view import game_view, table_summary
from tests.unit.helpers import EO, MINUTE, P1, P2, Table, scoring

GAME_END = (Tiebreaker.APD_SUFFERED, Tiebreaker.COLLECTED)


def _table(*chosen: str, format_id: str = "sr2019") -> Table:
    setup = Setup(
        format_id=format_id,
        scenario_id="king-of-the-hill",
        player_clock_ms=60 * MINUTE,
        army_points=75,
        variants=chosen,
    )
    return Table(new_game(setup, 0), 0)


def _report(table: Table, apd: tuple[int, int], presence: tuple[int, int] | None = None) -> None:
    for side in (P1, P2):
        table.do(
            side,
            c.ReportGame(
                army_points_destroyed=apd[side],
                scenario_presence=None if presence is None else presence[side],
            ),
        )


def test_the_3rd_and_4th_tiebreakers_decide_equal_cp_at_turn_seven__TS4() -> None:
    """Under No Assassination Victory P1's caster is gone and the game goes on to turn 7
    on equal CP: the casters (1st tiebreaker) do not decide it, the APD suffered does."""
    table = _table(variants.NO_ASSASSINATION)
    table.play_to(3, P1)
    table.do(P1, c.CasterDestroyed())
    table.play_to(7, P2)
    assert table.game.casters == (False, True)
    game = table.tap()  # a quiet table: nothing scored, 0 CP each
    assert game.phase is Phase.OVER and game.control_points == (0, 0)
    ending = game.ending
    assert ending is not None and ending.method is Method.TIEBREAKER
    assert ending.tiebreakers == GAME_END
    _report(table, (40, 10))  # P1 destroyed 40 of P2's; P2 only 10 of P1's
    result = table.game.result()
    assert result is not None and result.winner is P1  # before: P2, on casters


def test_equal_cp_at_the_game_end_skips_casters_and_cp__TS4() -> None:
    game = _ended_on_equal_cp()
    assert game.ending is not None and game.ending.tiebreakers == GAME_END
    table = Table(game, game.ending.at_ms)
    _report(table, (20, 20), (31, 30))  # equal APD: the 4th tiebreaker decides
    result = table.game.result()
    assert result is not None and result.winner is P1 and result.method is Method.TIEBREAKER


def test_dice_down_on_equal_cp_goes_to_the_3rd_tiebreaker__DC10_TS4() -> None:
    table = _table(variants.CLASSIC)
    table.play_to(3, P1)
    game = table.do(EO, c.DiceDown())
    assert game.final_scoring_due
    game = table.do(P1, c.FinalScoring(scoring({}), kill_box=False))
    assert game.control_points == (0, 0)
    assert game.ending is not None and not game.final_scoring_due
    assert game.ending.method is Method.TIEBREAKER and game.ending.tiebreakers == GAME_END
    _report(table, (10, 30), (0, 50))
    result = table.game.result()
    assert result is not None and result.winner is P2  # P2 suffered fewer APD


def test_dice_down_before_scoring_starts_decides_at_once__DC10_TS4() -> None:
    table = _table(variants.CLASSIC)
    table.play_to(1, P2)
    game = table.do(EO, c.DiceDown())
    assert not game.final_scoring_due and game.control_points == (0, 0)
    assert game.ending is not None
    assert game.ending.method is Method.TIEBREAKER and game.ending.tiebreakers == GAME_END


def test_both_casters_at_once_still_run_every_tiebreaker__TS7() -> None:
    table = _table()
    table.play_to(3, P1)
    game = table.do(P1, c.CasterDestroyed(both=True))
    assert game.ending is not None and game.ending.method is Method.TIEBREAKER
    assert game.ending.tiebreakers is None  # the format's own, from casters remaining


def test_a_format_without_game_end_tiebreakers_keeps_its_own_chain__TS7() -> None:
    """Iron Gauntlet 2014 breaks a tie "as outlined on the Scenario Reference Sheet":
    its own tiebreakers from the 1st."""
    assert get_format("ig2014").game_end_tiebreakers is None
    assert get_format("sr2019").game_end_tiebreakers == GAME_END
    assert get_format("masters2019").game_end_tiebreakers == GAME_END
    assert get_format("champions2019").game_end_tiebreakers == GAME_END


def test_the_game_end_tiebreakers_survive_a_snapshot__TS4() -> None:
    game = _ended_on_equal_cp()
    again = read(write(game))
    assert again.ending == game.ending


def _ended_on_equal_cp() -> Game:
    table = _table()
    table.play_to(3, P1)
    return end_by_victory_conditions(table.game, table.now)


def _words(game: Game) -> tuple[str, str]:
    """What the phones and the EO's dashboard say of the ending: one text."""
    phone = game_view(game, 0)["ending"]["words"]
    board = table_summary("t", 1, game, "over", 0)["ending"]["words"]
    return phone, board


def test_the_phones_and_the_dashboard_name_what_decides_a_game_end_tie__TS4() -> None:
    steps = (
        "Game over — equal control points: the 3rd tiebreaker (army points destroyed) "
        "decides, then the 4th (scenario presence)"
    )
    assert _words(_ended_on_equal_cp()) == (steps, steps)


def test_a_win_on_most_cp_at_the_game_end_says_so__TS4() -> None:
    table = _table()
    table.play_to(3, P1)
    game = replace(table.game, control_points=(3, 1))
    game = end_by_victory_conditions(game, table.now)
    winner = game.names[P1]
    said = f"{winner} wins by scenario — most control points when the game ended"
    assert _words(game) == (said, said)


def test_both_casters_at_once_say_the_tiebreakers_decide__TS7() -> None:
    table = _table()
    table.play_to(3, P1)
    game = table.do(P1, c.CasterDestroyed(both=True))
    assert _words(game) == ("Game over — tiebreakers decide",) * 2


# -- dice down on a CP lead, Masters and Champions, the formats with their own rules -------


def test_dice_down_on_a_cp_lead_is_a_scenario_win_not_the_casters__DC10_TS4() -> None:
    """DC10 "refer to 'Victory Conditions'": the most CP wins via scenario victory, even
    where the 1st tiebreaker (casters remaining) would have given it to the other."""
    table = _table(variants.CLASSIC, variants.NO_ASSASSINATION)
    table.play_to(3, P1)
    table.do(P1, c.CasterDestroyed())  # P1 plays on without a caster
    table.game = replace(table.game, control_points=(2, 0))
    table.do(EO, c.DiceDown())
    game = table.do(P1, c.FinalScoring(scoring({}), kill_box=False))  # nothing more: P1 leads 2-0
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P1)
    _report(table, (10, 30))
    result = table.game.result()
    assert result is not None and (result.winner, result.method) == (P1, Method.SCENARIO)


@pytest.mark.parametrize("format_id", ["masters2019", "champions2019"])
def test_masters_and_champions_end_turn_seven_by_their_victory_conditions__TS4(
    format_id: str,
) -> None:
    """masters-champions-2019.txt, every scenario: "the player with the most control
    points wins via scenario victory ... tied ... use the 3rd tiebreaker (army points
    destroyed) and if necessary the 4th tiebreaker (scenario presence)"."""
    led = Table.new(format_id=format_id)
    led.play_to(7, P2)
    led.game = replace(led.game, control_points=(1, 3))
    game = led.tap()
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P2)
    tied = Table.new(format_id=format_id)
    tied.play_to(7, P2)
    game = tied.tap()
    assert game.ending is not None and game.ending.tiebreakers == GAME_END
    _report(tied, (25, 25), (10, 12))
    result = tied.game.result()
    assert result is not None and (result.winner, result.method) == (P2, Method.TIEBREAKER)


def test_a_legacy_game_at_dice_down_goes_to_the_tiebreakers_from_the_1st__DC10_TS7() -> None:
    """legacy-scenarios.txt: no page says the most CP wins when the game ends; the pack is
    played with SR2019's Deathclock rules, whose tiebreakers begin "If the game ends
    before a player has won the game": casters remaining, then CP."""
    setup = Setup(
        format_id="legacy",
        scenario_id="capture-the-flag",
        player_clock_ms=60 * MINUTE,
        army_points=75,
        variants=(variants.CLASSIC,),
    )
    table = Table(new_game(setup, 0), 0)
    table.play_to(1, P2)  # before the flags are scored: no last scoring
    table.game = replace(table.game, control_points=(1, 0))
    game = table.do(EO, c.DiceDown())
    assert not game.final_scoring_due and game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.TIEBREAKER, None)
    assert game.ending.tiebreakers is None
    _report(table, (0, 0))
    result = table.game.result()
    assert result is not None and (result.winner, result.method) == (P1, Method.TIEBREAKER)
