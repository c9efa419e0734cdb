"""SR2019 "Army List Variants" and "Painting Variants", and Champions' Active Duty
Roster (masters-champions-2019.txt, "Champions ADR"), checked when lists are submitted.
The rules have no DC/TS/RP/ST id: the tests name the document's sections."""

from __future__ import annotations

import pytest

from app.domain import variants
from app.domain.army_lists import (
    LISTS_MOST,
    NO_CHECKS,
    ListChecks,
    check_length,
    list_texts,
    read_list,
    read_roster,
    split_lists,
    tidy,
)
from app.domain.errors import BadInput
from app.domain.formats import CHAMPIONS2019, SR2019
from app.domain.rulesets.masters import ALWAYS_ON_ROSTER

BATTLEGROUP = """Butcher 3 / Jaws of the Wolf (75)
- Beast-09 (C) (19)
- Juggernaut (16)
Kodiak [jack] (14)
Specialists:
- Marauder (13)"""

UNITS = """Irusk 2 (75)
- Juggernaut (16)
Man-O-War Shocktroopers (max) (17)
Eiryss 1 FA C (6)"""


def test_lists_are_one_a_line_or_separated_by_semicolons_as_before__army_lists() -> None:
    assert split_lists("Haley 3; Stryker 1\nCaine 2") == ["Haley 3", "Stryker 1", "Caine 2"]
    assert list_texts("Haley 3; Stryker 1\nCaine 2") == ["Haley 3", "Stryker 1", "Caine 2"]
    assert split_lists("") == [] and split_lists(" ;\n ") == []


def test_a_blank_line_separates_whole_lists__army_lists() -> None:
    text = BATTLEGROUP + "\n\n  \n" + UNITS + "\r\n"
    assert list_texts(text) == [BATTLEGROUP, UNITS]
    assert split_lists(text) == ["Butcher 3 / Jaws of the Wolf (75)", "Irusk 2 (75)"]
    assert tidy(" Haley 3\r\n- Squire\r\rStryker 1\n") == "Haley 3\n- Squire\n\nStryker 1"


def test_model_lines_are_read_with_their_marks__army_lists() -> None:
    army = read_list(BATTLEGROUP)
    assert (army.leader, army.theme, army.points) == ("Butcher 3", "Jaws of the Wolf", 75)
    beast, jugg, kodiak = army.models
    assert (beast.name, beast.points, beast.battlegroup, beast.character) == (
        "Beast-09",
        19,
        True,
        True,
    )
    assert beast.line == 2 and not jugg.character
    assert (kodiak.name, kodiak.independent, kodiak.battlegroup) == ("Kodiak", "jack", False)
    assert army.has_specialists and [s.name for s in army.specialists] == ["Marauder"]
    units = read_list(UNITS).models
    assert units[1].name == "Man-O-War Shocktroopers" and units[1].points == 17
    assert units[2].character and units[2].name == "Eiryss 1"
    assert read_list("• Gorax: 7 pts").models == ()  # the header only
    assert read_list("Madrak 2\n* Gorax: 7 pts").models[0].points == 7


def test_lists_beyond_the_limit_are_refused_clearly__army_lists() -> None:
    check_length("x" * LISTS_MOST)
    with pytest.raises(BadInput, match=f"{LISTS_MOST} at most"):
        check_length("x" * (LISTS_MOST + 1))


def test_army_list_variants_battlegroup_only__refuses_other_models() -> None:
    rule = SR2019.list_rule(2)
    checks = variants.list_checks(["battlegroup_only", "specialists"], 75)
    rule.check_lists([BATTLEGROUP, "Irusk 2 (75)\n- Juggernaut (16)"], 75, checks=checks)
    with pytest.raises(BadInput) as refused:
        rule.check_lists([BATTLEGROUP, UNITS], 75, checks=checks)
    message = refused.value.message
    assert message.startswith("list 2 (Irusk 2 (75)), line 3 'Man-O-War Shocktroopers (max) (17)'")
    assert "Battlegroup Only" in message
    without = variants.list_checks(["specialists"], 75)
    rule.check_lists([BATTLEGROUP, UNITS], 75, checks=without)


def test_army_list_variants_character_restrictions__one_version_in_one_list() -> None:
    rule = SR2019.list_rule(2)
    checks = variants.list_checks(["character_restrictions"], 75)
    eiryss_2 = "Haley 3 (75)\nEiryss 2 (C) (7)"
    rule.check_lists([UNITS, eiryss_2], 75, checks=checks)  # another version
    eiryss_1 = "Haley 3 (75)\nEiryss 1 (C) (6)"
    with pytest.raises(BadInput, match=r"list 2 \(Haley 3 \(75\)\), line 2 .*Eiryss 1 \(FA C\)"):
        rule.check_lists([UNITS, eiryss_1], 75, checks=checks)
    specialist = "Haley 3 (75)\nSpecialists:\neiryss 1 FA C (6)"
    with pytest.raises(BadInput, match="already in list 1"):
        rule.check_lists([UNITS, specialist], 75, checks=checks)
    rule.check_lists([UNITS, eiryss_1], 75)  # without the variant


@pytest.mark.parametrize(
    ("points", "allowance"),
    [(0, 0), (25, 10), (50, 20), (75, 20), (100, 30), (120, 30), (150, 50), (200, 50), (35, 10)],
)
def test_army_list_variants_specialist_point_values_table(points: int, allowance: int) -> None:
    assert variants.specialist_allowance(points) == allowance
    assert variants.list_checks(["specialists"], points).specialist_points == allowance


