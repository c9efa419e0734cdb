"""Each format's list rules from its document: SR2019 "Army Lists" and "Army List
Variants" (Battlegroup Only, Character Restrictions, Specialists) with whole lists
pasted, M&C "Army Lists", IG2014 "Army Lists", "Specialists" and "Modeling and
Painting", and the specialist substitution both documents describe."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.domain import variants
from app.domain.army_lists import NO_CHECKS, list_texts, read_list
from app.domain.army_lists.list_rule import ListRule
from app.domain.errors import BadInput
from app.domain.formats import CHAMPIONS2019, IG2014, MASTERS2019, SR2019

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army_lists"
IG = IG2014.list_rule(None)


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# -- counts: SR2019, M&C and IG2014 "Army Lists" ----------------------------------------


def test_sr2019_army_lists__one_list_with_a_second_optional_is_the_baseline() -> None:
    """SR2019 "Army Lists": "A baseline Steamroller event requires a player to bring
    one army list, with a second army list optional" (issue W9)."""
    rule = SR2019.list_rule(None)
    assert (rule.lists, rule.fewest, rule.most) == (1, 1, 2)
    rule.check_lists(["Haley 3 (75)"], 75)
    rule.check_lists(["Haley 3 (75)", "Stryker 1 (75)"], 75)
    with pytest.raises(BadInput, match="asks each player for 1 or 2"):
        rule.check(3)


def test_sr2019_army_lists__the_event_may_ask_for_two_and_nothing_else() -> None:
    assert [(r.lists, r.fewest, r.most) for r in SR2019.list_rules] == [(1, 1, 2), (2, 2, 2)]
    with pytest.raises(BadInput, match="does not run with lists=3"):
        SR2019.list_rule(3)


def test_masters_champions_army_lists__dyad_trinity_and_champions_counts() -> None:
    assert [(r.fewest, r.most) for r in MASTERS2019.list_rules] == [(2, 2), (3, 3)]
    champions = CHAMPIONS2019.list_rule(None)
    assert (champions.fewest, champions.most, champions.different_themes) == (1, 2, True)
    assert IG.fewest == IG.most == 2 and IG.each_played


@pytest.mark.parametrize(("rule", "under"), [(SR2019.list_rule(1), 4), (IG, 2)])
def test_army_lists__the_point_window_each_document_sets(rule: ListRule, under: int) -> None:
    assert rule.points_under == under


# -- IG2014 "Army Lists" -----------------------------------------------------------------


@pytest.mark.parametrize("points", [73, 74, 75])
def test_ig2014_army_lists__at_most_2_points_under_is_accepted(points: int) -> None:
    IG.check_lists([f"Kaelyssa ({points})", "Vyros 2 (75)"], 75, painted=True)


@pytest.mark.parametrize("points", [72, 76])
def test_ig2014_army_lists__3_under_or_over_is_refused(points: int) -> None:
    with pytest.raises(BadInput, match=r"totals 73 to 75 points \(Army Lists: at most 2 under"):
        IG.check_lists([f"Kaelyssa ({points})", "Vyros 2 (75)"], 75, painted=True)


def test_ig2014_army_lists__the_same_character_in_both_lists_is_refused() -> None:
    """IG2014 "Army Lists": "Players cannot include the same version of a model or unit
    with FA C in more than one list" (field allowance C across lists), no variant needed."""
    first = "Haley 3 (75)\n- Thorn (C) (15)\nEiryss 1 (C) (6)"
    with pytest.raises(BadInput) as refused:
        IG.check_lists([first, "Stryker 1 (75)\nEiryss 1 (C) (6)"], 75, painted=True)
    assert refused.value.message.startswith("list 2 (Stryker 1 (75)), line 2 'Eiryss 1 (C) (6)'")
    assert "Army Lists (IG2014, field allowance C)" in refused.value.message
    IG.check_lists([first, "Stryker 1 (75)\nEiryss 2 (C) (7)"], 75, painted=True)  # epic


# -- IG2014 "Specialists" ----------------------------------------------------------------


