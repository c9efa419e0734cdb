"""What the EO asks of one Warmachine table by itself: the commands the EO sends it
over REST (pause, resume, adjust the clock, call a tie, start, dice down) and what the
EO sees of it to settle it (its dispute and both players' reports). Each engine says
its own (see `app.tables.engines`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain import commands as c
from app.domain.errors import NotFound
from app.domain.game import Game
from app.tables.codec import command_from_wire
from app.tables.view import side_name

#: The commands the EO sends one Warmachine table by itself.
EO_COMMANDS = (
    c.PauseClock,
    c.ResumeClock,
    c.AdjustClock,
    c.CallTie,
    c.StartClock,
    c.DiceDown,
)


def eo_command(raw: Mapping[str, Any]) -> c.Command:
    command = command_from_wire(raw)
    if not isinstance(command, EO_COMMANDS):
        raise NotFound("the EO can pause, resume, adjust_clock, call_tie, start or dice_down here")
    return command


def detail(table_id: str, game: Game, _now_ms: int) -> dict[str, Any]:
    """A table's dispute and both players' reports, as the EO needs them."""
    ending = game.ending
    return {
        "id": table_id,
        "names": list(game.setup.names),
        "player_clock_ms": game.setup.player_clock_ms,
        "disputed": game.disputed,
        "control_points": list(game.control_points),
        "ending": None
        if ending is None
        else {
            "method": ending.method.value,
            "winner": side_name(ending.winner),
        },
        "reports": [
            None
            if r is None
            else {
                "army_points_destroyed": r.army_points_destroyed,
                "scenario_presence": r.scenario_presence,
                "list_played": r.list_played,
            }
            for r in game.reports
        ],
        "confirmed": list(game.confirmed),
    }
