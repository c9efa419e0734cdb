"""A pre-game of only some of its format's steps (an event without the pre-game on the
phones: the starting roll and the choice of who goes first), and the starting roll made
with real dice at the table, entered on a phone ("Starting the Game")."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.game import Phase
from app.domain.pregame import Step
from app.tables.warmachine.codec import command_from_wire, command_to_wire
from tests.unit.helpers import EO, P1, P2, Table

ROLL_AND_ORDER = c.OpenPregame(steps=("roll", "order"))


def opened() -> Table:
    table = Table.new()
    table.do(EO, ROLL_AND_ORDER)
    return table


def test_the_roll_and_the_order_only_in_the_formats_order() -> None:
    pregame = opened().game.pregame
    assert pregame is not None and pregame.steps == (Step.ROLL, Step.ORDER)
    assert pregame.objectives == ()  # no objective is chosen without its step
    reordered = Table.new()
    reordered.do(EO, c.OpenPregame(steps=("order", "roll")))
    assert reordered.game.pregame is not None
    assert reordered.game.pregame.steps == (Step.ROLL, Step.ORDER)


@pytest.mark.parametrize(
    ("steps", "words"),
    [(("roll", "toss"), "no such pre-game step: toss"), (("order",), "needs the starting roll")],
)
def test_steps_that_cannot_be_played_are_refused(steps: tuple[str, ...], words: str) -> None:
    with pytest.raises(BadInput, match=words):
        Table.new().do(EO, c.OpenPregame(steps=steps))


def test_no_clock_until_the_winner_chose_and_the_first_player_starts() -> None:
    table = opened()
    with pytest.raises(RuleError, match="the starting roll"):
        table.try_do(P1, c.StartClock())
    table.do(P2, c.StartingRoll(at_table=(2, 5)))  # either player enters both dice
    pregame = table.game.pregame
    assert pregame is not None and pregame.winner == 1 and pregame.rolls == ((2, 5),)
    table.do(P2, c.ChooseOrder(first=True))
    assert table.game.pregame is not None and table.game.pregame.done
    assert table.game.phase is Phase.READY and table.game.clock.running is None
    assert table.game.names[0] == table.game.setup.names[1]  # the second seat goes first
    table.do(P1, c.StartClock())  # P1: the player who goes first
    assert table.game.phase is Phase.DEPLOYMENT and table.game.clock.running is Side.P1
    assert table.game.deployed_ms == table.now


def test_real_dice_equal_or_off_a_d6_or_after_a_phone_roll_are_refused() -> None:
    table = opened()
    with pytest.raises(BadInput, match="roll again"):
        table.try_do(P1, c.StartingRoll(at_table=(4, 4)))
    with pytest.raises(BadInput, match="1 to 6"):
        table.try_do(P1, c.StartingRoll(at_table=(7, 1)))
    table.do(P1, c.StartingRoll(value=3))  # the server's die for the first player
    with pytest.raises(RuleError, match="rolled on the phones already"):
        table.try_do(P2, c.StartingRoll(at_table=(1, 6)))


def test_the_wire_and_the_log_keep_the_steps_and_the_dice() -> None:
    for command in (
        ROLL_AND_ORDER,
        c.OpenPregame(),
        c.StartingRoll(at_table=(6, 1)),
        c.StartingRoll(value=4),
    ):
        assert command_from_wire(command_to_wire(command)) == command
    assert command_to_wire(c.OpenPregame()) == {"c": "open_pregame", "choices": [[], []]}
    with pytest.raises(BadInput, match="The dice rolled at the table must be two"):
        command_from_wire({"c": "roll", "at_table": [6]})
