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
from app.domain.errors import RuleError, StaleCommand
from app.domain.game import Game, apply, decide_flag


class MergeRefused(RuleError):
    code = "merge_refused"


@dataclass(frozen=True, slots=True)
class Timed:
    """A command with the server time it happened at, and who sent it."""

    at_ms: int
    actor: c.Actor
    command: c.Command
    device: str = ""
    seq: int = 0
    offline: bool = False


def merge(
    base: Game, entries: Sequence[Timed], now_ms: int
) -> tuple[Game, list[Timed], list[Timed]]:
    """Play `entries` in time order from `base`: the game, what applied, what did nothing.

    Offline taps that did nothing are kept: the other phone's queue, merged later,
    may come before them and make them count after all.
    """
    game = base
    applied: list[Timed] = []
    dropped: list[Timed] = []
    for entry in sorted(entries, key=lambda e: e.at_ms):
        at_ms = max(entry.at_ms, game.clock.since_ms)
        try:
            game = apply(game, entry.actor, entry.command, at_ms)
        except StaleCommand:
            if entry.offline and isinstance(entry.command, c.PassTurn | c.SwitchClock):
                dropped.append(entry)
                continue
            raise MergeRefused(
                f"the phones disagree about whose clock ran at {_clock_time(base, at_ms)}: "
                "the EO decides"
            ) from None
        except RuleError as exc:
            raise MergeRefused(
                f"the offline {_name(entry.command)} at {_clock_time(base, at_ms)} no longer "
                f"fits the game ({exc.message}); the EO decides"
            ) from None
        applied.append(
            Timed(at_ms, entry.actor, entry.command, entry.device, entry.seq, entry.offline)
        )
    return decide_flag(game, max(now_ms, game.clock.since_ms)), applied, dropped


def _name(command: c.Command) -> str:
    return type(command).__name__


def _clock_time(base: Game, at_ms: int) -> str:
    seconds = max(0, at_ms - base.clock.since_ms) // 1000
    return f"+{seconds // 60}:{seconds % 60:02d} after the last shared state"
