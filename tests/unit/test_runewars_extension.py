"""The regulations' "Lost and Damaged Components": "The leader will give the player a
short time extension to their game in order to find a replacement." The organiser adds
minutes to one table's round timer (DC11), with a reason the players read; the table's
time is called at its own later end; only the organiser gives it, before time is called
on that table. The table log carries it and old snapshots read without it."""

from __future__ import annotations

import random

import pytest

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars.engine import apply, new_game, timer_check, view
from app.domain.runewars.rules import MINUTE_MS
from app.domain.runewars.state import Phase, RwGame, TableSetup
from app.tables.runewars import table as runewars_table
from app.tables.runewars.codec import command_from_wire, command_to_wire

T0 = 1_000_000
EO = Role.EO


def playing() -> RwGame:
    game = new_game(
        TableSetup(("Ann", "Bob"), (190, 200), "Standoff", "Bounty", 90), random.Random(1)
    )
    game = apply(game, game.chooser, rc.ChooseFirstPlayer(Side.P1), T0)
    game = apply(game, Side.P2, rc.ChooseArea("red"), T0)
    return apply(game, EO, rc.StartRound(), T0)


def test_an_extension_moves_this_tables_time_to_its_own_end__DC11() -> None:
    """Lost and Damaged Components: ten minutes more; time is called at 100, not 90."""
    game = apply(
        playing(), EO, rc.ExtendTime(10, "Ann looks for her range ruler"), T0 + 5 * MINUTE_MS
    )
    assert game.ends_ms() == T0 + 100 * MINUTE_MS
    shown = view(game, T0 + 90 * MINUTE_MS)
    assert shown["extension_minutes"] == 10 and not shown["time_called"]
    assert shown["extension_reason"] == "Ann looks for her range ruler"
    assert shown["time_left_ms"] == 10 * MINUTE_MS
    assert not timer_check(game, T0 + 100 * MINUTE_MS - 1).time_called
    assert timer_check(game, T0 + 100 * MINUTE_MS).time_called
    again = apply(game, EO, rc.ExtendTime(5, "still looking"), T0 + 20 * MINUTE_MS)
    assert again.ends_ms() == T0 + 105 * MINUTE_MS and again.extension_reason == "still looking"
    runewars = runewars_table.board("t1", 1, again, "playing", T0)
    assert (runewars["extension_minutes"], runewars["extension_reason"]) == (15, "still looking")


def test_only_the_organiser_extends_and_only_before_time__DC11() -> None:
    game = playing()
    for seat in (Side.P1, Side.P2):
        with pytest.raises(NotYourSeat, match="only the organiser gives a table more time"):
            apply(game, seat, rc.ExtendTime(10, "lost dice"), T0)
    with pytest.raises(NotYourSeat):
        apply(game, Role.SYSTEM, rc.ExtendTime(10, "lost dice"), T0)
    with pytest.raises(BadInput, match="give the reason"):
        apply(game, EO, rc.ExtendTime(10, "  "), T0)
    for minutes in (0, 31):
        with pytest.raises(BadInput, match="1 to 30 minutes"):
            apply(game, EO, rc.ExtendTime(minutes, "lost dice"), T0)
    with pytest.raises(RuleError, match="time is already called"):
        apply(game, EO, rc.ExtendTime(10, "lost dice"), T0 + 90 * MINUTE_MS)
    called = apply(game, EO, rc.CallTime(), T0)
    with pytest.raises(RuleError, match="time is already called"):
        apply(called, EO, rc.ExtendTime(10, "lost dice"), T0)
    assert called.phase is Phase.PLAYING


def test_the_extension_goes_through_the_log_and_old_snapshots_read__DC11() -> None:
    wire = command_to_wire(rc.ExtendTime(7, "a template"))
    assert wire == {"c": "extend_time", "minutes": 7, "reason": "a template"}
    assert command_from_wire(wire) == rc.ExtendTime(7, "a template")
    game = apply(playing(), EO, rc.ExtendTime(7, "a template"), T0)
    assert runewars_table.read(runewars_table.write(game)) == game
    old = runewars_table.write(playing())
    del old["game"]["extension_ms"], old["game"]["extension_reason"]
    back = runewars_table.read(old)
    assert (back.extension_ms, back.extension_reason) == (0, "")
