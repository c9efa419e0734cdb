"""The door every table engine a room hosts stands behind: `new_game`,
`apply(game, actor, command, now_ms)`, `view(game, now_ms)`, its command codec, and the
few things the room asks of a game (its status, where it stands, when the server must
look at it next, what the server decides then, its snapshot). A format names its engine
(`app.tables.engines`); the room asks the engine, never the format."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.domain.clock import Side
from app.domain.commands import Actor
from app.domain.frozen import replace
from app.domain.status import TableStatus


@dataclass(frozen=True, slots=True)
class SeatNews:
    """What a seat's player is told of their game on their own page: the game ended,
    the opponent reported and waits for their report, the result the EO entered or
    corrected (in words, with the EO's reason)."""

    ended: bool = False
    report_awaited: bool = False
    eo_result: str = ""  # the EO's result in words ("": the EO entered none)
    eo_reason: str = ""
    eo_corrected: bool = False  # the EO moved a result that stood


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
    board: Callable[[str, int, Any, str, int], dict[str, Any]]
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
    #: What a seat's player is told of the game on their own page (engines without
    #: reports or EO results: nothing).
    seat_news: Callable[[Any, Side], SeatNews] = lambda _game, _seat: SeatNews()
    #: The warnings for pausing the clock each side was given (P1's, P2's) and how many
    #: lose the game (None: the engine's tables have no such rule, or the format not).
    pause_warnings: Callable[[Any], tuple[tuple[int, int], int] | None] = lambda _game: None
    #: The command that opens a quick game's pre-game on the phones (None: the engine's
    #: tables settle who goes first at the table, in their own first steps).
    pregame: Any = None


def renamed(game: Any, names: tuple[str, str]) -> Any:
    """The game with the players' names as the EO corrected them (any engine's setup)."""
    return replace(game, setup=replace(game.setup, names=names))
