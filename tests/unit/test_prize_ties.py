"""ST3 with ST1: a prize the final standings cannot give. Players equal on TP, SoS, CP and
APD share a rank and the documents break the tie no further: a place among them, or a
"most" prize whose leaders are equal on every key it names, is the EO's to give among
them, never the alphabet's."""

from __future__ import annotations

from app.domain.formats import get_format
from app.domain.prize_ties import Award, standings_awards, tied_for
from app.domain.prizes import PLACES, get_prize
from app.domain.standings import Standing


def row(pid: str, rank: int, tp: int = 1, cp: int = 3, apd: int = 20) -> Standing:
    return Standing(rank, pid, pid, "", tp, 0, cp, apd, False)


def places(
    rows: list[Standing], chosen: dict[str, str] | None = None, out: set[str] | None = None
) -> dict[str, Award]:
    return standings_awards(PLACES, rows, out or set(), chosen or {})


def test_players_sharing_first_place_are_tied_for_first_and_second__ST3() -> None:
    rows = [row("Zed", 1), row("Amy", 1), row("Bo", 3, tp=0)]
    awards = places(rows)
    assert awards["first"] == Award(None, ("Zed", "Amy"))
    assert awards["second"] == Award(None, ("Zed", "Amy"))
    assert awards["third"] == Award("Bo")  # alone at rank 3: the standings give it


def test_the_eos_choice_places_one_and_the_other_takes_the_place_left__ST3() -> None:
    rows = [row("Zed", 1), row("Amy", 1), row("Bo", 3, tp=0)]
    awards = places(rows, {"first": "Zed"})
    assert awards["first"] == Award("Zed", chosen=True) and awards["second"] == Award("Amy")
    awards = places(rows, {"second": "Zed"})  # the EO may start from the lower place
    assert awards["first"] == Award("Amy") and awards["second"] == Award("Zed", chosen=True)


def test_three_players_sharing_second_place_need_two_choices__ST3() -> None:
    rows = [row("A", 1, tp=2), row("B", 2), row("C", 2), row("D", 2)]
    awards = places(rows)
    assert awards["first"] == Award("A")
    assert awards["second"].tied == awards["third"].tied == ("B", "C", "D")
    awards = places(rows, {"second": "C"})
    assert awards["second"] == Award("C", chosen=True)
    assert awards["third"] == Award(None, ("B", "D"))  # C is placed: not offered again
    assert places(rows, {"second": "C", "third": "D"})["third"] == Award("D", chosen=True)


def test_a_choice_counts_only_while_its_player_is_still_tied__ST3() -> None:
    # A corrected result ended the tie: the standings give the places again.
    rows = [row("Zed", 1, tp=2), row("Amy", 2), row("Bo", 3, tp=0)]
    awards = places(rows, {"first": "Amy"})
    assert awards["first"] == Award("Zed") and awards["second"] == Award("Amy")


def test_a_choice_for_a_place_outside_the_tie_does_not_decide_it__ST3() -> None:
    # The EO placed Zed third in a tie a corrected result has since ended: Zed now shares
    # first with Amy, and that old choice does not place Amy first.
    rows = [row("Zed", 1), row("Amy", 1), row("Bo", 3, tp=0), row("Cy", 4, tp=0, cp=1)]
    awards = places(rows, {"third": "Zed"})
    assert awards["first"] == Award(None, ("Zed", "Amy"))
    assert awards["third"] == Award("Bo")


def test_a_disqualified_player_leaves_the_tie__ST3() -> None:
    rows = [row("Zed", 1), row("Amy", 1), row("Bo", 3, tp=0)]
    awards = places(rows, out={"Zed"})
    assert awards["first"] == Award("Amy") and awards["second"] == Award("Bo")
    assert awards["third"] == Award(None)  # two eligible players: no third


def test_most_control_points_tied_on_every_key_is_the_eos__ST3() -> None:
    prizes = get_format("champions2019").prizes
    most_cp = get_prize(prizes, "most_cp")
    rows = [row("Zed", 1, cp=9), row("Amy", 1, cp=9), row("Bo", 3, tp=0, cp=9)]
    assert standings_awards((most_cp,), rows, set(), {})["most_cp"] == Award(None, ("Zed", "Amy"))
    assert tied_for(most_cp, prizes, rows, set(), {"most_cp": "Amy"}) == ("Zed", "Amy")
    chosen = standings_awards((most_cp,), rows, set(), {"most_cp": "Amy"})
    assert chosen["most_cp"] == Award("Amy", chosen=True)
