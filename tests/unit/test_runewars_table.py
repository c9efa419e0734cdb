"""Runewars 2017 at the table, rule by rule (DC11, TS11, ST5), played through the
Runewars engine's door with explicit server times
(shared/seeds/runewars-tournament-regulations-2017.txt)."""

from __future__ import annotations

import random

import pytest

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import BadInput, NotYourSeat, RuleError, StaleCommand
from app.domain.runewars import commands as rc
from app.domain.runewars.engine import apply, new_game, view
from app.domain.runewars.rules import FINAL_MINUTES, MINUTE_MS, Stage, round_minutes
from app.domain.runewars.state import EndedBy, Phase, RwGame, TableSetup

P1, P2 = Side.P1, Side.P2
EO = Role.EO
T0 = 1_000_000


def table(armies: tuple[int, int] = (198, 200), minutes: int = 90, seed: int = 1) -> RwGame:
    setup = TableSetup(("Ann", "Bob"), armies, "Battle Lines", "Bounty", minutes)
    return new_game(setup, random.Random(seed))


def playing(armies: tuple[int, int] = (198, 200), minutes: int = 90) -> RwGame:
    """Ann (the lower army) chooses to go first; Bob takes red; the round starts at T0."""
    game = table(armies, minutes)
    game = apply(game, game.chooser, rc.ChooseFirstPlayer(P1), T0)
    game = apply(game, P2, rc.ChooseArea("red"), T0)
    return apply(game, EO, rc.StartRound(), T0)


def to_round(game: RwGame, n: int, now: int = T0) -> RwGame:
    while game.game_round < n:
        game = apply(game, P1, rc.EndGameRound(game.game_round), now)
    return game


def scored(game: RwGame, p1: tuple[int, int], p2: tuple[int, int]) -> RwGame:
    game = apply(game, P1, rc.EnterScore(*p1), T0)
    return apply(game, P2, rc.EnterScore(*p2), T0)


# -- DC11: the round timer ---------------------------------------------------------


@pytest.mark.parametrize(
    ("stage", "final", "minutes"),
    [(Stage.SWISS, False, 90), (Stage.ELIMINATION, False, 90), (Stage.ELIMINATION, True, 140)],
)
def test_round_time_limits__DC11(stage: Stage, final: bool, minutes: int) -> None:
    assert round_minutes(stage, final) == minutes
    assert FINAL_MINUTES == 140


def test_time_on_the_timer_finishes_the_game_round_then_scores__DC11() -> None:
    game = to_round(playing(), 3)
    late = T0 + 90 * MINUTE_MS
    shown = view(game, late - 1)
    assert shown["time_left_ms"] == 1 and shown["time_called"] is False
    assert view(game, late)["time_called"] is True
    # The first player still finishes game round 3, then the game is scored.
    game = apply(game, P1, rc.EndGameRound(3), late + 5 * MINUTE_MS)
    assert game.phase is Phase.SCORING and game.ended_by is EndedBy.TIME
    assert game.game_round == 3


def test_the_organiser_calls_time__DC11() -> None:
    game = to_round(playing(), 2)
    with pytest.raises(NotYourSeat):
        apply(game, P2, rc.CallTime(), T0)
    game = apply(game, EO, rc.CallTime(), T0 + MINUTE_MS)
    assert game.phase is Phase.PLAYING and game.time_called
    game = apply(game, P1, rc.EndGameRound(2), T0 + 2 * MINUTE_MS)
    assert game.ended_by is EndedBy.TIME


def test_the_final_runs_140_minutes__DC11() -> None:
    game = playing(minutes=140)
    assert view(game, T0 + 100 * MINUTE_MS)["time_called"] is False
    assert view(game, T0 + 140 * MINUTE_MS)["time_called"] is True


# -- setup: first player and deployment area ---------------------------------------


