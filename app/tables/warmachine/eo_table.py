"""What the EO asks of one Warmachine table by itself: the commands the EO sends it
over REST (pause, resume, adjust the clock, call a tie, start, dice down) and what the
EO sees of it to settle it (its dispute and both players' reports). Each engine says
its own (see `app.tables.engines`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side, each
from app.domain.errors import NotFound
from app.domain.game import Game
from app.domain.method import Method
from app.domain.result import conceded_scores
from app.domain.time_moved_rules import SettleTimeMoved
from app.tables.warmachine import seating, time_moved
from app.tables.warmachine.codec import TableCommand, table_command_from_wire
from app.tables.warmachine.view import disputed_words, report_json, side_name

#: The commands the EO sends one Warmachine table by itself.
EO_COMMANDS = (
    c.PauseClock,
    c.ResumeClock,
    c.AdjustClock,
    c.CallTie,
    c.StartClock,
    c.DiceDown,
    SettleTimeMoved,
)


def eo_command(raw: Mapping[str, Any]) -> TableCommand:
    command = table_command_from_wire(raw)
    if not isinstance(command, EO_COMMANDS):
        raise NotFound(
            "here the organiser can pause or resume the clocks, change a clock's time, call "
            "a tie, start the clocks, call dice down or settle time moved onto a player"
        )
    return command


def detail(table_id: str, game: Game, _now_ms: int) -> dict[str, Any]:
    """A table's dispute and both players' reports, as the EO needs them, in seat order
    (the pairing's first player's, then the second's) whoever went first; `prefill`: the
    result the table's reports and ending make (the EO's editor opens with it)."""
    ending = game.ending
    first = seating.first_seat(game)
    result = game.result()  # its CP once there is one, as the phones show (TS8)
    cp = game.control_points if result is None else result.control_points
    return {
        "id": table_id,
        "names": list(game.setup.names),
        "first": side_name(first),
        "player_clock_ms": game.setup.player_clock_ms,
        "disputed": disputed_words(game),
        "control_points": list(seating.in_seat_order(game, cp)),
        "ending": None
        if ending is None
        else {
            "method": ending.method.value,
            "winner": _seat_name(game, ending.winner),
        },
        "reports": [report_json(r) for r in seating.in_seat_order(game, game.reports)],
        "confirmed": list(seating.in_seat_order(game, game.confirmed)),
        "prefill": _prefill(game),
        # Time offline merges moved onto a player whose phone stayed online, in words.
        "time_moved": time_moved.eo_view(game),
    }


def _seat_name(game: Game, side: Side | None) -> str | None:
    return None if side is None else side_name(seating.seat_of(game, side))


def _prefill(game: Game) -> dict[str, Any] | None:
    """The result as both players' reports and the game's ending make it, in seat order,
    for the EO to check: its winner (the tiebreakers' once reported), CP as the table
    scored them, each player's reported APD and list (else the list chosen at the table)."""
    ending = game.ending
    if ending is None:
        return None
    result = game.result()
    winner = ending.winner if result is None else result.winner
    reports = game.reports
    lists = each(reports, lambda r: r.list_played if r else "")
    if game.pregame is not None:
        chosen = game.pregame.in_play_order(game.pregame.lists)
        lists = (lists[0] or chosen[0] or "", lists[1] or chosen[1] or "")
    apd = each(reports, lambda r: r.army_points_destroyed if r else 0)
    cp = game.control_points
    if ending.method is Method.CONCESSION and winner is not None:  # TS8, as the phones show
        cp, apd = conceded_scores(game, winner, cp, apd)
    return {
        "winner": _seat_name(game, winner),
        "method": ending.method.value,
        "control_points": list(seating.in_seat_order(game, cp)),
        "army_points_destroyed": list(seating.in_seat_order(game, apd)),
        "lists": list(seating.in_seat_order(game, lists)),
    }
