"""People read names, never seats: a refusal of the game's rules, which a phone shows in
its pop-up, names the players ("Ann's clock is already running", "score the end of Bob's
turn 2 first"), never a seat's tag ("P1", "P2's clock") nor an element's id. After a
starting roll that puts the second seat's player first, the names follow who goes
first."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType

import pytest

from app.domain import commands as c
from app.domain import variants
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError, StaleCommand
from app.domain.game import Game, Phase, Setup, new_game
from tests.unit.helpers import EO, MINUTE, P1, P2, SYSTEM, Table

ANN, BOB = "Ann", "Bob"
#: A seat's tag ("P1", "P2's clock") or an element's id ("flag-p1"), in any case.
SEAT = re.compile(r"\bp[12]\b", re.IGNORECASE)


def named(
    scenario: str = "king-of-the-hill",
    format_id: str = "sr2019",
    *,
    bob_first: bool = False,
    clock: int = 60 * MINUTE,
    chosen: tuple[str, ...] = (),
) -> Table:
    """Ann in the first seat, Bob in the second; `bob_first`: Bob wins the starting roll
    and goes first, so the game's first player (its P1) is Bob."""
    setup = Setup(format_id, scenario, clock, 75, names=(ANN, BOB), variants=chosen)
    table = Table(new_game(setup, 0), 0)
    if bob_first:
        table.do(EO, c.OpenPregame(steps=("roll", "order", "edge")))
        table.do(P1, c.StartingRoll(2))
        table.do(P2, c.StartingRoll(5))
        table.do(P2, c.ChooseOrder(first=True))
        table.do(P2, c.ChooseEdge(swap=False))
        assert table.game.names == (BOB, ANN)
    return table


def refusal(act: Callable[[], Game], error: type[RuleError] = RuleError) -> str:
    """The words of the refusal `act` meets; never a seat's tag."""
    with pytest.raises(error) as refused:
        act()
    words = refused.value.message
    assert not SEAT.search(words), words
    return words


def tap(table: Table, side: Side, turn_end: c.TurnEnd | None = None) -> Callable[[], Game]:
    return lambda: table.do(side, c.PassTurn(expect=side, turn_end=turn_end))


def control(**held: Side) -> c.Scoring:
    return c.Scoring(control=MappingProxyType({k.replace("_", "-"): v for k, v in held.items()}))


def test_the_seat_check_catches_a_tag_and_an_id() -> None:
    for said in ("P1's clock is already running", "(P2)", "choose one of flag-p1, zone"):
        assert SEAT.search(said)
    assert not SEAT.search("Ann's clock is already running: press P to pause")


# -- the clock: taps and interrupts ----------------------------------------------------


@pytest.mark.parametrize(("bob_first", "first", "second"), [(False, ANN, BOB), (True, BOB, ANN)])
def test_a_tap_for_the_other_clock_names_both_players__DC3(
    bob_first: bool, first: str, second: str
) -> None:
    table = named(bob_first=bob_first)
    table.start()
    words = refusal(lambda: table.do(P2, c.PassTurn(expect=P2)), StaleCommand)
    assert words == f"{first}'s clock is running, not {second}'s: tap ignored"


def test_an_interrupt_names_whose_clock_runs__DC6() -> None:
    table = named(bob_first=True)
    table.play_to(1, P1)  # Bob's turn 1
    table.do(P1, c.SwitchClock(to=P2))  # Ann's clock runs for an interrupt
    assert refusal(tap(table, P1)) == "Ann's clock runs for an interrupt: switch back first"
    words = refusal(lambda: table.do(P1, c.SwitchClock(to=P2)), StaleCommand)
    assert words == "Ann's clock already runs for the interrupt"
    table.do(P2, c.SwitchClock(to=P1))
    words = refusal(lambda: table.do(P2, c.SwitchClock(to=P1)), StaleCommand)
    assert words == "Bob's clock is already running"


# -- the turn-end questions: kill box and scoring --------------------------------------


def test_the_kill_box_question_names_whose_caster__TS3() -> None:
    table = named()
    table.play_to(2, P1)
    words = refusal(tap(table, P1, c.TurnEnd()), BadInput)
    assert words.startswith("kill box: is Ann's caster completely within 12\"")


@pytest.mark.parametrize(("bob_first", "second"), [(False, BOB), (True, ANN)])
def test_a_turn_end_to_score_names_whose_turn__TS2(bob_first: bool, second: str) -> None:
    table = named(bob_first=bob_first)
    table.play_to(2, P2)
    words = refusal(tap(table, P2, c.TurnEnd(kill_box=False)), BadInput)
    assert words == f"score the end of {second}'s turn 2 first"