def test_the_lower_army_chooses_the_first_player__TS11() -> None:
    game = table((200, 187))
    assert game.chooser is P2 and not game.chooser_by_chance
    with pytest.raises(NotYourSeat):
        apply(game, P1, rc.ChooseFirstPlayer(P1), T0)
    game = apply(game, P2, rc.ChooseFirstPlayer(P1), T0)
    assert game.first is P1 and game.game_round == 1
    # The second player (P2 here) takes an area; the first has the other.
    with pytest.raises(NotYourSeat):
        apply(game, P1, rc.ChooseArea("blue"), T0)
    with pytest.raises(BadInput):
        apply(game, P2, rc.ChooseArea("green"), T0)
    game = apply(game, P2, rc.ChooseArea("blue"), T0)
    assert (game.area_of(P1), game.area_of(P2)) == ("red", "blue")


def test_equal_armies_the_server_rolls_who_chooses__TS11() -> None:
    choosers = {table((200, 200), seed=seed).chooser for seed in range(20)}
    assert choosers == {P1, P2}
    assert table((200, 200), seed=3).chooser_by_chance
    assert table((200, 200), seed=3).chooser is table((200, 200), seed=3).chooser


def test_army_value_is_at_most_200__TS11() -> None:
    with pytest.raises(BadInput, match="1 to 200"):
        table((201, 150))


# -- TS11: the counter and the end of the game ------------------------------------


def test_only_the_first_player_turns_the_counter__TS11() -> None:
    game = playing()
    with pytest.raises(NotYourSeat):
        apply(game, P2, rc.EndGameRound(1), T0)
    game = apply(game, P1, rc.EndGameRound(1), T0)
    assert game.game_round == 2
    with pytest.raises(StaleCommand):
        apply(game, P1, rc.EndGameRound(1), T0)


def test_the_game_ends_after_round_8__TS11() -> None:
    game = to_round(playing(), 8)
    assert game.phase is Phase.PLAYING
    game = apply(game, P1, rc.EndGameRound(8), T0)
    assert game.phase is Phase.SCORING and game.ended_by is EndedBy.EIGHT_ROUNDS
    game = scored(game, (120, 20), (49, 0))
    assert game.outcome is not None
    assert game.outcome.winner is P1 and game.outcome.scores == (140, 49)
    assert game.outcome.mov == (91, 0) and game.outcome.tp == (8, 3)


def test_one_side_defeated_wins_with_200_destroyed__TS11() -> None:
    game = apply(to_round(playing(), 4), P2, rc.ArmyDestroyed(P2), T0)
    assert game.ended_by is EndedBy.DEFEATED
    # Bradley's example: all destroyed (200) against Cara's 120 + 20: MoV 60, 7 and 4.
    game = scored(game, (198, 0), (120, 20))
    assert game.outcome is not None
    assert game.outcome.scores == (200, 140)
    assert game.outcome.mov == (60, 0) and game.outcome.tp == (7, 4)


def test_going_to_time_example__TS11() -> None:
    """Elaine destroyed 107, Sal 49: Elaine wins, 7 TP and MoV 58; Sal 4 TP and 0."""
    game = apply(to_round(playing(), 5), EO, rc.CallTime(), T0)
    game = apply(game, P1, rc.EndGameRound(5), T0)
    game = scored(game, (107, 0), (49, 0))
    assert game.outcome is not None
    assert game.outcome.tp == (7, 4) and game.outcome.mov == (58, 0)


def test_destroyed_cannot_exceed_the_opponents_army__TS11() -> None:
    game = apply(to_round(playing((150, 180)), 8), P1, rc.EndGameRound(8), T0)
    with pytest.raises(BadInput, match="180 points"):
        apply(game, P1, rc.EnterScore(181, 0), T0)
    with pytest.raises(BadInput, match="negative"):
        apply(game, P1, rc.EnterScore(10, -1), T0)


def test_equal_scores_go_to_a_final_flurry_entered_at_the_table__TS11() -> None:
    game = apply(to_round(playing(), 8), P1, rc.EndGameRound(8), T0)
    game = scored(game, (80, 10), (90, 0))
    assert game.phase is Phase.FINAL_FLURRY and game.outcome is None
    with pytest.raises(RuleError, match="roll the Final Flurry again"):
        apply(game, EO, rc.FinalFlurry((3, 3)), T0)
    with pytest.raises(NotYourSeat, match="their own Final Flurry hits"):
        apply(game, P2, rc.FinalFlurry((2, 5)), T0)
    game = apply(game, EO, rc.FinalFlurry((2, 5)), T0)
    assert game.outcome is not None and game.outcome.winner is P2
    assert game.outcome.flurry == (2, 5)
    assert game.outcome.mov == (0, 0) and game.outcome.tp == (5, 6)


