"""What only the EO does at a table: pause, resume and adjust the clock (DC5), a
warning for pausing (DC5, IG2014), the round-end tie (DC8), a result entered or
corrected (TS9); and the server's die for a scenario's special rule. That only the EO
(or the server) sends these is `who_may_act`'s table."""

from __future__ import annotations

from app.domain import commands as c
from app.domain.clock import put
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.result import Correction, Result, settled_result
from app.domain.state import (
    Game,
    Method,
    Phase,
    end_game,
    in_play,
    seat_of,
)


def call_tie(game: Game, _actor: c.Actor, now_ms: int) -> Game:
    """DC8: declared a tie at the round's end time; CP stand as they are."""
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    if game.phase is Phase.CLOCK_OUT:
        raise RuleError("a clock has run out: the clock decides this game, not a tie")
    return end_game(game, Method.TIME, None, now_ms)


def _entered(game: Game, command: c.RecordResult) -> Result:
    """The result the EO's entry makes: the lists as entered, else as the players
    reported them, else as chosen at the table."""
    reported = tuple(r.list_played if r else "" for r in game.reports)
    if game.pregame is not None:  # the lists chosen at the table
        chosen = game.pregame.in_play_order(game.pregame.lists)
        reported = (reported[0] or chosen[0] or "", reported[1] or chosen[1] or "")
    lists = command.lists or reported
    return Result(
        winner=command.winner,
        method=command.method,
        control_points=command.control_points,
        army_points_destroyed=command.army_points_destroyed,
        lists=(lists[0], lists[1]),
    )


class AlreadySo(RuleError):
    """TS9: the EO's result is the table's settled result already (`already_so`)."""

    code = "unchanged"


def already_so(game: Game, command: c.RecordResult) -> bool:
    """TS9: the settled result is this very entry already: the EO's reply was lost and
    they sent it again, or a second EO device sent the same. It changes nothing (its
    reason too: the correction keeps the one it was made with)."""
    before = settled_result(game)
    if before is None:
        return False
    return replace(_entered(game, command), specialists=before.specialists) == before


def record(game: Game, _actor: c.Actor, command: c.RecordResult, now_ms: int) -> Game:
    """The EO's result ends a game still in play (its clock stops) and stands as confirmed.

    TS9: a settled result (both players confirmed it, or the EO entered it) moves only
    with the reason, kept with what it replaced; the same entry again leaves it as it is
    (`already_so`), so what a correction replaced is never lost to a repeat.
    """
    if any(not 0 <= v <= 10_000 for v in (*command.control_points, *command.army_points_destroyed)):
        raise BadInput("control points and army points are whole numbers from 0 to 10000")
    if any(len(name) > 200 for name in command.lists or ()):
        raise BadInput("a list name is too long (200 characters at most)")
    if already_so(game, command):
        return game
    before = settled_result(game)
    reason = command.reason.strip()[:300]
    if before is not None and not reason:
        raise BadInput("this result is settled: give the reason for the correction")
    ended = game
    if game.phase is not Phase.OVER:
        ended = end_game(game, Method.EO, command.winner, now_ms)
    correction = game.correction
    if before is not None:
        correction = Correction(
            reason, now_ms, before, command.round_closed, game.recorded is not None
        )
    return replace(
        ended,
        recorded=_entered(game, command),
        correction=correction,
        eo_reason=reason,
        final_scoring_due=False,
        final_kill_box=None,
        confirmed=(True, True),
        disputed=None,
        claim=None,
        undo=None,
    )


def pause(game: Game, _actor: c.Actor, now_ms: int) -> Game:
    in_play(game)
    return replace(
        game,
        paused=True,
        paused_by_eo=True,
        paused_side=game.clock.running,
        clock=game.clock.run(None, now_ms),
        undo=None,
    )


def resume(game: Game, _actor: c.Actor, now_ms: int) -> Game:
    if not game.paused:
        raise RuleError("the clock is not paused")
    return replace(
        game, paused=False, paused_side=None, clock=game.clock.run(game.paused_side, now_ms)
    )


def adjust(game: Game, _actor: c.Actor, cmd: c.AdjustClock, now_ms: int) -> Game:
    if game.phase in (Phase.OVER, Phase.CLOCK_OUT):
        raise RuleError("the game is over; correct the result instead")
    limit = game.setup.player_clock_ms
    if not 0 <= cmd.remaining_ms <= limit:
        minutes, seconds = divmod(limit // 1000, 60)
        raise BadInput(
            f"a clock can be set from 0:00 to {minutes}:{seconds:02d}, "
            "the player clock of this game"
        )
    return replace(game, clock=game.clock.adjust(cmd.side, cmd.remaining_ms, now_ms), undo=None)


def _warnings_lose(game: Game) -> int:
    lose = game.format.pause_warnings_lose
    if lose is None:
        raise RuleError(
            f"{game.format.name} has no warnings for pausing: only the EO pauses the clock"
        )
    return lose


def report_pause(game: Game, actor: c.Actor) -> Game:
    """DC5 (IG2014): a player reports that the opponent paused the clock; the EO decides."""
    seat = seat_of(actor)
    _warnings_lose(game)
    in_play(game)
    return replace(game, pause_reported=seat.other)


def warn_for_pausing(game: Game, _actor: c.Actor, cmd: c.WarnForPausing, now_ms: int) -> Game:
    """DC5 (IG2014): a player who pauses the clock receives one warning; upon a second
    infraction they lose the game."""
    lose = _warnings_lose(game)
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    warnings = put(game.pause_warnings, cmd.side, game.pause_warnings[cmd.side] + 1)
    warned = replace(game, pause_warnings=warnings, pause_reported=None)
    if warnings[cmd.side] < lose:
        return warned
    return end_game(replace(warned, flagged=None), Method.PAUSING, cmd.side.other, now_ms)


def offer_lists(game: Game, _actor: c.Actor, cmd: c.OfferLists) -> Game:
    """The event names the lists each player may play this game, before it ends."""
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    if any(len(choices) > 8 or any(len(n) > 200 for n in choices) for choices in (cmd.p1, cmd.p2)):
        raise BadInput("at most 8 lists a player, 200 characters each")
    return replace(game, list_choices=(cmd.p1, cmd.p2))


def scenario_roll(game: Game, _actor: c.Actor, cmd: c.ScenarioRoll) -> Game:
    """The server rolls the die a scenario's special rule asks for; nobody else does."""
    if game.roll_due == 0:
        raise RuleError("no roll is due")
    if not 1 <= cmd.value <= game.roll_due:
        raise BadInput(f"a roll of {cmd.value} on a d{game.roll_due}")
    rolled = game.scenario.on_roll
    if rolled is None:
        raise RuleError(f"{game.scenario.name} has nothing to roll for")
    return replace(rolled(game, cmd.value), roll_due=0)
