"""DC10 with TS3: "At dice down, resolve all end-of-turn effects" (SR2019, Classic Turn
Timing). The kill box is an end-of-turn effect: dice down asks it of the player whose
turn it ended, where that turn asks it, before the last scoring, and its CP count in that
scoring and in the Victory Conditions."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain import variants
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.game import Game, Method, Phase, Setup, apply, new_game
from app.tables.snapshot import read, write
from app.tables.warmachine import codec
from app.tables.warmachine.outcome import ending_words
from app.tables.warmachine.view import game_view
from tests.unit.helpers import EO, MINUTE, P1, P2, SYSTEM, Table, scoring


def _classic(*more: str) -> Table:
    setup = Setup(
        format_id="sr2019",
        scenario_id="king-of-the-hill",
        player_clock_ms=60 * MINUTE,
        army_points=75,
        names=("Ann", "Bob"),
        variants=(variants.CLASSIC, *more),
    )
    return Table(new_game(setup, 0), 0)


def _dice_down_at(turn: int, side: object, *more: str) -> Table:
    table = _classic(*more)
    table.play_to(turn, side)  # type: ignore[arg-type]
    table.do(EO, c.DiceDown())
    return table


def _report(table: Table) -> None:
    table.do(P1, c.ReportGame(army_points_destroyed=20, list_played="A"))
    table.do(P2, c.ReportGame(army_points_destroyed=30, list_played="B"))


def _final_prompt(game: Game) -> dict[str, object]:
    found = [d for d in game_view(game, 0)["due"] if d["kind"] == "final_scoring"]
    assert len(found) == 1
    return found[0]


def test_dice_down_asks_the_kill_box_of_the_turn_it_ended__DC10_TS3() -> None:
    table = _dice_down_at(3, P1)
    game = table.game
    assert game.phase is Phase.OVER and game.final_kill_box is P1 and game.final_scoring_due
    assert _final_prompt(game) == {
        "kind": "final_scoring",
        "by": "p1",
        "kill_box": True,
        "scoring": True,
    }
    assert game_view(game, 0)["final_kill_box"] == "p1"
    assert game.result() is None  # the answers are owed before any result
    with pytest.raises(BadInput, match="kill box: is Ann's caster"):
        table.try_do(P1, c.FinalScoring(scoring({"rect-1": P1})))


def test_the_kill_box_at_dice_down_counts_in_the_victory_conditions__DC10_TS3_TS4() -> None:
    table = _dice_down_at(3, P1)
    # Ann scores a zone but ends her turn in her kill box: Bob gets 2 CP at once.
    game = table.do(P1, c.FinalScoring(scoring({"rect-1": P1}), kill_box=True))
    assert game.control_points == (1, 2)
    assert game.final_kill_box is None and not game.final_scoring_due
    assert game.ending is not None and game.ending.winner is P2
    assert game.ending.method is Method.SCENARIO  # most CP when the game ended
    _report(table)
    result = table.game.result()
    assert result is not None and result.winner is P2 and result.control_points == (1, 2)


def test_only_the_player_whose_turn_it_was_answers_the_kill_box__DC10_TS3() -> None:
    table = _dice_down_at(3, P1)
    answer = c.FinalScoring(scoring({"rect-1": P2}), kill_box=True)
    with pytest.raises(NotYourSeat, match="only Ann answers"):
        table.try_do(P2, answer)
    with pytest.raises(NotYourSeat):
        table.try_do(EO, answer)
    with pytest.raises(NotYourSeat):
        table.try_do(c.Role.WATCHER, answer)
    assert table.game.final_kill_box is P1  # nothing changed


def test_the_kill_box_answer_is_taken_only_while_it_is_asked__DC10_TS3() -> None:
    table = _dice_down_at(3, P1)
    table.do(P1, c.FinalScoring(scoring(), kill_box=False))
    with pytest.raises(RuleError, match="no final scoring is due"):
        table.try_do(P1, c.FinalScoring(scoring(), kill_box=True))
    # Before dice down the question is the tap's, not a last scoring's.
    playing = _classic()
    playing.play_to(3, P1)
    with pytest.raises(RuleError, match="no final scoring is due"):
        playing.try_do(P1, c.FinalScoring(scoring(), kill_box=True))


def test_dice_down_in_the_second_players_turn_asks_them__DC10_TS3() -> None:
    table = _dice_down_at(3, P2)
    assert table.game.final_kill_box is P2
    assert _final_prompt(table.game)["by"] == "p2"
    with pytest.raises(NotYourSeat, match="only Bob answers"):
        table.try_do(P1, c.FinalScoring(scoring(), kill_box=False))
    game = table.do(P2, c.FinalScoring(scoring({"rect-1": P2}), kill_box=True))
    assert game.control_points == (2, 1)  # Bob's zone, and Ann's 2 from his kill box
    assert game.ending is not None and game.ending.winner is P1


def test_dice_down_before_scoring_starts_still_asks_the_kill_box__DC10_TS3() -> None:
    """P1's turn 2: the kill box is checked from its end, scoring only from P2's turn 2."""
    table = _dice_down_at(2, P1)
    game = table.game
    assert game.final_kill_box is P1 and not game.final_scoring_due
    assert _final_prompt(game) == {
        "kind": "final_scoring",
        "by": "p1",
        "kill_box": True,
        "scoring": False,
    }
    assert game.ending is not None and game.ending.winner is None  # not decided yet
    with pytest.raises(BadInput, match="scoring starts at the end of Bob's turn 2"):
        table.try_do(P1, c.FinalScoring(scoring(), kill_box=True))
    game = table.do(P1, c.FinalScoring(kill_box=True))
    assert game.control_points == (0, 2)
    assert game.ending is not None and game.ending.winner is P2
    assert game.ending.method is Method.SCENARIO


def test_no_kill_box_is_asked_before_its_first_turn_end__DC10_TS3() -> None:
    table = _dice_down_at(1, P2)
    game = table.game
    assert game.final_kill_box is None and not game.final_scoring_due
    assert not [d for d in game_view(game, 0)["due"] if d["kind"] == "final_scoring"]
    with pytest.raises(RuleError, match="no final scoring is due"):
        table.try_do(P2, c.FinalScoring(kill_box=True))


def test_an_assassination_asks_no_kill_box__TS6() -> None:
    """An assassination ends the game during a turn, not at its end: only the last scoring."""
    table = _classic()
    table.play_to(3, P1)
    game = table.do(P2, c.CasterDestroyed())
    assert game.final_scoring_due and game.final_kill_box is None
    assert _final_prompt(game)["kill_box"] is False
    with pytest.raises(BadInput, match="this game did not end at one"):
        table.try_do(P1, c.FinalScoring(scoring(), kill_box=True))
    assert table.do(P2, c.FinalScoring(scoring(), kill_box=False)).ending is not None


def test_no_tiebreakers_keeps_the_kill_box_cp_of_a_tie__DC10_TS3() -> None:
    table = _dice_down_at(3, P1, variants.NO_TIEBREAKERS)
    assert ending_words(table.game) == (
        "Dice down — the kill box of Ann's turn 3 and the last scoring: "
        "a scenario victory wins, else a tie"
    )
    table.do(P1, c.FinalScoring(scoring(), kill_box=True))
    _report(table)
    result = table.game.result()
    assert result is not None and result.winner is None and result.method is Method.TIME
    assert result.control_points == (0, 2)


def test_the_round_clocks_own_dice_down_asks_the_kill_box_too__DC10_TS3() -> None:
    table = _classic()
    table.play_to(4, P2)
    timer = table.game.timer
    assert timer is not None
    game = apply(table.game, SYSTEM, c.FlagCheck(), timer.round_end_ms + 1)
    assert game.phase is Phase.OVER and game.final_kill_box is P2 and game.final_scoring_due


def test_the_phones_read_what_dice_down_still_asks__DC10_TS3() -> None:
    game = _dice_down_at(3, P1).game
    assert ending_words(game) == (
        "Dice down — the kill box of Ann's turn 3 and the last scoring, "
        "then the scenario's victory conditions decide"
    )
    kill_box_only = _dice_down_at(2, P1).game
    assert ending_words(kill_box_only) == (
        "Dice down — the kill box of Ann's turn 2, then the scenario's victory conditions decide"
    )


def test_the_eos_result_closes_the_kill_box_question__DC10_TS3() -> None:
    table = _dice_down_at(3, P1)
    game = table.do(
        EO, c.RecordResult(winner=P1, control_points=(3, 0), army_points_destroyed=(1, 2))
    )
    assert game.final_kill_box is None and game.result() is not None


def test_the_kill_box_answer_on_the_wire_and_in_a_snapshot__DC10_TS3() -> None:
    wire = {"c": "final_scoring", "kill_box": True, "scoring": None}
    command = codec.command_from_wire(wire)
    assert command == c.FinalScoring(scoring=None, kill_box=True)
    assert codec.command_to_wire(command) == wire
    with_sheet = c.FinalScoring(scoring({"rect-1": P1}), kill_box=False)
    assert codec.command_from_wire(codec.command_to_wire(with_sheet)) == with_sheet
    with pytest.raises(BadInput, match="yes or no"):
        codec.command_from_wire({"c": "final_scoring", "kill_box": "yes"})
    game = _dice_down_at(3, P1).game
    assert read(write(game)).final_kill_box is P1


def test_a_logged_last_scoring_without_the_answer_replays_as_no__DC10_TS3() -> None:
    """A phone must answer; a log entry played again is what the table accepted."""
    table = _dice_down_at(3, P1)
    kept = c.FinalScoring(scoring({"rect-1": P1}))
    with pytest.raises(BadInput, match="kill box"):
        table.try_do(P1, kept)
    game = apply(table.game, P1, kept, table.now + 1_000, logged=True)
    assert game.control_points == (1, 0) and game.final_kill_box is None
    assert game.ending is not None and game.ending.winner is P1
