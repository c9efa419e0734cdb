"""The table engines a room can host, each behind the same door: `new_game`,
`apply(game, actor, command, now_ms)`, `view(game, now_ms)`, its command codec, and the
few things the room asks of a game (its status, where it stands, when the server must
look at it next, what the server decides then, its snapshot). A format names its engine
(`app.domain.games`); the room asks the engine, never the format."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.domain import commands as c
from app.domain import game as warmachine
from app.domain.clock import Side
from app.domain.commands import Actor
from app.domain.frozen import replace
from app.domain.games import engine_name
from app.domain.status import TableStatus, table_status
from app.domain.undo import lapses_at
from app.tables import (
    codec,
    eo_table,
    runewars_codec,
    runewars_table,
    seating,
    snapshot,
    time_moved,
)
from app.tables.flag_timer import flag_bound
from app.tables.pregame_view import own_choices, screens_to_refresh, side_for
from app.tables.replay import decides
from app.tables.view import game_view, table_info, table_summary

#: What the server decided by itself at a due moment: (the game after, the command as
#: logged, the moment it is logged at).
Tick = tuple[Any, dict[str, Any], int]


@dataclass(frozen=True, slots=True)
class Engine:
    name: str
    #: Opens a game from the engine's own setup, at `now_ms`, with the server's dice.
    new_game: Callable[[Any, int, random.Random], Any]
    apply: Callable[[Any, Actor, Any, int], Any]
    #: `apply` for a command of the table's log (its sender was judged when accepted).
    replay: Callable[[Any, Actor, Any, int], Any]
    view: Callable[[Any, int], dict[str, Any]]
    info: Callable[[str, Any], dict[str, Any]]
    command_from_wire: Callable[[Mapping[str, Any]], Any]
    command_to_wire: Callable[[Any], dict[str, Any]]
    status: Callable[[Any], TableStatus]
    #: Where the game stands, in the players' words (kept with each log entry).
    where: Callable[[Any], str]
    #: The earliest moment the server must look at the game (None: nothing pending).
    due: Callable[[Any], int | None]
    #: What the server decides by itself at `now_ms` (None: nothing).
    tick: Callable[[Any, int], Tick | None]
    #: A die the rules ask the server to roll now, as a command (None: none).
    roll: Callable[[Any, random.Random], Any]
    #: After this commit nothing earlier is replayed (offline merges start after it).
    decides: Callable[[str, Any], bool]
    write: Callable[[Any], dict[str, Any]]
    read: Callable[[dict[str, Any]], Any]
    #: The game with the players' names as the EO corrected them.
    renamed: Callable[[Any, tuple[str, str]], Any]
    #: The setup columns a table is stored with, and the setup read back from them.
    record: Callable[[Any], dict[str, Any]]
    setup_of: Callable[[Mapping[str, Any]], Any]
    #: A clock or timer the server must watch is running.
    pending: Callable[[Any], bool]
    #: The game is over (a quick game then leaves memory once nobody has it open).
    over: Callable[[Any], bool]
    #: The setup of a quick game (no event) from what the players asked for.
    quick_setup: Callable[[Any, random.Random], Any]
    #: What a table's links say of it: format, format_name, scenario, player_clock_ms,
    #: and the seat whose player goes first (None: not decided yet).
    summary: Callable[[Any], dict[str, Any]]
    #: A command the EO sends one table by itself (REST), from its wire form; one the
    #: engine's tables do not take is refused with the reason.
    eo_command: Callable[[Mapping[str, Any]], Any]
    #: What the EO sees of one table to settle it (table id, game, now_ms).
    detail: Callable[[str, Any, int], dict[str, Any]]
    #: One dashboard row (table id, table number, game, status, now_ms): the table live.
    board: Callable[[str, int, Any, str, int], dict[str, Any]] = table_summary
    #: The page a phone opens the table with.
    page: str = "table.html"
    #: Whether a phone may queue this engine's commands offline and merge them later.
    offline: bool = True
    #: The side a seat's link plays (a pre-game may have made the second seat P1).
    side_of: Callable[[Any, Side], Side] = lambda _game, seat: seat
    #: The links whose screens need the whole table again after a command.
    to_refresh: Callable[[Any, Any, Actor], tuple[str, ...]] = lambda _b, _a, _actor: ()
    #: A seat's view of the game: what only that side may see added (its secret choices).
    own_view: Callable[[Any, Side, dict[str, Any]], dict[str, Any]] = lambda _g, _s, view: view
    #: What a server roll did, in words, for the log (before, after).
    roll_words: Callable[[Any, Any], dict[str, Any]] = lambda _before, _after: {}
    #: The command that opens a quick game's pre-game on the phones (None: the engine's
    #: tables settle who goes first at the table, in their own first steps).
    pregame: Any = None


def _wm_tick(game: warmachine.Game, now_ms: int) -> Tick | None:
    """What time decided first, at its exact moment: a flag, (DC10) the round clock's end
    (dice down), or an undo request that lapsed unanswered. Anything due after it is the
    next tick's (or the next command's), at its own moment."""
    due_at = warmachine.time_due_at(game)
    if due_at is None or due_at > now_ms:
        return None
    decided = warmachine.decide_time(game, due_at)
    if decided is game:
        return None
    wire = codec.command_to_wire(c.FlagCheck())
    outcome = decided.undo_outcome
    if outcome is not game.undo_outcome and outcome is not None:
        wire["undo"] = outcome.end.value  # the request lapsed, or the flag overtook it
    if decided.ending is not None and game.ending is None and decided.timer is not None:
        wire["dice_down"] = True  # DC10: the round clock ran out, not a player's
    return decided, wire, due_at


def _wm_due(game: warmachine.Game) -> int | None:
    """The earliest moment the server must look: a clock's possible flag, or the moment an
    undo request lapses unanswered."""
    moments = [at for at in (flag_bound(game), lapses_at(game)) if at is not None]
    return min(moments, default=None)


def _wm_decides(actor: str, game: warmachine.Game) -> bool:
    """A decision no offline merge replays before; not an undo request's lapse, which time
    alone decides again in a merge (a tap a phone queued before it overtakes it)."""
    lapsed = game.undo_outcome is not None and game.undo_outcome.end in _LAPSES
    if actor == "system" and lapsed and game.phase in _PLAYING:
        return False
    return decides(actor, game)


_LAPSES = (warmachine.UndoEnd.LAPSED, warmachine.UndoEnd.UNSEEN)
_PLAYING = (
    warmachine.Phase.PRE_DEPLOYMENT,
    warmachine.Phase.DEPLOYMENT,
    warmachine.Phase.ADVANCE_DEPLOYMENT,
    warmachine.Phase.TURN,
)


def _wm_roll(game: warmachine.Game, dice: random.Random) -> c.Command | None:
    if game.roll_due and game.phase is not warmachine.Phase.OVER:
        return c.ScenarioRoll(dice.randint(1, game.roll_due))
    return None


def _wm_roll_words(before: warmachine.Game, after: warmachine.Game) -> dict[str, Any]:
    gone = sorted(after.removed - before.removed)
    names = [e.name for e in after.scenario.elements if e.id in gone]
    return {"removed": ", ".join(names)} if names else {}


def _wm_own_view(game: warmachine.Game, side: Side, view: dict[str, Any]) -> dict[str, Any]:
    if view.get("pregame") is not None:
        view["pregame"]["mine"] = own_choices(game, side)
    return view


def _wm_record(setup: warmachine.Setup) -> dict[str, Any]:
    return {
        "format_id": setup.format_id,
        "scenario_id": setup.scenario_id,
        "player_clock_ms": setup.player_clock_ms,
        "army_points": setup.army_points,
        "p1_name": setup.names[0],
        "p2_name": setup.names[1],
        "variants": ",".join(setup.variants),
    }


def _wm_setup(row: Mapping[str, Any]) -> warmachine.Setup:
    return warmachine.Setup(
        format_id=row["format_id"],
        scenario_id=row["scenario_id"],
        player_clock_ms=row["player_clock_ms"],
        army_points=row["army_points"],
        names=(row["p1_name"], row["p2_name"]),
        variants=tuple(v for v in (row.get("variants") or "").split(",") if v),
    )


def _renamed(game: Any, names: tuple[str, str]) -> Any:
    return replace(game, setup=replace(game.setup, names=names))


WARMACHINE = Engine(
    name="warmachine",
    new_game=lambda setup, now, _dice: warmachine.new_game(setup, now),
    # The game's rules, and the notes of time an offline merge moved (`time_moved`).
    apply=time_moved.apply,
    replay=lambda game, actor, command, now: time_moved.apply(
        game, actor, command, now, logged=True
    ),
    view=game_view,
    info=table_info,
    command_from_wire=codec.table_command_from_wire,
    command_to_wire=codec.command_to_wire,
    status=table_status,
    where=warmachine.slot,
    due=_wm_due,
    tick=_wm_tick,
    roll=_wm_roll,
    roll_words=_wm_roll_words,
    side_of=side_for,
    to_refresh=screens_to_refresh,
    own_view=_wm_own_view,
    pregame=c.OpenPregame(),
    decides=_wm_decides,
    write=snapshot.write,
    read=snapshot.read,
    renamed=_renamed,
    record=_wm_record,
    setup_of=_wm_setup,
    pending=lambda game: warmachine.time_due_at(game) is not None,
    over=lambda game: game.phase is warmachine.Phase.OVER,
    quick_setup=lambda quick, rng: quick.setup(rng),
    eo_command=eo_table.eo_command,
    detail=eo_table.detail,
    summary=lambda game: {
        "format": game.setup.format_id,
        "format_name": game.format.name,
        "scenario": game.scenario.name,
        "player_clock_ms": game.setup.player_clock_ms,
        "first": seating.first_seat(game),
    },
)

RUNEWARS = Engine(
    name="runewars",
    new_game=runewars_table.new_game,
    apply=runewars_table.apply,
    replay=runewars_table.replay,
    view=runewars_table.view,
    info=runewars_table.info,
    command_from_wire=runewars_codec.command_from_wire,
    command_to_wire=runewars_codec.command_to_wire,
    status=runewars_table.status,
    where=runewars_table.where,
    due=runewars_table.due,
    tick=runewars_table.tick,
    roll=lambda _game, _dice: None,
    decides=runewars_table.decides,
    write=runewars_table.write,
    read=runewars_table.read,
    renamed=_renamed,
    record=runewars_table.record,
    setup_of=runewars_table.setup_of,
    pending=lambda game: runewars_table.due(game) is not None,
    over=runewars_table.over,
    quick_setup=runewars_table.quick_setup,
    eo_command=runewars_table.eo_command,
    detail=runewars_table.detail,
    summary=runewars_table.summary,
    board=runewars_table.board,
    page="runewars_table.html",
    offline=False,
)

ENGINES: Mapping[str, Engine] = {"warmachine": WARMACHINE, "runewars": RUNEWARS}


def engine_for(format_id: str) -> Engine:
    """The engine a format's tables run on (BadInput for an unknown format)."""
    return ENGINES[engine_name(format_id)]
