"""Warnings and penalties, the rules alone (app.domain.penalties)."""

from __future__ import annotations

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.penalties import (
    Kind,
    Penalty,
    Withdrawal,
    check_new,
    check_reason,
    check_withdraw,
    parse_kind,
    pause_record,
)


def test_a_second_warning_for_pausing_is_a_game_loss__DC5() -> None:
    assert pause_record(0, 2) == ()
    assert pause_record(1, 2) == (Kind.WARNING,)
    assert pause_record(2, 2) == (Kind.WARNING, Kind.GAME_LOSS)


def test_the_kinds_in_the_documents_words() -> None:
    assert [k.words for k in Kind] == ["Warning", "Game loss", "Disqualification"]
    assert "not eligible for any award or prize" in Kind.DISQUALIFICATION.effect
    assert parse_kind("game_loss") is Kind.GAME_LOSS
    with pytest.raises(BadInput):
        parse_kind("red_card")


def test_every_penalty_says_why() -> None:
    assert check_reason("  Slow play ") == "Slow play"
    for said in ("", "   ", "x" * 301):
        with pytest.raises(BadInput):
            check_reason(said)


def test_one_game_is_lost_once_by_one_player_and_a_withdrawn_one_does_not_count() -> None:
    lost = Penalty("ann", Kind.GAME_LOSS, 2, "Stalling", 1)
    check_new(Kind.GAME_LOSS, "ann", 1, "Ann", [lost], "bob")  # another round
    with pytest.raises(RuleError, match="already has a game loss in round 2"):
        check_new(Kind.GAME_LOSS, "ann", 2, "Ann", [lost], "bob")
    with pytest.raises(RuleError, match="opponent already lost"):
        check_new(Kind.GAME_LOSS, "bob", 2, "Bob", [lost], "ann")
    withdrawn = Penalty("ann", Kind.GAME_LOSS, 2, "Stalling", 1, withdrawn=Withdrawal(5, "error"))
    check_new(Kind.GAME_LOSS, "ann", 2, "Ann", [withdrawn], "bob")
    with pytest.raises(BadInput, match="name the round"):
        check_new(Kind.GAME_LOSS, "ann", None, "Ann", [], None)
    out = Penalty("ann", Kind.DISQUALIFICATION, 2, "Cheating", 1)
    with pytest.raises(RuleError, match="already disqualified"):
        check_new(Kind.DISQUALIFICATION, "ann", 2, "Ann", [out])


def test_only_the_eos_own_standing_penalty_is_withdrawn() -> None:
    check_withdraw(Penalty("ann", Kind.WARNING, 1, "Slow play", 1))
    with pytest.raises(RuleError, match="table"):
        check_withdraw(Penalty("ann", Kind.WARNING, 1, "Paused", 1, at_table=True))
    with pytest.raises(RuleError, match="already withdrawn"):
        check_withdraw(Penalty("ann", Kind.WARNING, 1, "x", 1, withdrawn=Withdrawal(2, "y")))
