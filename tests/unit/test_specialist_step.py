"""The specialist step at the table (SR2019 "Specialists", IG2014 "Specialists"): after
the lists are revealed, each player secretly removes cards from and adds specialists to
their chosen list; both are revealed at once, each checked legal by the event's list
rules; the Lists view shows both players' lists in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.errors import BadInput, RuleError
from app.domain.pregame import Step, Swap
from app.tables.warmachine.codec import SECRET, command_from_wire, command_to_wire
from app.tables.warmachine.pregame_view import own_choices, pregame_view
from tests.unit.helpers import EO, P1, P2, Table

FIXTURES = Path(__file__).parent.parent / "fixtures" / "army_lists"
IRUSK = (FIXTURES / "written_with_specialists.txt").read_text(encoding="utf-8").strip()
HALEY = (
    "Haley 2 / Storm Division (75)\n- Stormclad (19)\nStorm Lances (22)\nSpecialists:\nArcher (6)"
)
ARMIES = ((IRUSK, "Butcher 3 (75)"), (HALEY,))
CHOICES = (
    ("Irusk 2 / Winter Guard Kommand (75)", "Butcher 3 (75)"),
    ("Haley 2 / Storm Division (75)",),
)


def ig_table(specialists: bool = True) -> Table:
    table = Table.new("destruction", format_id="ig2014", army_points=75)
    table.do(EO, c.OpenPregame(choices=CHOICES, armies=ARMIES, specialists=specialists))
    return table


def chosen(table: Table) -> Table:
    table.do(P1, c.ChooseList(CHOICES[0][0]))
    table.do(P2, c.ChooseList(CHOICES[1][0]))
    return table


def test_the_specialist_step_follows_the_list_reveal_where_the_event_uses_them() -> None:
    pregame = ig_table().game.pregame
    assert pregame is not None
    assert pregame.steps == (Step.LISTS, Step.SPECIALISTS, Step.ROLL, Step.ORDER, Step.EDGE)
    plain = ig_table(specialists=False).game.pregame
    assert plain is not None and Step.SPECIALISTS not in plain.steps
    table = ig_table()
    with pytest.raises(RuleError, match="first each player chooses a list"):
        table.try_do(P1, c.ChooseSpecialists())


def test_substitutions_are_secret_until_both_chose_then_revealed_at_once() -> None:
    table = chosen(ig_table())
    table.do(P1, c.ChooseSpecialists(removed=("Widowmaker Marksman",), added=("Kovnik Jozef",)))
    view = pregame_view(table.game)
    assert view is not None
    assert view["specialists"] == [None, None] and view["specialists_chosen"] == [True, False]
    assert own_choices(table.game, P1)["specialists"] == {
        "removed": ["Widowmaker Marksman: 4"],
        "added": ["Kovnik Jozef (C) (4)"],
    }
    assert own_choices(table.game, P2)["specialists"] is None
    with pytest.raises(RuleError, match="cannot be changed"):
        table.try_do(P1, c.ChooseSpecialists())
    table.do(P2, c.ChooseSpecialists())
    view = pregame_view(table.game)
    assert view is not None and view["step"] == "roll"
    assert view["specialists"] == [
        {"removed": ["Widowmaker Marksman: 4"], "added": ["Kovnik Jozef (C) (4)"]},
        {"removed": [], "added": []},
    ]
    assert table.game.pregame is not None
    assert table.game.pregame.specialists[1] == Swap()


def test_an_illegal_substitution_is_refused_naming_the_line_and_rule() -> None:
    table = chosen(ig_table())
    with pytest.raises(BadInput, match=r"would total 71 points; .* totals 73 to 75"):
        table.try_do(P1, c.ChooseSpecialists(removed=("Widowmaker Marksman",)))
    with pytest.raises(BadInput, match="Kodiak is not one of this list's specialists"):
        table.try_do(P1, c.ChooseSpecialists(added=("Kodiak",)))
    with pytest.raises(BadInput, match="tier cannot be lowered"):
        table.try_do(P1, c.ChooseSpecialists(removed=("Juggernaut",), added=("Kovnik Jozef",)))
    assert table.game.pregame is not None and table.game.pregame.specialists == (None, None)


def test_the_lists_view_shows_every_model_of_both_players_lists() -> None:
    view = pregame_view(ig_table().game)
    assert view is not None
    irusk, butcher = view["armies"][0]
    assert irusk["name"] == CHOICES[0][0] and butcher["name"] == "Butcher 3 (75)"
    assert [m["name"] for m in irusk["models"]] == [
        "Juggernaut",
        "Winter Guard Infantry",
        "Winter Guard Infantry Officer & Standard",
        "Widowmaker Marksman",
        "Eiryss 1",
    ]
    assert [s["name"] for s in irusk["specialists"]] == ["Winter Guard Rifle Corps", "Kovnik Jozef"]
    assert [m["name"] for m in view["armies"][1][0]["models"]] == ["Stormclad", "Storm Lances"]
    # The choice stays secret: the lists are public, which one is played is not.
    assert view["lists"] == [None, None]


def test_the_choice_is_secret_on_the_wire_and_the_lists_travel_with_the_opening() -> None:
    cmd = c.ChooseSpecialists(removed=("Juggernaut",), added=("Kovnik Jozef",))
    wire = command_to_wire(cmd)
    assert command_from_wire(wire) == cmd
    assert set(SECRET["choose_specialists"]) == {"removed", "added"}
    opening = c.OpenPregame(choices=CHOICES, armies=ARMIES, specialists=True)
    assert command_from_wire(command_to_wire(opening)) == opening


def test_every_state_of_the_specialist_step_reads_back_from_a_snapshot() -> None:
    from app.tables import snapshot
    from app.tables.jsontext import dumps, loads

    table = chosen(ig_table())
    states = [table.game]
    states.append(
        table.do(P1, c.ChooseSpecialists(removed=("Widowmaker Marksman",), added=("Kovnik Jozef",)))
    )
    states.append(table.do(P2, c.ChooseSpecialists()))
    for game in states:
        assert snapshot.read(loads(dumps(snapshot.write(game)))) == game