def test_mutual_destruction_gives_mov_0_each__TS11() -> None:
    game = apply(to_round(playing(), 6), P1, rc.ArmyDestroyed(None), T0)
    assert game.ended_by is EndedBy.MUTUAL_DESTRUCTION
    game = scored(game, (0, 15), (0, 0))
    assert game.outcome is not None
    assert game.outcome.scores == (215, 200)
    assert game.outcome.winner is P1 and game.outcome.mov == (0, 0)
    assert game.outcome.tp == (6, 5)


def test_mutual_destruction_with_equal_scores_is_a_final_flurry__TS11() -> None:
    game = apply(to_round(playing(), 6), P2, rc.ArmyDestroyed(None), T0)
    game = scored(game, (0, 0), (0, 0))
    assert game.phase is Phase.FINAL_FLURRY


# -- ST5: margin of victory, tournament points, concession ----------------------


@pytest.mark.parametrize(
    ("p1", "p2", "mov", "tp"),
    [
        ((29, 0), (0, 0), 29, (6, 5)),
        ((30, 0), (0, 0), 30, (7, 4)),
        ((69, 0), (0, 0), 69, (7, 4)),
        ((70, 0), (0, 0), 70, (8, 3)),
        ((110, 0), (0, 0), 110, (9, 2)),
        ((150, 0), (0, 0), 150, (10, 1)),
        ((198, 40), (0, 0), 200, (10, 1)),  # clamped to 200
    ],
)
def test_tp_by_margin_of_victory__ST5(
    p1: tuple[int, int], p2: tuple[int, int], mov: int, tp: tuple[int, int]
) -> None:
    game = apply(to_round(playing(), 8), P1, rc.EndGameRound(8), T0)
    game = scored(game, p1, p2)
    assert game.outcome is not None
    assert game.outcome.mov == (mov, 0) and game.outcome.tp == tp


def test_concession_with_a_small_lead_gives_8_tp_and_mov_70__ST5() -> None:
    game = apply(to_round(playing(), 3), P2, rc.Concede(), T0)
    assert game.phase is Phase.SCORING and game.ended_by is EndedBy.CONCESSION
    game = scored(game, (40, 0), (20, 0))
    assert game.outcome is not None and game.outcome.winner is P1
    assert game.outcome.tp == (8, 0) and game.outcome.mov == (70, 0)


def test_concession_keeps_a_lead_of_70_or_more__ST5() -> None:
    game = apply(to_round(playing(), 3), P1, rc.Concede(), T0)
    game = scored(game, (0, 0), (120, 0))
    assert game.outcome is not None and game.outcome.winner is P2
    assert game.outcome.tp == (0, 9) and game.outcome.mov == (0, 120)


def test_only_a_player_concedes__ST5() -> None:
    with pytest.raises(NotYourSeat):
        apply(playing(), EO, rc.Concede(), T0)


def test_the_game_over_refuses_commands__TS11() -> None:
    game = scored(apply(to_round(playing(), 8), P1, rc.EndGameRound(8), T0), (50, 0), (0, 0))
    game = apply(apply(game, P1, rc.ConfirmResult(), T0), P2, rc.ConfirmResult(), T0)
    with pytest.raises(RuleError, match="over"):
        apply(game, P1, rc.EnterScore(60, 0), T0)


def test_the_view_speaks_of_rounds_not_clocks__DC11() -> None:
    shown = view(to_round(playing(), 2), T0 + MINUTE_MS)
    assert shown["game_round"] == 2 and shown["time_left_ms"] == 89 * MINUTE_MS
    words = " ".join(str(k) for k in shown)
    for wm in ("control", "kill_box", "caster", "clock"):
        assert wm not in words
