"""TS9, TS11: a result is disputed once there is one: a player's report (after a
concession, the winner's alone makes it); at a Runewars table, the result both scores
make. Before that, a phone's dispute is refused in plain words and the game is
unchanged; the EO's own result is final to the players."""

from __future__ import annotations

import random

import pytest

from app.domain import commands as c
from app.domain.errors import RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars import engine as rw
from app.domain.runewars.state import Phase as RwPhase
from app.domain.runewars.state import RwGame, TableSetup
from tests.unit.helpers import EO, P1, P2, Table, table_at

RW_T0 = 1_000_000

NOTHING_YET = "nothing to dispute yet: a result can be disputed once a player has reported it"


def _over(*, conceded_by: c.Actor = P1) -> Table:
    table = table_at(3, P1)
    table.do(conceded_by, c.Concede())
    return table


@pytest.mark.parametrize("seat", [P1, P2], ids=["the conceding player", "the winner"])
def test_no_dispute_before_either_player_reported__TS9(seat: c.Actor) -> None:
    table = _over()
    before = table.game
    with pytest.raises(RuleError) as refused:
        table.try_do(seat, c.DisputeResult(reason="I never conceded"))
    assert refused.value.message == NOTHING_YET
    assert table.game == before and before.disputed is None


def test_no_dispute_after_a_caster_kill_until_a_report__TS9() -> None:
    table = table_at(3, P1)
    table.do(P1, c.CasterDestroyed())
    with pytest.raises(RuleError, match="nothing to dispute yet"):
        table.try_do(P1, c.DisputeResult(reason="out of range"))
    table.do(P2, c.ReportGame(army_points_destroyed=30))
    game = table.do(P1, c.DisputeResult(reason="out of range"))
    assert game.disputed is not None and game.disputed.endswith("out of range")


def test_the_conceding_player_disputes_once_the_winner_reported__TS8_TS9() -> None:
    table = _over(conceded_by=P1)
    game = table.do(P2, c.ReportGame(army_points_destroyed=20))
    assert game.result() is not None  # the winner's report alone makes the result
    game = table.do(P1, c.DisputeResult(reason="I never conceded"))
    assert game.disputed is not None and game.disputed.endswith("I never conceded")


def test_one_report_is_enough_to_dispute_it__TS9() -> None:
    table = table_at(3, P1)
    table.do(P1, c.CasterDestroyed(both=True))
    table.do(P1, c.ReportGame(army_points_destroyed=30))
    game = table.do(P2, c.DisputeResult(reason="the APD are wrong"))
    assert game.result() is None and game.disputed is not None


def test_the_eos_result_is_not_disputed_by_a_phone__TS9() -> None:
    table = table_at(3, P1)
    table.do(EO, c.RecordResult(winner=P2, control_points=(0, 3), army_points_destroyed=(0, 40)))
    with pytest.raises(RuleError, match="only the EO"):
        table.try_do(P1, c.DisputeResult(reason="wrong"))


# -- Runewars (TS11): the result both scores make is what a phone disputes ---------------


def _rw_scoring() -> RwGame:
    setup = TableSetup(("Ann", "Bob"), (198, 200), "Battle Lines", "Bounty")
    game = rw.new_game(setup, random.Random(1))
    game = rw.apply(game, game.chooser, rc.ChooseFirstPlayer(P1), RW_T0)
    game = rw.apply(game, P2, rc.ChooseArea("red"), RW_T0)
    game = rw.apply(game, EO, rc.StartRound(), RW_T0)
    while game.phase is not RwPhase.SCORING:
        game = rw.apply(game, P1, rc.EndGameRound(game.game_round), RW_T0)
    return game


def test_a_runewars_result_is_disputed_once_both_scores_make_it__TS11() -> None:
    game = _rw_scoring()
    for scored in (game, rw.apply(game, P1, rc.EnterScore(107, 0), RW_T0)):
        with pytest.raises(RuleError) as refused:
            rw.apply(scored, P2, rc.DisputeResult("the objective was never scored"), RW_T0)
        assert refused.value.message == (
            "nothing to dispute yet: a result can be disputed once both scores are in"
        )
        assert scored.outcome is None and not scored.in_dispute
    both = rw.apply(
        rw.apply(game, P1, rc.EnterScore(107, 0), RW_T0), P2, rc.EnterScore(49, 0), RW_T0
    )
    assert both.outcome is not None
    disputed = rw.apply(both, P2, rc.DisputeResult("the objective was never scored"), RW_T0)
    assert disputed.in_dispute
