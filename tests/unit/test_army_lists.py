"""Army list rules checked when lists are submitted (SR2019 and M&C "Army Lists")."""

from __future__ import annotations

import pytest

from app.domain.army_lists import check_lists, read_list
from app.domain.errors import BadInput
from app.domain.formats import CHAMPIONS2019, MASTERS2019, SR2019


def test_a_list_is_read_as_leader_theme_and_points__lists() -> None:
    army = read_list("Butcher 3 / Jaws of the Wolf (75)")
    assert (army.leader, army.theme, army.points) == ("Butcher 3", "Jaws of the Wolf", 75)
    assert read_list("Kaelyssa: 73 pts").points == 73
    assert read_list("Caine 2").points is None


@pytest.mark.parametrize("points", [71, 75])
def test_point_total_within_four_under_the_event_size__lists(points: int) -> None:
    check_lists([f"Kaelyssa ({points})"], 75, different_themes=False)


@pytest.mark.parametrize("points", [70, 76])
def test_point_total_outside_the_window_is_refused__lists(points: int) -> None:
    with pytest.raises(BadInput, match="totals 71 to 75 points"):
        check_lists([f"Kaelyssa ({points})"], 75, different_themes=False)


def test_lists_are_led_by_different_casters__lists() -> None:
    check_lists(["Caine 1 (75)", "Caine 2 (74)"], 75, different_themes=False)  # versions differ
    with pytest.raises(BadInput, match="two lists are led by Caine 2"):
        check_lists(["Caine 2 (75)", "caine  2 (74)"], 75, different_themes=False)


def test_masters_dyad_and_trinity_fixed_for_the_event__lists() -> None:
    dyad, trinity = MASTERS2019.list_rule(2), MASTERS2019.list_rule(3)
    dyad.check_lists(["Butcher 3", "Irusk 2"], 75)
    with pytest.raises(BadInput, match="Masters Dyad, 2 lists"):
        dyad.check_lists(["Butcher 3", "Irusk 2", "Sorscha 1"], 75)
    with pytest.raises(BadInput, match="Masters Trinity, 3 lists"):
        trinity.check_lists(["Butcher 3", "Irusk 2"], 75)


def test_champions_second_list_needs_a_different_theme_force__lists() -> None:
    rule = CHAMPIONS2019.list_rule(None)
    rule.check_lists(["Butcher 3 / Jaws of the Wolf"], 75)
    rule.check_lists(["Butcher 3 / Jaws of the Wolf", "Irusk 2 / Winter Guard Kommand"], 75)
    with pytest.raises(BadInput, match="each list uses a different theme force"):
        rule.check_lists(["Butcher 3 / Jaws of the Wolf", "Irusk 2 / jaws of the wolf"], 75)
    rule.check_lists(["Butcher 3", "Irusk 2"], 75)  # themes not written: not checked


def test_the_eo_lets_refused_lists_stand_with_a_note__lists() -> None:
    rule = SR2019.list_rule(2)
    with pytest.raises(BadInput):
        rule.check_lists(["Caine 2 (75)", "Caine 2 (75)"], 75)
    rule.check_lists(["Caine 2 (75)", "Caine 2 (75)"], 75, note="two sculpts, agreed by the EO")
    with pytest.raises(BadInput, match="asks each player for 2"):  # the count still counts
        rule.check_lists(["Caine 2"], 75, note="anything")
