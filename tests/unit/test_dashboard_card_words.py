"""The EO's dashboard card of a finished table says the result that stands, by the
winner's name: the EO's once entered, the tiebreakers' once decided (TS6, TS7, TS9)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.domain import commands as c
from app.domain.game import Method
from app.tables.warmachine.view import table_summary
from tests.unit.helpers import EO, P1, P2, Table, table_at


def _card(table: Table) -> dict[str, Any]:
    ending: dict[str, Any] = table_summary("t", 1, table.game, "over", table.now)["ending"]
    return ending


def _named() -> Table:
    """Ann and Bob, in Ann's first turn."""
    table = table_at(1, P1)
    table.game = replace(table.game, setup=replace(table.game.setup, names=("Ann", "Bob")))
    return table


def test_the_card_says_the_eos_result_when_the_eo_found_for_the_other_player__TS9() -> None:
    table = _named()
    table.do(P2, c.CasterDestroyed())
    table.do(P1, c.ReportGame(army_points_destroyed=40))
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    assert _card(table) == {
        "method": "assassination",
        "winner": "p1",
        "words": "Ann wins by assassination",
    }
    table.do(P2, c.DisputeResult(reason="my caster was out of range"))
    table.do(EO, c.RecordResult(winner=P2, control_points=(0, 0), army_points_destroyed=(10, 40)))
    assert _card(table) == {
        "method": "eo",
        "winner": "p2",
        "words": "Bob wins by the organiser's decision",
    }


def test_the_card_says_the_tiebreakers_decide_until_they_have__TS6_TS7() -> None:
    table = _named()
    table.do(P1, c.CasterDestroyed(both=True))
    assert _card(table)["words"] == "Game over — tiebreakers decide"
    table.do(P1, c.ReportGame(army_points_destroyed=20, scenario_presence=5))
    table.do(P2, c.ReportGame(army_points_destroyed=30, scenario_presence=5))
    # TS7: casters and CP level; Bob suffered fewer army points destroyed.
    card = _card(table)
    assert card["winner"] == "p2" and card["method"] == Method.TIEBREAKER.value
    assert card["words"] == "Bob wins by tiebreaker"