def test_army_list_variants_specialists__allowance_cost_and_own_card() -> None:
    rule = SR2019.list_rule(1)
    checks = variants.list_checks(["specialists"], 75)
    base = "Irusk 2 (75)\n- Juggernaut (16)\nSpecialists:\n"
    rule.check_lists(
        [base + "Widowmaker Marksman (4)\nKovnik Jozef (4)\nBehemoth (12)"], 75, checks=checks
    )
    with pytest.raises(BadInput, match="specialists total 21 points; a 75-point event allows 20"):
        rule.check_lists([base + "Kodiak [jack] (14)\nMarauder: 7"], 75, checks=checks)
    with pytest.raises(BadInput, match="line 4 'Kodiak': each specialist needs its point cost"):
        rule.check_lists([base + "Kodiak"], 75, checks=checks)
    with pytest.raises(BadInput, match="Juggernaut is in the main list"):
        rule.check_lists([base + "- Juggernaut (max) (16)"], 75, checks=checks)
    with pytest.raises(BadInput, match="does not use the Specialists variant"):
        rule.check_lists([base + "Behemoth (12)"], 75)


def test_painting_variants__the_player_confirms_the_standard() -> None:
    rule = SR2019.list_rule(1)
    checks = variants.list_checks(["painting_advanced"], 75)
    with pytest.raises(BadInput, match="Advanced Painting Required: All models must be completely"):
        rule.check_lists(["Haley 3 (75)"], 75, checks=checks)
    rule.check_lists(["Haley 3 (75)"], 75, checks=checks, painted=True)
    rule.check_lists([], 75, checks=checks)  # no lists submitted yet
    basic = variants.list_checks(["painting_basic"], 75)
    assert basic.painting is not None and basic.painting[0] == "Basic Painting Required"
    assert "primed and basecoated" in basic.words(75)[0]


def test_army_list_variants__the_eos_note_lets_every_check_stand() -> None:
    rule = SR2019.list_rule(2)
    every = variants.list_checks(
        ["battlegroup_only", "character_restrictions", "painting_basic"], 75
    )
    lists = [UNITS + "\nSpecialists:\nKodiak", "Haley 3 (75)\nEiryss 1 (C) (6)"]
    with pytest.raises(BadInput):
        rule.check_lists(lists, 75, checks=every)
    rule.check_lists(lists, 75, "agreed at the desk", checks=every)


ROSTER = """Leaders:
Butcher 3
- Irusk 2
Theme forces:
Jaws of the Wolf
Winter Guard Kommand"""


def test_champions_adr__leaders_and_theme_forces_on_the_roster() -> None:
    rule = CHAMPIONS2019.list_rule(None)
    checks = rule.with_roster(NO_CHECKS, ROSTER)
    assert checks.roster is not None
    rule.check_lists(
        ["Butcher 3 / Jaws of the Wolf (75)", "irusk 2 / Winter Guard Kommand"], 75, checks=checks
    )
    with pytest.raises(
        BadInput,
        match=r"list 1 \(Sorscha 1 / Jaws of the Wolf\): Sorscha 1 is not on this event's Active",
    ):
        rule.check_lists(["Sorscha 1 / Jaws of the Wolf"], 75, checks=checks)
    with pytest.raises(
        BadInput, match="the theme force Legion of Steel is not on this event's Active Duty Roster"
    ):
        rule.check_lists(["Butcher 3 / Legion of Steel"], 75, checks=checks)
    with pytest.raises(BadInput, match="name the list's theme force"):
        rule.check_lists(["Butcher 3 (75)"], 75, checks=checks)
    rule.check_lists(["Sorscha 1 / Legion of Steel"], 75, "EO: last month's roster", checks=checks)


@pytest.mark.parametrize("leader", ALWAYS_ON_ROSTER)
def test_champions_adr__the_battlegroup_box_casters_are_always_on_it(leader: str) -> None:
    rule = CHAMPIONS2019.list_rule(None)
    checks = rule.with_roster(NO_CHECKS, ROSTER)
    rule.check_lists([f"{leader} / Jaws of the Wolf"], 75, checks=checks)
    assert len(ALWAYS_ON_ROSTER) == 9  # the document's list: one a Faction box


def test_champions_adr__left_empty_it_is_not_checked_and_says_so() -> None:
    rule = CHAMPIONS2019.list_rule(None)
    checks = rule.with_roster(NO_CHECKS, "  \n")
    assert checks.roster is None and checks.roster_offered
    rule.check_lists(["Sorscha 1", "Butcher 3 / Anything"], 75, checks=checks)
    assert any("not checked" in w for w in checks.words(75))
    leaders_only = rule.with_roster(NO_CHECKS, "Leaders:\nButcher 3")
    rule.check_lists(["Butcher 3 (75)"], 75, checks=leaders_only)  # themes not entered


def test_champions_adr__the_roster_is_written_under_its_headings() -> None:
    with pytest.raises(BadInput, match="line 1 'Butcher 3': write the roster's names under"):
        read_roster("Butcher 3\nLeaders:", ())
    roster = read_roster("Warcasters/Warlocks:\nLord Kozlov, Viscount of Scarsgrad (Khador)", ())
    assert roster is not None and roster.leaders == {"lord kozlov viscount of scarsgrad"}
    with pytest.raises(BadInput, match="only Champions lists use an Active Duty Roster"):
        SR2019.list_rule(1).with_roster(NO_CHECKS, ROSTER)
    assert SR2019.list_rule(1).with_roster(NO_CHECKS, "") == NO_CHECKS
    assert ListChecks().words(75) == []
