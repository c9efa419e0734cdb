"""Classic Turn Timing (DC10, SR2019's round timing variants): no chess clock, a
round clock for the whole game and a turn timer for each turn.

The active player starts the turn timer once continuous effects are resolved, and may
stop it while the opponent moves, rolls or thinks. Once per game each player may take
one turn extension (events of 50 points or more), which the opponent starts when the
turn time has run out; an extension never runs past the round time. At the round time
the EO calls "dice down" and the game ends, with one last scenario scoring.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.clock import Side, put
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace

MINUTE_MS = 60_000

#: DC10: event point size → (round, turn, extension) minutes; 0 extension: none.
TIMING_TABLE: tuple[tuple[int, int, int, int], ...] = (
    (0, 30, 3, 0),
    (25, 50, 5, 0),
    (50, 70, 7, 5),
    (75, 100, 10, 5),
    (100, 120, 12, 5),
    (150, 150, 15, 5),
    (200, 200, 20, 5),
)


@dataclass(frozen=True, slots=True)
class Timing:
    """A game's time limits (0: none)."""

    round_ms: int
    turn_ms: int
    extension_ms: int


@dataclass(frozen=True, slots=True)
class TimingPolicy:
    """How an event times its games: point sizes up (+) or down (-) the table, whether
    extensions are allowed, or no time limits at all."""

    shift: int = 0
    extensions: bool = True
    untimed: bool = False

    def timing(self, points: int) -> Timing:
        if self.untimed:
            return Timing(0, 0, 0)
        sizes = [row[0] for row in TIMING_TABLE]
        index = max((i for i, size in enumerate(sizes) if size <= points), default=0)
        shifted = index + self.shift
        if not 0 <= shifted < len(TIMING_TABLE):
            way = "higher" if self.shift > 0 else "lower"
            raise BadInput(
                f"Classic Turn Timing has no point size {abs(self.shift)} {way} than "
                f"{sizes[index]} points (sizes: {', '.join(map(str, sizes))})"
            )
        _, round_min, turn_min, extension_min = TIMING_TABLE[shifted]
        # "In events with a point size of 50 or greater" (the table's "–" below it), and a
        # variant's "extension length of an event one point size higher" (or lower) is the
        # shifted row's: Casual Time Limits at 25 points has 50's 5-minute extension.
        allowed = self.extensions
        return Timing(
            round_min * MINUTE_MS, turn_min * MINUTE_MS, extension_min * MINUTE_MS if allowed else 0
        )


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """The round clock and this turn's timer. `left_ms` is the turn time left as of
    `since_ms`; the timer runs from `since_ms` while `running`."""

    timing: Timing
    round_end_ms: int = 0  # 0: the round clock has not started (or no round limit)
    left_ms: int = 0
    running: bool = False
    since_ms: int = 0
    started: bool = False  # started this turn (after continuous effects)
    extensions_taken: tuple[bool, bool] = (False, False)
    extension_due: bool = False  # declared this turn, for the opponent to start
    in_extension: bool = False
    called: bool = False  # dice down was called (or the round clock ran out)
    held: bool = False  # stopped by the EO's pause; runs again when the EO resumes

    @classmethod
    def new(cls, timing: Timing) -> TurnTimer:
        return cls(timing=timing, left_ms=timing.turn_ms)

    @property
    def limited(self) -> bool:
        return self.timing.turn_ms > 0

    def left(self, now_ms: int) -> int:
        """The turn time left at `now_ms` (never past the round's end)."""
        left = self.left_ms - (max(0, now_ms - self.since_ms) if self.running else 0)
        if self.round_end_ms:
            left = min(left, self.round_end_ms - now_ms)
        return max(0, left)

    def round_left(self, now_ms: int) -> int | None:
        return None if not self.round_end_ms else max(0, self.round_end_ms - now_ms)

    def start_round(self, now_ms: int) -> TurnTimer:
        if not self.timing.round_ms:
            return self
        return replace(self, round_end_ms=now_ms + self.timing.round_ms)

    def next_turn(self, now_ms: int) -> TurnTimer:
        """A new turn: its full turn time, waiting for the active player to start it."""
        return replace(
            self,
            left_ms=self.timing.turn_ms,
            running=False,
            since_ms=now_ms,
            started=False,
            extension_due=False,
            in_extension=False,
        )

    def start(self, now_ms: int) -> TurnTimer:
        if self.limited and self.started and self.left(now_ms) == 0:
            if self.extension_due:
                raise RuleError("the turn time is up: the opponent starts the turn extension")
            raise RuleError("the turn time is up: finish the model or roll, then end the turn")
        if self.running:
            raise RuleError("the turn timer is already running")
        return replace(self, running=True, since_ms=now_ms, started=True)

    def stop(self, now_ms: int) -> TurnTimer:
        if not self.running:
            raise RuleError("the turn timer is not running")
        return replace(self, running=False, left_ms=self.left(now_ms), since_ms=now_ms)

    def hold(self, now_ms: int) -> TurnTimer:
        """The EO paused the table: a running timer stops until the EO resumes."""
        return replace(self.stop(now_ms), held=True) if self.running else self

    def release(self, now_ms: int) -> TurnTimer:
        if not self.held:
            return self
        return replace(self, running=True, since_ms=now_ms, held=False)

    def declare_extension(self, side: Side, name: str) -> TurnTimer:
        """`side` takes its one extension; `name`: its player's, for a refusal."""
        if not self.timing.extension_ms:
            raise RuleError("this event has no turn extensions")
        if self.extensions_taken[side]:
            raise RuleError(f"{name} has already taken the one turn extension of this game")
        return replace(
            self, extensions_taken=put(self.extensions_taken, side, True), extension_due=True
        )

    def start_extension(self, now_ms: int) -> TurnTimer:
        if not self.extension_due:
            raise RuleError("no turn extension was declared this turn")
        if self.left(now_ms) > 0:
            raise RuleError("the turn extension starts once the turn time has run out")
        return replace(
            self,
            left_ms=self.timing.extension_ms,
            running=True,
            since_ms=now_ms,
            started=True,
            extension_due=False,
            in_extension=True,
        )

    def dice_down_at(self) -> int | None:
        """The moment the round clock ends the game, if it runs."""
        return self.round_end_ms or None
