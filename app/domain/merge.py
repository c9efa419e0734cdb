"""Merging what phones did while the venue network was down.

Both phones keep taking taps offline, stamped with their estimate of the server's
time. On reconnect their queued commands and whatever the server accepted in the
meantime are played again, in time order, from the last state both sides share:
the clock then runs as a physical chess clock would have. A tap on a clock that
was no longer running (both players pressed for the same turn) does nothing, as
on a physical clock; anything else that no longer fits refuses the whole merge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.domain import commands as c
from app.domain.errors import NotYourSeat, RuleError, StaleCommand
from app.domain.game import Game, Phase, apply, decide_time, slot


class MergeRefused(RuleError):
    """The phones disagree: the queue does not fit what the table took meanwhile (the
    EO decides). `alone`: the same refusal in words for the queue played by itself."""

    code = "merge_refused"

    def __init__(self, message: str, alone: str = "") -> None:
        super().__init__(message)
        self.alone = alone or message


class QueueRefused(RuleError):
    """An offline queue that does not fit even the table as its own phone had it: the
    phone's own doing (a queue no phone makes by itself), refused to that phone alone;
    nothing for the EO to decide."""


@dataclass(frozen=True, slots=True)
class Timed:
    """A command with the server time it happened at, and who sent it."""

    at_ms: int
    actor: c.Actor
    command: c.Command
    device: str = ""
    seq: int = 0
    offline: bool = False
    #: The log version it first entered the table with (a command or a merge).
    src: int = 0
    #: Where the game stood when it applied: "P1's turn 2".
    turn: str = ""
    #: Its place in the queue it came in (commands of one time keep their order).
    i: int = 0


#: What a player's phone may queue while offline: its own seat's commands, nothing of
#: the EO's or the server's.
OFFLINE_COMMANDS = (
    c.StartClock,
    c.PassTurn,
    c.SwitchClock,
    c.ProposeUndo,
    c.AnswerUndo,
    c.CasterDestroyed,
    c.Concede,
    c.ClaimScenario,
    c.AnswerClaim,
    c.AcceptClockLoss,
    c.FinalScoring,
    c.ReportGame,
    c.ConfirmResult,
    c.DisputeResult,
    c.StartTurnTimer,
    c.StopTurnTimer,
    c.TakeExtension,
    c.StartExtension,
    c.NoModelsLeft,
)


def check_offline(command: c.Command) -> None:
    """Refuse, before anything is merged, a queued command no player's phone may send."""
    if not isinstance(command, OFFLINE_COMMANDS):
        raise NotYourSeat(f"a phone cannot queue {_name(command)} offline: only the EO can do that")


def merge(
    base: Game, entries: Sequence[Timed], now_ms: int, *, logged: bool = False
) -> tuple[Game, list[Timed], list[Timed]]:
    """Play `entries` in time order from `base`: the game, what applied, what did nothing.

    Offline taps that did nothing are kept: the other phone's queue, merged later,
    may come before them and make them count after all. `logged`: a merge of the log
    played again (see `apply`).
    """
    game = base
    applied: list[Timed] = []
    dropped: list[Timed] = []
    for entry in sorted(entries, key=lambda e: e.at_ms):
        at_ms = max(entry.at_ms, game.clock.since_ms)
        turn = slot(game)
        try:
            game = apply(game, entry.actor, entry.command, at_ms, logged=logged)
        except RuleError as exc:
            if _does_nothing(decide_time(game, at_ms), entry, exc):  # as `apply` saw it
                dropped.append(entry)
                continue
            what = f"the offline {_name(entry.command)} at {_clock_time(base, at_ms)}"
            alone = f"{what} does not fit the table as this phone had it ({exc.message})"
            if isinstance(exc, StaleCommand):
                raise MergeRefused(
                    f"the phones disagree about whose clock ran at {_clock_time(base, at_ms)}: "
                    "the EO decides",
                    alone,
                ) from None
            raise MergeRefused(
                f"{what} no longer fits the game ({exc.message}); the EO decides", alone
            ) from None
        applied.append(
            Timed(
                at_ms,
                entry.actor,
                entry.command,
                entry.device,
                entry.seq,
                entry.offline,
                entry.src,
                turn,
                entry.i,
            )
        )
    return decide_time(game, max(now_ms, game.clock.since_ms)), applied, dropped


def check_alone(view: Game, entries: Sequence[Timed], now_ms: int) -> None:
    """Raise QueueRefused when a phone's commands (`entries`: its queue, with what it
    merged before since `view`) do not fit even `view`, the table as that phone had it:
    then no other phone's commands made the merge fail, the phone did."""
    try:
        merge(view, entries, now_ms)
    except MergeRefused as exc:
        raise QueueRefused(f"{exc.alone}: nothing was merged, the table stands") from None


def _does_nothing(game: Game, entry: Timed, error: RuleError) -> bool:
    """An offline press on a clock that was not running, paused or stopped: no effect.

    So with the turn timer (DC10): a start on a running timer, a stop on a stopped one,
    a press once the EO paused the table or the game ended (dice down at the round
    time), or a press before the other phone's tap that made it this player's turn. Nor
    does a phone's report that it showed an undo request the merge found gone by then.
    """
    if isinstance(entry.command, c.UndoSeen):
        return True  # the request it reported shown was gone by then: nothing to start
    if not entry.offline:
        return False
    stopped = game.paused or game.phase in (Phase.CLOCK_OUT, Phase.OVER)
    command = entry.command
    if isinstance(command, c.PassTurn | c.SwitchClock):
        return isinstance(error, StaleCommand) or stopped
    if isinstance(command, c.StartTurnTimer | c.StopTurnTimer):
        pressed = game.timer is not None and game.timer.running is isinstance(
            command, c.StartTurnTimer
        )
        return stopped or pressed or isinstance(error, NotYourSeat)
    return False


NAMES = {
    c.PassTurn: "tap",
    c.SwitchClock: "clock switch",
    c.StartClock: "clock start",
    c.Concede: "concession",
    c.CasterDestroyed: "caster destroyed",
    c.ReportGame: "report",
    c.ConfirmResult: "confirmation",
    c.ProposeUndo: "undo",
    c.AnswerUndo: "undo answer",
    c.PauseClock: "pause",
    c.ResumeClock: "resume",
    c.AdjustClock: "clock adjustment",
    c.RecordResult: "result entry",
    c.CallTie: "tie call",
    c.FlagCheck: "flag check",
    c.StartTurnTimer: "turn timer start",
    c.StopTurnTimer: "turn timer stop",
    c.TakeExtension: "turn extension",
    c.StartExtension: "turn extension start",
    c.NoModelsLeft: "no models left",
}


def _name(command: c.Command) -> str:
    return NAMES.get(type(command), "command")


def _clock_time(base: Game, at_ms: int) -> str:
    seconds = max(0, at_ms - base.clock.since_ms) // 1000
    return f"+{seconds // 60}:{seconds % 60:02d} after the last shared state"
