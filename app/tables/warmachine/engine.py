"""The WARMACHINE & HORDES engine a room hosts: the game's rules with the notes of time an
offline merge moved, its codec, its views, and what the server decides at a due moment."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.domain import commands as c
from app.domain import game as warmachine
from app.domain.clock import Side
from app.domain.game import Phase
from app.domain.result import reports_needed
from app.domain.status import table_status
from app.domain.undo import lapses_at
from app.tables import snapshot
from app.tables.engine import Engine, SeatNews, Tick, renamed
from app.tables.flag_timer import flag_bound
from app.tables.warmachine import codec, eo_table, seating, time_moved
from app.tables.warmachine.outcome import outcome_words
from app.tables.warmachine.pregame_view import own_choices, screens_to_refresh, side_for
from app.tables.warmachine.view import game_view, table_info, table_summary


def decides(actor: str, game: warmachine.Game) -> bool:
    """A commit after which nothing earlier is replayed: the server's or the EO's
    decision, or anything once the game is over (a merge never reorders commands
    before them)."""
    return actor in ("eo", "system") or game.phase in (Phase.OVER, Phase.CLOCK_OUT)


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


def _wm_pause_warnings(game: warmachine.Game) -> tuple[tuple[int, int], int] | None:
    """DC5 (IG2014): the warnings for pausing by side, and the count that loses."""
    lose = game.format.pause_warnings_lose
    return None if lose is None else (game.pause_warnings, lose)


def _wm_seat_news(game: warmachine.Game, seat: Side) -> SeatNews:
    """What the seat's player is told: the opponent reported and waits for their report;
    the result the EO entered or corrected, by the winner's name, with the reason."""
    side = side_for(game, seat)
    needed = reports_needed(game)
    opponent = side.other
    awaited = side in needed and game.reports[opponent] is not None
    recorded = game.recorded
    if recorded is None:
        return SeatNews(ended=game.ending is not None, report_awaited=awaited)
    winner = None if recorded.winner is None else game.names[recorded.winner]
    return SeatNews(
        ended=True,
        eo_result=outcome_words(winner, recorded.method, game.format.tie_word),
        eo_reason=game.eo_reason,
        eo_corrected=game.correction is not None,
    )


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
    seat_news=_wm_seat_news,
    pause_warnings=_wm_pause_warnings,
    pregame=c.OpenPregame(),
    decides=_wm_decides,
    write=snapshot.write,
    read=snapshot.read,
    renamed=renamed,
    record=_wm_record,
    setup_of=_wm_setup,
    pending=lambda game: warmachine.time_due_at(game) is not None,
    over=lambda game: game.phase is warmachine.Phase.OVER,
    quick_setup=lambda quick, rng: quick.setup(rng),
    eo_command=eo_table.eo_command,
    detail=eo_table.detail,
    board=table_summary,
    summary=lambda game: {
        "format": game.setup.format_id,
        "format_name": game.format.name,
        "scenario": game.scenario.name,
        "player_clock_ms": game.setup.player_clock_ms,
        "first": seating.first_seat(game),
    },
)
