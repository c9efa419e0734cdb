"""A finished game's story (`app.domain.game_story`) from the table's log, as JSON for
the phones, the log page and the EO's table view."""

from __future__ import annotations

from typing import Any

from app.domain import commands as c
from app.domain.game import Game, Phase
from app.domain.game_story import Step, Story, game_story
from app.store.log_entry import LogEntry
from app.tables.jsontext import loads
from app.tables.replay import fold
from app.tables.warmachine.codec import command_from_wire
from app.tables.warmachine.outcome import METHOD_WORDS
from app.tables.warmachine.view import side_name


def story_steps(initial: Game, log: list[LogEntry]) -> list[Step]:
    """The game after each row of the log, with the turn end each tap recorded."""
    states = fold(initial, log)
    steps = [Step(states[0])]
    for entry, game in zip(log, states[1:], strict=True):
        wire = loads(entry.command_json)
        end = None
        if wire.get("c") == "pass_turn":
            command = command_from_wire(wire)
            end = command.turn_end if isinstance(command, c.PassTurn) else None
        steps.append(Step(game, end))
    return steps


def story_json(story: Story) -> dict[str, Any]:
    decided = story.decided
    return {
        "names": list(story.names),
        "turns": [
            {"turn": t.turn, "clock_ms": list(t.clock_ms), "cp": list(t.control_points)}
            for t in story.turns
        ],
        "decided": None
        if decided is None
        else {
            "method": decided.method.value,
            "words": "the kill box" if decided.kill_box else METHOD_WORDS[decided.method],
            "winner": side_name(decided.winner),
            "turn": decided.turn,
            "side": side_name(decided.side),
            "kill_box": decided.kill_box,
            "scoring": decided.scoring,
        },
    }


def story_view(initial: Game, game: Game, log: list[LogEntry]) -> dict[str, Any] | None:
    """The story of a game that is over (None: it is not, yet)."""
    if game.phase is not Phase.OVER:
        return None
    return story_json(game_story(story_steps(initial, log)))
