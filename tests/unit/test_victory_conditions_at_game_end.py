"""TS4, DC10: a game that ends with no winner at its fixed length (the end of the second
player's turn 7) or at dice down follows the scenario's Victory Conditions
(steamroller-2019.txt, masters-champions-2019.txt): "If the game ends before a player
wins via scenario or assassination victory, the player with the most control points wins
via scenario victory. If the players are tied for control points when the game ends, use
the 3rd tiebreaker (army points destroyed) and if necessary the 4th tiebreaker (scenario
presence) to determine the winner." The 1st tiebreaker (casters remaining) is for what
the documents send to "tiebreakers": both casters destroyed at once."""

from __future__ import annotations

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
    cp = table.game.control_points
    table.tap()
    game = table.game
    assert game.phase is Phase.OVER and game.control_points == cp
    if cp[0] == cp[1]:
        ending = game.ending
        assert ending is not None and ending.method is Method.TIEBREAKER
        assert ending.tiebreakers == GAME_END
        _report(table, (40, 10))  # P1 destroyed 40 of P2's; P2 only 10 of P1's
        result = table.game.result()
        assert result is not None and result.winner is P1  # before: P2, on casters
    else:
        assert game.ending is not None and game.ending.method is Method.SCENARIO


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
    game = table.do(P1, c.FinalScoring(scoring({})))
    p1, p2 = game.control_points
    assert game.ending is not None and not game.final_scoring_due
    if p1 == p2:
        assert game.ending.method is Method.TIEBREAKER and game.ending.tiebreakers == GAME_END
        _report(table, (10, 30), (0, 50))
        result = table.game.result()
        assert result is not None and result.winner is P2  # P2 suffered fewer APD
    else:
        assert game.ending.method is Method.SCENARIO
        assert game.ending.winner is (P1 if p1 > p2 else P2)


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
