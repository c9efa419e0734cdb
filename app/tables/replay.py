"""A table's game rebuilt from its log: each version's game, and the server's decisions."""

from __future__ import annotations

import contextlib
from typing import Any

from app.domain.commands import Actor, Command
from app.domain.errors import RuleError
from app.domain.frozen import replace
from app.domain.game import Game, apply, decide_time
from app.domain.merge import merge
from app.store.log_entry import LogEntry
from app.tables.engine import Engine
from app.tables.jsontext import loads
from app.tables.offline import items_since, merged_items
from app.tables.offline import timed_from_wire as _timed
from app.tables.seats import actor_from_wire
from app.tables.warmachine.codec import command_from_wire
from app.tables.warmachine.time_moved import noted


def fold(
    initial: Any, log: list[LogEntry], first: int = 0, engine: Engine | None = None
) -> list[Any]:
    """The game after each version of the log from `initial`, the game at version
    `first` (index 0: at `first`, before the log's first entry)."""
    states = [initial]
    for entry in log:
        wire = loads(entry.command_json)
        if wire.get("c") == "merge":
            states.append(_merged(states, log, first, entry, wire))
        else:
            read, play = (
                (command_from_wire, _replay)
                if engine is None
                else (engine.command_from_wire, engine.replay)
            )
            command = read(wire)
            states.append(play(states[-1], actor_from_wire(entry.actor), command, entry.at_ms))
    return states


def _replay(game: Game, actor: Actor, command: Command, at_ms: int) -> Game:
    return apply(game, actor, command, at_ms, logged=True)


def _merged(
    states: list[Any], log: list[LogEntry], first: int, entry: LogEntry, wire: dict[str, Any]
) -> Any:
    """The game after a merge's row: its commands played again from its base (a merge that
    carries its own plays them with the rows between; an older one has them all), with
    the notes of time moved as the table had them, and the one it made."""
    base = int(wire["base"])
    if base < first:
        raise KeyError(f"a merge from version {base}, before the snapshot")
    game = states[base - first]
    if wire.get("own"):
        game = replay_merge(game, log[base - first : entry.version - first - 1], entry, wire)
    else:
        for sub in wire["entries"]:
            by, cmd = actor_from_wire(sub["by"]), command_from_wire(sub["cmd"])
            game = apply(game, by, cmd, sub["at_ms"], logged=True)
    game = noted(replace(game, time_moved=states[-1].time_moved), wire)
    return decide_time(game, max(entry.at_ms, game.clock.since_ms))


def replay_merge(
    base: Game, between: list[LogEntry], entry: LogEntry, wire: dict[str, Any]
) -> Game:
    """A merge that carries its own commands, played again from its log row: its base
    game, the rows between its base and it, and its own."""
    since = items_since(between, int(wire["base"]))
    own = [_timed(sub, entry.version, True) for sub in merged_items(wire)]
    game, _, _ = merge(base, since + own, entry.at_ms, logged=True)
    return game


def eo_results(initial: Game, log: list[LogEntry]) -> Game:
    """A table whose log does not replay: the results the EO entered on it, in order,
    on the table as it started (all that its log can still say)."""
    game = initial
    for entry in log:
        wire = loads(entry.command_json)
        if entry.actor == "eo" and wire.get("c") == "record_result":
            with contextlib.suppress(RuleError):
                game = apply(game, actor_from_wire("eo"), command_from_wire(wire), entry.at_ms)
    return game
