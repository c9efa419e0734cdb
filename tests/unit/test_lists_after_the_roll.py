"""The lists the event lets each player play this game (IG2014: each list played at least
once) stay with their player when the starting roll makes the second seat's player go
first: the report checks a player's list against their own lists, the refusal names
the player, and each screen gets the choices by side, as it gets the names (TS9)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.domain import commands as c
from app.domain.errors import BadInput
from app.domain.game import Phase, apply
from app.tables.warmachine.view import game_view
from tests.unit.helpers import EO, P1, P2, SYSTEM, Table

ANN = ("Haley 1", "Haley 2")  # the first seat's lists
BOB = ("Vayl 1", "Vayl 2")  # the second seat's


def _bob_goes_first() -> Table:
    """An IG2014 table, Ann in the first seat, Bob in the second; Bob wins the starting
    roll and goes first (P1); Ann concedes once the clock has started."""
    table = Table.new("destruction", format_id="ig2014", player_clock_ms=60 * 60_000)
    setup = replace(table.game.setup, names=("Ann", "Bob"))
    table.game = replace(table.game, setup=setup)
    table.do(SYSTEM, c.OfferLists(p1=ANN, p2=BOB))
    table.do(EO, c.OpenPregame())
    table.do(P1, c.ChooseList(ANN[0]))
    table.do(P2, c.ChooseList(BOB[0]))
    table.do(P1, c.StartingRoll(2))
    table.do(P2, c.StartingRoll(5))
    table.do(P2, c.ChooseOrder(first=True))  # the second seat's link now plays P1
    table.do(P2, c.ChooseEdge(swap=False))  # the second player: Ann
    assert table.game.names == ("Bob", "Ann")
    table.start()
    table.do(P2, c.Concede())
    assert table.game.phase is Phase.OVER
    return table


def test_a_players_report_is_checked_against_their_own_lists_after_the_roll__TS9() -> None:
    table = _bob_goes_first()
    with pytest.raises(BadInput, match="Bob plays one of these lists this game: Vayl 1, Vayl 2"):
        apply(table.game, P1, c.ReportGame(40, list_played=ANN[1]), table.now + 1)
    table.do(P1, c.ReportGame(40, list_played=BOB[1]))
    table.do(P2, c.ReportGame(10, list_played=ANN[1]))
    result = table.game.result()
    assert result is not None and result.lists == (BOB[1], ANN[1])


def test_each_screen_gets_the_lists_by_side_after_the_roll__TS9() -> None:
    view = game_view(_bob_goes_first().game, 0)
    assert view["list_choices"] == [list(BOB), list(ANN)]