@pytest.mark.parametrize(("bob_first", "first", "second"), [(False, ANN, BOB), (True, BOB, ANN)])
def test_a_sheet_or_kill_box_too_early_names_the_turn_it_starts_at__TS2_TS3(
    bob_first: bool, first: str, second: str
) -> None:
    table = named(bob_first=bob_first)
    table.play_to(1, P1)
    words = refusal(tap(table, P1, c.TurnEnd(scoring=c.Scoring())), BadInput)
    assert words == f"scoring starts at the end of {second}'s turn 2"
    words = refusal(tap(table, P1, c.TurnEnd(kill_box=True)), BadInput)
    assert words == f"the kill box is checked from the end of {first}'s turn 2"


# -- a clock that ran out, and a claim -------------------------------------------------


def _flagged(table: Table, turn: int, side: Side) -> Table:
    table.play_to(turn, side)
    table.do(SYSTEM, c.FlagCheck(), after=table.game.remaining(side, table.now) + 1)
    assert table.game.phase is Phase.CLOCK_OUT and table.game.flagged is side
    return table


def test_a_clock_that_ran_out_is_named_by_its_player__DC7() -> None:
    table = _flagged(named(bob_first=True, clock=30 * MINUTE), 4, P1)
    assert refusal(tap(table, P2)) == "Bob's clock ran out"


def test_a_claim_that_is_no_scenario_win_names_the_claimant__DC7() -> None:
    table = _flagged(named(clock=30 * MINUTE), 4, P1)
    words = refusal(lambda: table.do(P1, c.ClaimScenario(c.Scoring())))
    assert words.startswith("that scoring gives Ann a lead of 0 CP, not 5")


def test_a_claim_against_a_scenarios_own_condition_names_the_claimant__DC7_TS10() -> None:
    table = _flagged(named("power-play", "legacy", bob_first=True, clock=20 * MINUTE), 3, P1)
    words = refusal(lambda: table.do(P1, c.ClaimScenario(control(centre_zone=P2))))
    assert words.startswith("that scoring does not win Power Play for Bob")


def test_a_claim_before_scoring_starts_names_the_turn_it_starts_at__DC7() -> None:
    table = named(bob_first=True)
    table.play_to(2, P1)
    table.game = replace(table.game, phase=Phase.CLOCK_OUT, flagged=P1)
    words = refusal(lambda: table.do(P1, c.ClaimScenario(c.Scoring())))
    assert words == "scenario scoring starts at the end of Ann's turn 2: the clock loss stands"


# -- Classic Turn Timing ---------------------------------------------------------------


def test_a_second_extension_names_the_player__DC10() -> None:
    table = named(chosen=(variants.CLASSIC,), bob_first=True)
    table.play_to(1, P2)  # Ann's turn 1
    table.do(P2, c.StartTurnTimer())
    table.do(P2, c.TakeExtension())
    table.wait(10 * MINUTE)
    table.do(P1, c.StartExtension())
    table.tap()
    table.play_to(2, P2)
    words = refusal(lambda: table.do(P2, c.TakeExtension()))
    assert words == "Ann has already taken the one turn extension of this game"


# -- scoring sheets: the players and their own elements, by name ------------------------


def test_a_caster_dominating_two_elements_names_the_player_and_the_elements__TS2() -> None:
    table = named("outflank", "ig2014")
    table.play_to(2, P2)
    sheet = c.Scoring(dominate=MappingProxyType({"circle-1": P2, "circle-2": P2}))
    words = refusal(tap(table, P2, c.TurnEnd(scoring=sheet)), BadInput)
    assert words.startswith("Bob's caster dominates one element only: choose one of ")
    assert 'Circular zone 1 (12")' in words and 'Circular zone 2 (12")' in words


def test_a_friendly_flag_is_the_players_by_name__TS5() -> None:
    table = named("balance-of-power", "ig2014", bob_first=True)
    table.play_to(2, P2)
    words = refusal(tap(table, P2, c.TurnEnd(scoring=control(flag_p2=P2))), BadInput)
    assert words == "Ann scores Ann's friendly flag only by dominating it"


def test_an_objective_scored_again_is_named_by_its_player__TS5() -> None:
    table = named("destruction", "ig2014", bob_first=True)
    table.play_to(2, P2)
    table.tap(score=c.Scoring(destroyed=frozenset({"objective-p1"})))
    sheet = c.Scoring(destroyed=frozenset({"objective-p1"}))
    words = refusal(tap(table, P1, c.TurnEnd(kill_box=False, scoring=sheet)))
    assert words == "Bob's Critical Asset was already scored (once per objective)"


def test_a_legacy_element_on_a_players_side_names_who_scores_it__TS10() -> None:
    table = named("capture-the-flag", "legacy", bob_first=True)
    table.play_to(3, P2)
    words = refusal(tap(table, P2, c.TurnEnd(scoring=control(flag_p2=P2))), BadInput)
    assert words.endswith("is scored only by Bob")


def test_only_the_player_ending_the_turn_scores_by_name__TS10() -> None:
    table = named("command-positions", "legacy")
    table.play_to(3, P2)
    words = refusal(tap(table, P2, c.TurnEnd(scoring=control(zone_left=P1))), BadInput)
    assert "only the player ending the turn (Bob) scores, so Ann scores nothing now" in words
