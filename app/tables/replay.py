"""A table's game rebuilt from its log: each version's game, and the server's decisions."""

from __future__ import annotations

from app.domain.game import Game, Phase, apply, decide_time
from app.store.repository import LogEntry
from app.tables.codec import actor_from_wire, command_from_wire
from app.tables.jsontext import loads


def decides(actor: str, game: Game) -> bool:
    """A commit after which nothing earlier is replayed: the server's or the EO's
    decision, or anything once the game is over (a merge never reorders commands
    before them)."""
    return actor in ("eo", "system") or game.phase in (Phase.OVER, Phase.CLOCK_OUT)


def fold(initial: Game, log: list[LogEntry], first: int = 0) -> list[Game]:
    """The game after each version of the log from `initial`, the game at version
    `first` (index 0: at `first`, before the log's first entry)."""
    states = [initial]
    for entry in log:
        wire = loads(entry.command_json)
        if wire.get("c") == "merge":
            if wire["base"] < first:
                raise KeyError(f"a merge from version {wire['base']}, before the snapshot")
            game = states[wire["base"] - first]
            for sub in wire["entries"]:
                game = apply(
                    game, actor_from_wire(sub["by"]), command_from_wire(sub["cmd"]), sub["at_ms"]
                )
            states.append(decide_time(game, max(entry.at_ms, game.clock.since_ms)))
        else:
            command = command_from_wire(wire)
            states.append(apply(states[-1], actor_from_wire(entry.actor), command, entry.at_ms))
    return states
