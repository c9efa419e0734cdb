"""Prizes (ST3): which prizes a format gives, who wins them, and the blind vote."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.formats import get_format
from app.domain.prize_ties import standings_awards
from app.domain.prizes import (
    Ballot,
    Prize,
    check_ballot,
    count,
    get_prize,
    offered,
    painting_category,
    second_vote_entries,
)
from app.domain.standings import Standing


def standings_winner(prize: Prize, rows: Sequence[Standing], out: set[str]) -> str | None:
    return standings_awards((prize,), rows, out, {})[prize.id].winner


def row(pid: str, tp: int, sos: int, cp: int, apd: int, rank: int = 0) -> Standing:
    return Standing(rank, pid, pid, "", tp, sos, cp, apd, False)


def ids(prizes: Sequence[Prize]) -> list[str]:
    return [p.id for p in prizes]


def test_sr2019_gives_three_places_best_painted_with_a_category_and_best_sport__ST3() -> None:
    prizes = get_format("sr2019").prizes
    assert ids(offered(prizes, "")) == ["first", "second", "third", "best_sport"]
    assert ids(offered(prizes, "Best Unit")) == [
        "first",
        "second",
        "third",
        "best_painted",
        "best_sport",
    ]
    assert get_prize(prizes, "best_sport").vote and get_prize(prizes, "best_painted").vote


def test_masters_gives_first_to_third_only__ST3() -> None:
    prizes = get_format("masters2019").prizes
    assert ids(offered(prizes, "")) == ["first", "second", "third"]
    with pytest.raises(BadInput, match="no Best-Painted"):
        painting_category(prizes, "Best Unit")


def test_champions_gives_first_best_army_most_cp_and_most_apd__ST3() -> None:
    prizes = get_format("champions2019").prizes
    assert ids(offered(prizes, "")) == ["first", "best_painted", "most_cp", "most_apd"]
    painted = get_prize(prizes, "best_painted")
    assert painted.category == "Best Army" and painted.chosen and not painted.vote
    with pytest.raises(BadInput, match="fixed: Best Army"):
        painting_category(prizes, "Best Unit")


def test_most_control_points_ties_go_to_tp_then_sos_then_apd__ST3() -> None:
    most_cp = get_prize(get_format("champions2019").prizes, "most_cp")
    rows = [row("A", 3, 9, 12, 50), row("B", 4, 1, 12, 10), row("C", 5, 9, 8, 90)]
    assert standings_winner(most_cp, rows, set()) == "B"  # A and B 12 CP: B has more TP
    rows = [row("A", 3, 9, 12, 50), row("B", 3, 9, 12, 60)]
    assert standings_winner(most_cp, rows, set()) == "B"  # TP and SoS equal: APD


def test_most_army_points_destroyed_ties_go_to_tp_then_sos_then_cp__ST3() -> None:
    most_apd = get_prize(get_format("champions2019").prizes, "most_apd")
    rows = [row("A", 3, 9, 12, 90), row("B", 3, 10, 1, 90), row("C", 5, 9, 8, 40)]
    assert standings_winner(most_apd, rows, set()) == "B"  # TP equal: SoS
    rows = [row("A", 3, 9, 12, 90), row("B", 3, 9, 1, 90)]
    assert standings_winner(most_apd, rows, set()) == "A"  # TP and SoS equal: CP


def test_a_disqualified_player_wins_nothing_and_places_pass_on__ST3() -> None:
    prizes = get_format("champions2019").prizes
    rows = [row("A", 3, 9, 12, 90, 1), row("B", 2, 9, 1, 10, 2), row("C", 1, 9, 8, 40, 3)]
    assert standings_winner(get_prize(prizes, "first"), rows, {"A"}) == "B"
    assert standings_winner(get_prize(prizes, "most_cp"), rows, {"A"}) == "C"
    assert standings_winner(get_prize(prizes, "most_apd"), rows, {"A"}) == "C"
    third = get_prize(get_format("masters2019").prizes, "third")
    assert standings_winner(third, rows, {"A"}) is None  # two eligible players: no third


def test_a_blind_vote_counts_each_players_last_vote_and_may_be_for_their_own__ST3() -> None:
    entries = ("A", "B", "C")
    ballots = [Ballot("A", "A"), Ballot("B", "A"), Ballot("C", "C"), Ballot("B", "C")]
    counted = count(entries, ballots)
    assert dict(counted.votes) == {"A": 1, "B": 0, "C": 2}
    assert counted.winner == "C" and not counted.tied


def test_a_tied_vote_goes_to_a_second_vote_among_the_tied_only__ST3() -> None:
    counted = count(("A", "B", "C"), [Ballot("A", "A"), Ballot("B", "B"), Ballot("C", "C")])
    assert counted.tied and counted.winner is None and counted.leaders == ("A", "B", "C")
    counted = count(("A", "B", "C"), [Ballot("A", "A"), Ballot("B", "B")])
    assert second_vote_entries(counted, None) == ("A", "B")
    with pytest.raises(BadInput, match="tied entries only"):
        second_vote_entries(counted, ["A", "C"])
    with pytest.raises(RuleError, match="tie"):
        second_vote_entries(count(("A", "B"), [Ballot("A", "A")]), None)


def test_a_ballot_is_for_an_entry_shown_by_an_eligible_player__ST3() -> None:
    assert check_ballot("A", "A", {"A", "B"}, {"A", "B"}) == Ballot("A", "A")
    with pytest.raises(BadInput, match="entries shown"):
        check_ballot("A", "Z", {"A", "B"}, {"A", "B"})
    with pytest.raises(RuleError, match="disqualified"):
        check_ballot("D", "A", {"A", "B"}, {"A", "B"})
