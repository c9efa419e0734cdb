"""The list grammar over what players paste (SR2019 and M&C "Army Lists": lists with
point costs for all models; IG2014 "Army Lists" and "Specialists"): whole lists as
written, War Room 2 and Conflict Chamber exports (tests/fixtures/army_lists), several
lists one after another, the short one-line form; malformed lists refused with the list,
the line and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.domain.army_lists import ListUnreadable, list_texts, read_list, split_lists
from app.domain.errors import BadInput
from app.domain.formats import SR2019

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army_lists"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "names", "models"),
    [
        ("warroom2_khador.txt", ["Kommander Sorscha / Jaws of the Wolf (75)"], [11]),
        (
            "warroom_2014_circle.txt",
            ["Bradigus Thorle the Runecarver / Call of the Wild (55)"],
            [8],
        ),
        ("conflict_chamber_cygnar.txt", ["Major Victoria Haley / Heavy Metal (75)"], [8]),
        ("written_whole.txt", ["Butcher 3 / Jaws of the Wolf (75)"], [6]),
        ("written_with_specialists.txt", ["Irusk 2 / Winter Guard Kommand (75)"], [5]),
        ("two_written_lists.txt", ["Haley 3 / Heavy Metal (75)", "Stryker 1 (74)"], [3, 3]),
        ("short_form.txt", ["Butcher 3 / Jaws of the Wolf (75)", "Irusk 2: 73 pts"], [0, 0]),
    ],
)
def test_army_lists__every_accepted_form_is_read_whole(
    name: str, names: list[str], models: list[int]
) -> None:
    text = fixture(name)
    assert split_lists(text) == names
    armies = [read_list(t, n) for n, t in enumerate(list_texts(text), 1)]
    assert [len(a.models) for a in armies] == models


def test_army_lists__a_single_whole_list_pasted_is_one_list_not_one_a_line() -> None:
    """Issue W11: a whole list without a blank line was read as one list per line."""
    text = fixture("written_whole.txt")
    assert list_texts(text) == [text.strip()]
    SR2019.list_rule(1).check_lists(list_texts(text), 75)


def test_army_lists__exports_one_after_another_are_one_list_each() -> None:
    text = "\n".join(
        fixture(name)
        for name in (
            "warroom2_khador.txt",
            "conflict_chamber_cygnar.txt",
            "warroom_2014_circle.txt",
        )
    )
    assert split_lists(text) == [
        "Kommander Sorscha / Jaws of the Wolf (75)",
        "Major Victoria Haley / Heavy Metal (75)",
        "Bradigus Thorle the Runecarver / Call of the Wild (55)",
    ]
    twice = fixture("warroom2_khador.txt") + fixture("warroom2_khador.txt")  # no blank between
    assert len(list_texts(twice)) == 2


def test_army_lists__a_war_room_2_export_is_read_with_its_battlegroup_and_attachments() -> None:
    army = read_list(fixture("warroom2_khador.txt"))
    assert (army.leader, army.theme, army.points) == ("Kommander Sorscha", "Jaws of the Wolf", 75)
    assert army.title == "Khador - Sorscha Jaws v2"
    beast = army.models[0]
    assert (beast.name, beast.points, beast.battlegroup) == ("Beast-09", 19, True)
    wgi, officer = army.models[6], army.models[7]
    assert (wgi.name, wgi.points, wgi.battlegroup) == ("Winter Guard Infantry", 10, False)
    assert (officer.attached_to, officer.battlegroup) == ("Winter Guard Infantry", False)


def test_army_lists__a_war_room_2014_export_stops_at_its_theme_and_tier_text() -> None:
    army = read_list(fixture("warroom_2014_circle.txt"))
    assert army.points == 55 and army.theme == "Call of the Wild"
    assert [m.name for m in army.models][-1] == "Stone Keeper"
    assert army.models[2].points == 0  # the tier's free Woldwatcher


def test_army_lists__a_conflict_chamber_export_is_read_with_its_marks() -> None:
    army = read_list(fixture("conflict_chamber_cygnar.txt"))
    assert army.leader == "Major Victoria Haley" and army.title == "Cygnar"
    thorn = army.models[1]
    assert (thorn.name, thorn.points, thorn.character, thorn.battlegroup) == (
        "Thorn",
        15,
        True,
        True,
    )
    charger = army.models[4]
    assert (charger.attached_to, charger.battlegroup) == ("Journeyman Warcaster", False)


def test_army_lists__specialists_and_tier_marks_are_read() -> None:
    army = read_list(fixture("written_with_specialists.txt"))
    assert [m.tier for m in army.models] == [True, True, False, False, False]
    assert [(s.name, s.points, s.tier) for s in army.specialists] == [
        ("Winter Guard Rifle Corps", 10, True),
        ("Kovnik Jozef", 4, False),
    ]


def test_army_lists__the_short_one_line_form_stays() -> None:
    assert list_texts("Haley 3; Stryker 1\nCaine 2") == ["Haley 3", "Stryker 1", "Caine 2"]
    assert split_lists("Kaelyssa: 73 pts\nVyros 2 (75)") == ["Kaelyssa: 73 pts", "Vyros 2 (75)"]


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("unclosed_bracket.txt", "list 1, line 3 '- Juggernaut (16': a bracket is not closed"),
        (
            "export_without_leader.txt",
            "list 1, line 8 'Beast-09 - PC: 19': a model before the list's warcaster",
        ),
        (
            "two_specialist_sections.txt",
            "list 1, line 5 'Specialists:': a list has one 'Specialists:' line",
        ),
        (
            "two_theme_forces.txt",
            "list 1, line 3 'Theme: Storm Division': a list is built with one theme force",
        ),
    ],
)
def test_army_lists__a_malformed_list_is_refused_with_its_line(name: str, refusal: str) -> None:
    texts = list_texts(fixture(f"malformed/{name}"))
    with pytest.raises(ListUnreadable) as refused:
        SR2019.list_rule(1).check_lists(texts, 75)
    assert refused.value.message.startswith(refusal)


def test_army_lists__the_refusal_names_the_second_list() -> None:
    text = fixture("two_written_lists.txt") + "\n\n" + fixture("malformed/unclosed_bracket.txt")
    with pytest.raises(BadInput, match=r"^list 3, line 3 '- Juggernaut \(16'"):
        SR2019.list_rule(2).read(list_texts(text))


def test_army_lists__an_export_without_its_leader_line_is_refused() -> None:
    with pytest.raises(ListUnreadable, match="list 2, line 1 'War Room Army': no line for"):
        read_list("War Room Army\n\nKhador - empty\n\nTheme: Jaws of the Wolf", 2)


def test_army_lists__a_line_over_200_characters_is_refused() -> None:
    with pytest.raises(ListUnreadable, match=r"list 1, line 2 .*200 characters at most"):
        read_list("Haley 3 (75)\n" + "x" * 201)
