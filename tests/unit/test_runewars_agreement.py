"""A Runewars result the two players agree on (TS11, ST5): each enters their own score
and their own Final Flurry hits; the result stands once both confirm; a dispute goes to
the organiser with both players' entries and reasons; the round counter steps back by
agreement (shared/seeds/runewars-tournament-regulations-2017.txt)."""

from __future__ import annotations

import random

import pytest

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import BadInput, NotYourSeat, RuleError, StaleCommand
from app.domain.runewars import commands as rc
from app.domain.runewars.engine import apply, new_game, view
from app.domain.runewars.state import EndedBy, Phase, RwGame, TableSetup
from app.tables.runewars.codec import command_from_wire, command_to_wire
from app.tables.runewars.table import detail, read, status, write

P1, P2 = Side.P1, Side.P2
EO = Role.EO
T0 = 1_000_000


def playing(round_no: int = 1) -> RwGame:
    setup = TableSetup(("Ann", "Bob"), (198, 200), "Battle Lines", "Bounty")
    game = new_game(setup, random.Random(1))
    game = apply(game, game.chooser, rc.ChooseFirstPlayer(P1), T0)
    game = apply(game, P2, rc.ChooseArea("red"), T0)
    game = apply(game, EO, rc.StartRound(), T0)
    while game.game_round < round_no:
        game = apply(game, P1, rc.EndGameRound(game.game_round), T0)
    return game


def scoring() -> RwGame:
    return apply(playing(8), P1, rc.EndGameRound(8), T0)


def scored(p1: tuple[int, int], p2: tuple[int, int]) -> RwGame:
    game = apply(scoring(), P1, rc.EnterScore(*p1), T0)
    return apply(game, P2, rc.EnterScore(*p2), T0)


def test_the_result_stands_once_both_players_confirm_it__TS11_ST5() -> None:
    game = scored((107, 0), (49, 0))
    assert game.phase is Phase.OVER and game.outcome is not None and not game.settled
    assert status(game).value == "awaiting_confirmation"
    game = apply(game, P1, rc.ConfirmResult(), T0)
    assert game.confirmed == (True, False) and not game.settled
    game = apply(game, P2, rc.ConfirmResult(), T0)
    assert game.settled and status(game).value == "confirmed"
    assert view(game, T0)["settled"] is True
    with pytest.raises(RuleError, match="only the organiser corrects it"):
        apply(game, P2, rc.DisputeResult("too late"), T0)
    with pytest.raises(NotYourSeat, match="only a player may confirm"):
        apply(scored((107, 0), (49, 0)), EO, rc.ConfirmResult(), T0)


def test_a_new_score_sends_the_result_back_to_both_players__TS11() -> None:
    game = apply(scored((107, 0), (49, 0)), P1, rc.ConfirmResult(), T0)
    game = apply(game, P2, rc.EnterScore(149, 0), T0)  # Bob corrects his own entry
    assert game.confirmed == (False, False) and game.outcome is not None
    assert game.outcome.winner is P2 and game.outcome.scores == (107, 149)
    with pytest.raises(RuleError, match="both scores come first"):
        apply(apply(scoring(), P1, rc.EnterScore(10, 0), T0), P1, rc.ConfirmResult(), T0)


def test_each_player_enters_their_own_final_flurry_hits__TS11() -> None:
    game = scored((80, 10), (90, 0))
    assert game.phase is Phase.FINAL_FLURRY
    with pytest.raises(NotYourSeat, match="their own Final Flurry hits"):
        apply(game, P1, rc.FinalFlurry((5, 2)), T0)  # one phone cannot enter both
    game = apply(game, P1, rc.FlurryHits(3), T0)
    assert view(game, T0)["flurry_entered"] == [True, False] and game.outcome is None
    game = apply(game, P2, rc.FlurryHits(3), T0)  # the same: rolled again
    assert game.phase is Phase.FINAL_FLURRY and game.flurry_tie == 3
    assert game.flurry_hits == (None, None)
    game = apply(apply(game, P2, rc.FlurryHits(4), T0), P1, rc.FlurryHits(2), T0)
    assert game.outcome is not None and game.outcome.winner is P2
    assert game.outcome.flurry == (2, 4) and game.outcome.tp == (5, 6) and not game.settled
    with pytest.raises(RuleError, match="only on equal scores"):
        apply(scored((80, 10), (10, 0)), P1, rc.FlurryHits(3), T0)