@pytest.mark.parametrize(("size", "allowance"), [(35, 10), (50, 10), (75, 15)])
def test_ig2014_specialists__point_values_by_game_size(size: int, allowance: int) -> None:
    checks = IG.with_roster(NO_CHECKS, "")
    assert checks.allowance(size) == allowance
    assert f"Specialists: up to {allowance} points" in " ".join(checks.words(size))
    base = f"Kaelyssa ({size})\nSpecialists:\n"
    IG.check_lists([base + f"Arcanist ({allowance})", f"Vyros 2 ({size})"], size, painted=True)
    with pytest.raises(BadInput, match=f"allows {allowance}"):
        IG.check_lists(
            [base + f"Arcanist ({allowance + 1})", f"Vyros 2 ({size})"], size, painted=True
        )


def test_ig2014_specialists__a_card_of_the_main_list_is_refused() -> None:
    text = "Kaelyssa (75)\n- Chimera (8)\nSpecialists:\n- Chimera (8)"
    with pytest.raises(BadInput, match="Chimera is in the main list"):
        IG.check_lists([text, "Vyros 2 (75)"], 75, painted=True)


# -- IG2014 "Modeling and Painting" ------------------------------------------------------


def test_ig2014_modeling_and_painting__fully_painted_is_declared_with_the_lists() -> None:
    """IG2014 "Modeling and Painting": "All models must be completely painted"."""
    checks = IG.with_painting(IG.with_roster(NO_CHECKS, ""))
    with pytest.raises(BadInput, match=r"Fully Painted \(IG2014 Modeling and Painting\)"):
        IG.check_lists(["Kaelyssa (75)", "Vyros 2 (75)"], 75, checks=checks)
    IG.check_lists(["Kaelyssa (75)", "Vyros 2 (75)"], 75, checks=checks, painted=True)
    assert any(w.startswith("Fully Painted") for w in checks.words(75))
    advanced = variants.list_checks(["painting_advanced"], 75)
    assert SR2019.list_rule(1).with_painting(advanced) == advanced  # no standard of its own
    assert IG.with_painting(advanced) == advanced  # the event's own standard stands


# -- SR2019 "Army List Variants" with whole lists pasted ---------------------------------


def test_sr2019_specialists__a_whole_list_at_a_one_list_event() -> None:
    """Issue W11: Specialists could not be used at one-list events."""
    rule = SR2019.list_rule(1)
    checks = variants.list_checks(["specialists"], 75)
    lists = list_texts(fixture("written_with_specialists.txt"))
    rule.check_lists(lists, 75, checks=checks)
    with pytest.raises(BadInput, match="does not use the Specialists variant"):
        rule.check_lists(lists, 75)


def test_sr2019_battlegroup_only__a_war_room_export_names_the_first_other_model() -> None:
    rule = SR2019.list_rule(1)
    checks = variants.list_checks(["battlegroup_only"], 75)
    with pytest.raises(BadInput) as refused:
        rule.check_lists(list_texts(fixture("warroom2_khador.txt")), 75, checks=checks)
    assert refused.value.message.startswith(
        "list 1 (Kommander Sorscha / Jaws of the Wolf (75)), line 14 "
        "'Kayazy Assassin Underboss - PC: 0': Battlegroup Only"
    )


def test_sr2019_character_restrictions__across_whole_lists_pasted_together() -> None:
    rule = SR2019.list_rule(2)
    checks = variants.list_checks(["character_restrictions"], 75)
    text = fixture("two_written_lists.txt").replace("Eiryss 1 (C) (6)", "Thorn (C) (15)")
    with pytest.raises(BadInput, match=r"list 2 \(Stryker 1 \(74\)\), line 4 .*Thorn \(FA C\)"):
        rule.check_lists(list_texts(text), 75, checks=checks)
    rule.check_lists(list_texts(fixture("two_written_lists.txt")), 75, checks=checks)


# -- the specialist substitution (SR2019 "Specialists", IG2014 "Specialists") ------------

SPECIALIST_LIST = fixture("written_with_specialists.txt")


