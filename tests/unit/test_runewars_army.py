"""The regulations' "Army Building", at registration where the event asks for lists:
"An army cannot exceed 200 points", figures "from only one faction", no "more than two
unique units", "four terrain cards" and "the total capacity of any combination of two
chosen terrain cards cannot exceed 6". Each refusal says the rule in plain words (no rule
ids); the list's total is the player's army value (ST5's MoV and the first player's
choice use it)."""

from __future__ import annotations

import random

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.runewars import army
from app.domain.runewars.event import RwEvent, pair_next, register
from app.domain.runewars.rules import Plan
from app.events.runewars.codec import dump_event, load_event

TERRAIN = "Terrain: Hill, 2\nTerrain: Forest, 3\nTerrain: Rocks, 3\nTerrain: Well, 1\n"
LEGAL = (
    "Ardus Ix'Erebus, Waiqar the Undying, 52, unique\n"
    "Reanimates, Waiqar the Undying, 44\n"
    "Deathcallers, Waiqar the Undying, 40, unique\n"
    "Carrion Lancers, Waiqar the Undying, 62\n" + TERRAIN
)


def test_a_legal_list_and_its_total__Army_Building() -> None:
    listed = army.check(LEGAL)
    assert listed.points == 198 and len(listed.units) == 4 and len(listed.terrain) == 4
    assert [u.name for u in listed.units if u.unique] == ["Ardus Ix'Erebus", "Deathcallers"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            LEGAL.replace(
                "Carrion Lancers, Waiqar the Undying, 62", "Carrion Lancers, Waiqar the Undying, 70"
            ),
            "an army cannot exceed 200 points: this one is 206",
        ),
        (
            LEGAL.replace("Reanimates, Waiqar the Undying", "Spearmen, Daqan Lords"),
            "an army has figures from only one faction: "
            "this one has Daqan Lords and Waiqar the Undying",
        ),
        (
            LEGAL.replace(
                "Reanimates, Waiqar the Undying, 44", "Reanimates, Waiqar the Undying, 44, unique"
            ),
            "an army cannot contain more than 2 unique units: this one has 3 "
            "(Ardus Ix'Erebus, Reanimates, Deathcallers)",
        ),
        (
            LEGAL.replace("Terrain: Well, 1\n", ""),
            "an army includes 4 terrain cards: this one has 3",
        ),
        (
            LEGAL.replace("Terrain: Rocks, 3", "Terrain: Rocks, 4"),
            "no two terrain cards may total a capacity over 6: Forest (3) and Rocks (4) make 7",
        ),
    ],
)
def test_each_rule_refused_in_plain_words__Army_Building(text: str, words: str) -> None:
    with pytest.raises(BadInput) as refused:
        army.check(text)
    assert refused.value.message == "this army list is not legal: " + words


def test_every_broken_rule_is_named_at_once__Army_Building() -> None:
    text = "A, Latari Elves, 150, unique\nB, Daqan Lords, 100, unique\nC, Daqan Lords, 1, unique\n"
    with pytest.raises(BadInput) as refused:
        army.check(text + "Terrain: Hill, 5\nTerrain: Hill, 2")
    said = refused.value.message
    for words in ("exceed 200", "only one faction", "two unique", "4 terrain cards", "make 7"):
        assert words.replace("two unique", "than 2 unique") in said


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "asks each player for an army list"),
        ("Spearmen, Daqan Lords", "a unit is 'name, faction, points'"),
        ("Spearmen, Daqan Lords, lots", "a unit's points is a whole number"),
        ("Terrain: Hill", "a terrain card is 'Terrain: name, capacity'"),
        ("Spearmen, Daqan Lords, 30, elite", "a unit is 'name, faction, points'"),
    ],
)
def test_the_list_format_is_explained__Army_Building(text: str, words: str) -> None:
    with pytest.raises(BadInput, match=words):
        army.check(text)


def test_registration_where_the_event_asks_for_lists__Army_Building_ST5() -> None:
    rng = random.Random(1)
    event = RwEvent("Store", Plan(3, 0), asks_lists=True)
    with pytest.raises(BadInput, match="asks each player for an army list"):
        register(event, "a", "Ann", 200, rng)
    with pytest.raises(BadInput, match="the army list totals 198 points, not 200"):
        register(event, "a", "Ann", 200, rng, LEGAL)
    with pytest.raises(BadInput, match="more than 2 unique units"):
        register(event, "a", "Ann", None, rng, LEGAL.replace(", 44", ", 44, unique"))
    event = register(event, "a", "Ann", None, rng, LEGAL)
    assert event.player("a").army_value == 198 and event.player("a").army_list == LEGAL.strip()
    back = load_event(dump_event(event))
    assert back.asks_lists and back.player("a").army_list == LEGAL.strip()
    plain = register(RwEvent("Store", Plan(3, 0)), "b", "Bob", 190, rng)
    assert plain.player("b").army_list == ""
    with pytest.raises(RuleError, match="registration is closed"):
        register(_started(event), "c", "Cal", None, rng, LEGAL)


def _started(event: RwEvent) -> RwEvent:
    event = register(event, "b", "Bob", None, random.Random(2), LEGAL)
    return pair_next(event, random.Random(3))
