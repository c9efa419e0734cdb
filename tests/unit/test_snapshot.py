"""A game written to a snapshot reads back exactly as it was, at every step of a game."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.game import Game
from app.tables import snapshot
from app.tables.jsontext import dumps, loads

from .helpers import EO, P1, P2, scoring, table_at


def _round_trip(game: Game) -> Game:
    return snapshot.read(loads(dumps(snapshot.write(game))))


def test_every_state_of_a_played_game_reads_back_as_it_was() -> None:
    table = table_at(3, P1)
    states = [table.game]
    states.append(table.do(P1, c.SwitchClock(to=P2)))
    states.append(table.do(P2, c.SwitchClock(to=P1)))
    states.append(
        table.do(
            P1,
            c.PassTurn(
                expect=P1,
                turn_end=c.TurnEnd(kill_box=False, scoring=scoring({"rect-1": P1, "flag-1": P2})),
            ),
        )
    )
    states.append(table.do(P2, c.ProposeUndo()))
    states.append(table.do(EO, c.PauseClock()))
    states.append(table.do(EO, c.ResumeClock()))
    states.append(table.do(P2, c.Concede()))
    states.append(table.do(P1, c.ReportGame(army_points_destroyed=30, list_played="Sorscha")))
    states.append(table.do(P1, c.ConfirmResult()))
    states.append(table.do(P2, c.DisputeResult("CP were wrong")))
    states.append(
        table.do(
            EO, c.RecordResult(winner=P1, control_points=(4, 1), army_points_destroyed=(30, 0))
        )
    )
    for game in states:
        assert _round_trip(game) == game


def test_a_snapshot_of_another_shape_is_refused() -> None:
    written = snapshot.write(table_at(2, P2).game)
    with pytest.raises(ValueError, match="format"):
        snapshot.read({**written, "format": 0})
    del written["game"]["clock"]
    with pytest.raises(ValueError, match="fields"):
        snapshot.read(written)