def test_specialists__a_legal_substitution_gives_the_list_as_played() -> None:
    rule = SR2019.list_rule(1)
    done = rule.substitution(SPECIALIST_LIST, ["widowmaker  marksman"], ["Kovnik Jozef"], 75)
    assert [e.name for e in done.removed] == ["Widowmaker Marksman"]
    assert [e.name for e in done.added] == ["Kovnik Jozef"]
    assert done.army.points == 75
    names = [m.name for m in done.army.models]
    assert "Kovnik Jozef" in names and "Widowmaker Marksman" not in names
    none = IG.substitution(SPECIALIST_LIST, [], [], 75)
    assert none.army == read_list(SPECIALIST_LIST)


def test_specialists__the_list_stays_within_its_point_window() -> None:
    """Specialists: "Specialist substitutions cannot result in an illegal army list": 71 is
    legal at SR2019 (4 under), not at IG2014 (2 under); 75 - 4 + 10 is over."""
    SR2019.list_rule(1).substitution(SPECIALIST_LIST, ["Widowmaker Marksman"], [], 75)
    with pytest.raises(BadInput, match=r"would total 71 points; .* totals 73 to 75"):
        IG.substitution(SPECIALIST_LIST, ["Widowmaker Marksman"], [], 75)
    with pytest.raises(BadInput, match="would total 81 points"):
        IG.substitution(SPECIALIST_LIST, ["Widowmaker Marksman"], ["Winter Guard Rifle Corps"], 75)


def test_specialists__removals_are_whole_cards_of_the_list() -> None:
    rule = SR2019.list_rule(1)
    with pytest.raises(BadInput, match="Irusk 2 leads the list"):
        rule.substitution(SPECIALIST_LIST, ["irusk 2"], [], 75)
    with pytest.raises(BadInput, match="Behemoth is not a card of this list"):
        rule.substitution(SPECIALIST_LIST, ["Behemoth"], [], 75)
    with pytest.raises(BadInput, match="attached to Winter Guard Infantry: remove it too"):
        rule.substitution(SPECIALIST_LIST, ["Winter Guard Infantry"], ["Kovnik Jozef"], 75)
    with pytest.raises(BadInput, match="Kodiak is not one of this list's specialists"):
        rule.substitution(SPECIALIST_LIST, ["Eiryss 1"], ["Kodiak"], 75)


def test_ig2014_specialists__the_tier_is_not_lowered() -> None:
    """IG2014 "Specialists": "The models and units that satisfy the army list's tier
    ... can be replaced only with specialist models that fulfill the same tier
    requirement" (marked [tier])."""
    unit = ["Winter Guard Infantry", "Winter Guard Infantry Officer & Standard"]
    IG.substitution(SPECIALIST_LIST, unit, ["Winter Guard Rifle Corps", "Kovnik Jozef"], 75)
    with pytest.raises(BadInput, match="tier cannot be lowered"):
        IG.substitution(SPECIALIST_LIST, ["Juggernaut"], ["Kovnik Jozef"], 75)


def test_ig2014_specialists__a_free_theme_force_model_is_not_substituted() -> None:
    thorle = fixture("warroom_2014_circle.txt") + "\nSpecialists:\nGallows Grove: 1"
    with pytest.raises(BadInput, match="a free model a theme force grants is not substituted"):
        IG.substitution(thorle, ["Woldwatcher"], [], 55)


def test_specialists__a_character_is_not_in_the_list_twice() -> None:
    text = "Haley 3 (75)\nEiryss 1 (C) (6)\nArlan (6)\nSpecialists:\nEiryss 1 (C) (6)"
    with pytest.raises(BadInput, match=r"Eiryss 1 \(FA C\) would be in the list twice"):
        SR2019.list_rule(1).substitution(text, ["Arlan"], ["Eiryss 1"], 75)
    SR2019.list_rule(1).substitution(text, ["Eiryss 1"], ["Eiryss 1"], 75)


def test_sr2019_battlegroup_only__a_specialist_added_is_a_battlegroup_model() -> None:
    checks = variants.list_checks(["battlegroup_only", "specialists"], 75)
    text = "Butcher 3 (75)\n- Juggernaut (16)\nSpecialists:\n- Marauder (16)\nGreylord Escort (5)"
    rule = SR2019.list_rule(1)
    rule.substitution(text, ["Juggernaut"], ["Marauder"], 75, checks)
    with pytest.raises(BadInput, match="Battlegroup Only"):
        rule.substitution(text, ["Juggernaut"], ["Greylord Escort"], 71, checks)
