"""The pre-game at the table ("Starting the Game" in the SR2019, Masters/Champions and
IG2014 documents): secret lists revealed at once, objectives, the starting roll with
ties rolled again, first or second, the table edge; P1 settled at the table."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.game import Method, Phase
from app.domain.pregame import Step
from app.domain.rulesets.sr2019 import OBJECTIVES
from tests.unit.helpers import EO, P1, P2, SYSTEM, Table

LISTS = (("Haley", "Stryker"), ("Kreoss", "Severius"))


def opened(format_id: str = "sr2019") -> Table:
    table = Table.new(format_id=format_id) if format_id == "sr2019" else _ig()
    table.do(EO, c.OpenPregame(choices=LISTS))
    return table


def _ig() -> Table:
    return Table.new("destruction", format_id="ig2014", army_points=50)


def through_lists(table: Table) -> Table:
    table.do(P1, c.ChooseList("Stryker"))
    table.do(P2, c.ChooseList("Kreoss"))
    return table


def test_steps_are_the_rulesets_data() -> None:
    sr = opened().game.pregame
    assert sr is not None
    assert sr.steps == (Step.LISTS, Step.OBJECTIVES, Step.ROLL, Step.ORDER, Step.EDGE)
    ig = opened("ig2014").game.pregame
    assert ig is not None
    assert ig.steps == (Step.LISTS, Step.ROLL, Step.ORDER, Step.EDGE)


def test_a_scenario_without_objectives_has_no_objective_step() -> None:
    """SR2019: "Some scenarios require each player to use one SR2019 objective"."""
    table = Table.new("spread-the-net")
    table.do(EO, c.OpenPregame(choices=LISTS))
    assert table.game.pregame is not None
    assert table.game.pregame.steps == (Step.LISTS, Step.ROLL, Step.ORDER, Step.EDGE)


def test_a_list_is_one_of_the_players_own_and_cannot_change() -> None:
    table = opened()
    with pytest.raises(BadInput, match="choose one of your lists: Haley; Stryker"):
        table.try_do(P1, c.ChooseList("Kreoss"))
    table.do(P1, c.ChooseList("Haley"))
    with pytest.raises(RuleError, match="cannot be changed"):
        table.try_do(P1, c.ChooseList("Stryker"))


def test_lists_are_revealed_only_when_both_have_chosen() -> None:
    table = opened()
    table.do(P1, c.ChooseList("Haley"))
    pregame = table.game.pregame
    assert pregame is not None and not pregame.lists_revealed and pregame.step is Step.LISTS
    table.do(P2, c.ChooseList("Severius"))
    pregame = table.game.pregame
    assert pregame is not None and pregame.lists_revealed
    assert pregame.step is Step.OBJECTIVES


def test_objectives_after_lists_revealed_after_roll_and_sides() -> None:
    table = through_lists(opened())
    with pytest.raises(BadInput, match="Armory, Dugout"):
        table.try_do(P1, c.ChooseObjective("Bunker"))
    table.do(P1, c.ChooseObjective("Armory"))
    table.do(P2, c.ChooseObjective("Stockpile"))
    pregame = table.game.pregame
    assert pregame is not None and pregame.step is Step.ROLL
    assert not pregame.objectives_revealed
    table.do(P1, c.StartingRoll(5))
    table.do(P2, c.StartingRoll(2))
    table.do(P1, c.ChooseOrder(first=True))
    assert table.game.pregame is not None and not table.game.pregame.objectives_revealed
    table.do(P2, c.ChooseEdge(swap=False))
    assert table.game.pregame is not None and table.game.pregame.objectives_revealed
    assert set(OBJECTIVES) == {
        "Armory",
        "Dugout",
        "Fuel Cache",
        "Observatory",
        "Stockpile",
        "Treasure Chest",
    }


def test_the_starting_roll_ties_roll_again() -> None:
    table = through_lists(opened("ig2014"))
    table.do(P1, c.StartingRoll(4))
    with pytest.raises(RuleError, match="you have rolled"):
        table.try_do(P1, c.StartingRoll(6))
    table.do(P2, c.StartingRoll(4))
    pregame = table.game.pregame
    assert pregame is not None and pregame.winner is None and pregame.rolls == ((4, 4),)
    assert pregame.step is Step.ROLL
    table.do(P2, c.StartingRoll(6))
    table.do(P1, c.StartingRoll(1))
    pregame = table.game.pregame
    assert pregame is not None and pregame.winner == 1 and pregame.step is Step.ORDER


def test_only_the_winner_chooses_order_and_p1_follows_the_choice() -> None:
    """The second seat wins the roll and goes first: it is P1 from now on."""
    table = through_lists(opened("ig2014"))
    table.do(P1, c.StartingRoll(2))
    table.do(P2, c.StartingRoll(3))
    with pytest.raises(NotYourSeat, match="winner of the starting roll"):
        table.try_do(P1, c.ChooseOrder(first=False))
    table.do(P2, c.ChooseOrder(first=True))
    game = table.game
    assert game.pregame is not None and game.pregame.swapped
    assert game.names == ("Player 2", "Player 1")
    # The lists follow the players: P1 (the second seat) plays Kreoss.
    assert game.pregame.in_play_order(game.pregame.lists) == ("Kreoss", "Stryker")
    # The second player (now P2: the first seat) chooses the edge.
    with pytest.raises(NotYourSeat, match="second player chooses the table edge"):
        table.try_do(P1, c.ChooseEdge(swap=True))
    table.do(P2, c.ChooseEdge(swap=True))
    assert table.game.pregame is not None and table.game.pregame.done


def test_the_winner_may_go_second() -> None:
    table = through_lists(opened("ig2014"))
    table.do(P1, c.StartingRoll(6))
    table.do(P2, c.StartingRoll(3))
    table.do(P1, c.ChooseOrder(first=False))
    assert table.game.pregame is not None and table.game.pregame.swapped


def test_no_clock_and_no_taps_before_the_pregame_is_done() -> None:
    table = opened()
    with pytest.raises(RuleError, match="the pre-game comes first: each player chooses a list"):
        table.try_do(P1, c.StartClock())
    with pytest.raises(RuleError, match="pre-game comes first"):
        table.try_do(P1, c.PassTurn(expect=P1))
    with pytest.raises(RuleError, match="not yet: first each player chooses a list"):
        table.try_do(P1, c.StartingRoll(3))
    with pytest.raises(NotYourSeat):
        table.try_do(P1, c.OpenPregame())
    with pytest.raises(RuleError, match="already begun"):
        table.try_do(SYSTEM, c.OpenPregame())


def test_the_eo_may_start_a_table_stuck_in_its_pregame() -> None:
    """A phone that is gone never holds the table: the EO starts the clock over the
    pre-game, the seats as they are; the pre-game is over then."""
    table = opened()
    table.do(P1, c.ChooseList("Haley"))
    game = table.do(EO, c.StartClock())
    assert game.phase is Phase.DEPLOYMENT and not game.in_pregame
    with pytest.raises(RuleError, match="the pre-game is over"):
        table.try_do(P2, c.ChooseList("Kreoss"))


def test_the_clock_starts_after_the_pregame_with_the_first_player() -> None:
    table = through_lists(opened("ig2014"))
    table.do(P1, c.StartingRoll(1))
    table.do(P2, c.StartingRoll(6))
    table.do(P2, c.ChooseOrder(first=True))
    table.do(P2, c.ChooseEdge(swap=False))
    with pytest.raises(RuleError, match="pre-game is done"):
        table.try_do(P1, c.StartingRoll(3))
    game = table.start()
    assert game.phase is Phase.PRE_DEPLOYMENT and game.clock.running is P1


def test_the_list_played_goes_into_the_result__TS9() -> None:
    table = through_lists(opened("ig2014"))
    table.do(P1, c.StartingRoll(1))
    table.do(P2, c.StartingRoll(6))
    table.do(P2, c.ChooseOrder(first=True))  # the second seat (Kreoss) is P1
    table.do(P2, c.ChooseEdge(swap=False))
    table.start()
    table.do(P2, c.Concede())
    table.do(P1, c.ReportGame(army_points_destroyed=20))
    result = table.game.result()
    assert result is not None and result.method is Method.CONCESSION
    assert result.lists == ("Kreoss", "Stryker")


def test_a_player_without_registered_lists_writes_one() -> None:
    table = Table.new(format_id="ig2014", scenario_id="destruction", army_points=50)
    table.do(EO, c.OpenPregame())
    with pytest.raises(BadInput, match="write the list"):
        table.try_do(P1, c.ChooseList("  "))
    table.do(P1, c.ChooseList("Butcher 3"))
    assert table.game.pregame is not None and table.game.pregame.lists[0] == "Butcher 3"


def test_only_the_choices_left_under_each_list_played_once() -> None:
    """IG2014: each list is played at least once, so the choices narrow."""
    from app.domain.formats import get_format

    rule = get_format("ig2014").list_rule(2)
    assert rule.choices(["A", "B"], played={"A"}, rounds_left=1) == ["B"]
    assert rule.choices(["A", "B"], played={"A"}, rounds_left=2) == ["A", "B"]


def test_every_state_of_a_pregame_reads_back_from_a_snapshot() -> None:
    from app.tables import snapshot
    from app.tables.jsontext import dumps, loads

    table = opened()
    states = [table.game]
    states.append(table.do(P1, c.ChooseList("Stryker")))
    states.append(table.do(P2, c.ChooseList("Kreoss")))
    states.append(table.do(P1, c.ChooseObjective("Armory")))
    states.append(table.do(P2, c.ChooseObjective("Dugout")))
    states.append(table.do(P1, c.StartingRoll(2)))
    states.append(table.do(P2, c.StartingRoll(2)))
    states.append(table.do(P2, c.StartingRoll(4)))
    states.append(table.do(P1, c.StartingRoll(1)))
    states.append(table.do(P2, c.ChooseOrder(first=True)))
    states.append(table.do(P2, c.ChooseEdge(swap=True)))
    for game in states:
        assert snapshot.read(loads(dumps(snapshot.write(game)))) == game