def test_a_dispute_goes_to_the_organiser_with_both_entries_and_reasons__TS11_ST5() -> None:
    game = scored((150, 20), (60, 0))
    game = apply(game, P1, rc.ConfirmResult(), T0)
    game = apply(game, P2, rc.DisputeResult("  the objective was never scored  "), T0)
    assert game.in_dispute and status(game).value == "disputed"
    assert game.disputed == (None, "the objective was never scored")
    with pytest.raises(RuleError, match="disputed: the organiser decides"):
        apply(game, P2, rc.ConfirmResult(), T0)
    shown = detail("t1", game, T0)["reports"]
    assert shown[0] == {
        "entry": [150, 20],
        "flurry_hits": None,
        "confirmed": True,
        "disputed": None,
    }
    assert shown[1]["entry"] == [60, 0]
    assert shown[1]["disputed"] == "the objective was never scored"
    with pytest.raises(BadInput, match="players disagree: give the reason"):
        apply(game, EO, rc.JudgeScores(((150, 0), (60, 0))), T0)
    settled = apply(game, EO, rc.JudgeScores(((150, 0), (60, 0)), reason="no token held"), T0)
    assert settled.settled and settled.judged and not settled.in_dispute
    assert settled.judged_reason == "no token held" and settled.correction is None
    assert settled.outcome is not None and settled.outcome.scores == (150, 60)


def test_the_round_counter_steps_back_by_agreement__TS11() -> None:
    game = playing(3)
    with pytest.raises(StaleCommand):
        apply(game, P2, rc.StepBack(2), T0)
    asked = apply(game, P2, rc.StepBack(3), T0)
    assert asked.game_round == 3 and asked.step_back is P2  # not before the other agrees
    assert apply(asked, P2, rc.StepBack(3), T0) == asked  # asking again changes nothing
    assert apply(asked, P1, rc.KeepRound(), T0).step_back is None  # turned down
    agreed = apply(asked, P1, rc.StepBack(3), T0)
    assert agreed.game_round == 2 and agreed.step_back is None
    # A request lapses when the counter moves.
    moved = apply(apply(game, P2, rc.StepBack(3), T0), P1, rc.EndGameRound(3), T0)
    assert moved.game_round == 4 and moved.step_back is None
    # The organiser steps it back at once; game round 1 has nothing before it.
    assert apply(game, EO, rc.StepBack(3), T0).game_round == 2
    with pytest.raises(RuleError, match="cannot step back now"):
        apply(playing(1), P1, rc.StepBack(1), T0)
    with pytest.raises(RuleError, match="no one asked"):
        apply(game, P1, rc.KeepRound(), T0)


def test_the_games_end_at_the_counter_is_undone_by_agreement__TS11() -> None:
    game = apply(scoring(), P1, rc.EnterScore(50, 0), T0)  # round 8 ended by mistake
    game = apply(apply(game, P1, rc.StepBack(8), T0), P2, rc.StepBack(8), T0)
    assert game.phase is Phase.PLAYING and game.game_round == 8
    assert game.ended_by is None and game.entries == (None, None)
    conceded = apply(playing(3), P2, rc.Concede(), T0)
    assert conceded.ended_by is EndedBy.CONCESSION
    with pytest.raises(RuleError, match="cannot step back now"):
        apply(conceded, P1, rc.StepBack(3), T0)


def test_the_new_commands_round_trip_and_old_snapshots_read__TS11() -> None:
    for command in (
        rc.FlurryHits(4),
        rc.ConfirmResult(),
        rc.DisputeResult("why"),
        rc.StepBack(3),
        rc.KeepRound(),
    ):
        assert command_from_wire(command_to_wire(command)) == command
    with pytest.raises(BadInput, match="300 characters"):
        command_from_wire({"c": "dispute", "reason": "x" * 301})
    game = apply(scored((107, 0), (49, 0)), P1, rc.ConfirmResult(), T0)
    assert read(write(game)) == game
    # A table over before the players' agreement: its result stood at once.
    old = write(scored((107, 0), (49, 0)))
    for field in ("confirmed", "disputed", "flurry_hits", "flurry_tie", "step_back"):
        del old["game"][field]
    del old["game"]["judged_reason"]
    assert read(old).settled
