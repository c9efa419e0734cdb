"""Building games and playing them to a given turn, with explicit server times."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.game import Game, Phase, Setup, apply, new_game

P1, P2 = Side.P1, Side.P2
EO = c.Role.EO
SYSTEM = c.Role.SYSTEM

MINUTE = 60_000
STEP = 1_000  # default time between two commands


def setup(
    scenario_id: str = "king-of-the-hill",
    *,
    format_id: str = "sr2019",
    player_clock_ms: int = 60 * MINUTE,
    army_points: int = 75,
) -> Setup:
    return Setup(
        format_id=format_id,
        scenario_id=scenario_id,
        player_clock_ms=player_clock_ms,
        army_points=army_points,
    )


def scoring(
    control: dict[str, Side] | None = None, destroyed: set[str] | frozenset[str] = frozenset()
) -> c.Scoring:
    return c.Scoring(control=MappingProxyType(dict(control or {})), destroyed=frozenset(destroyed))


def default_turn_end(game: Game) -> c.TurnEnd | None:
    """What a quiet table answers: caster not in the kill box, nothing controlled."""
    if game.phase is not Phase.TURN:
        return None
    return c.TurnEnd(
        kill_box=False if game.kill_box_due else None,
        scoring=scoring() if game.scoring_due else None,
    )


@dataclass
class Table:
    """A game plus the server time of its last command (a fake clock, never slept)."""

    game: Game
    now: int = 0

    @classmethod
    def new(
        cls,
        scenario_id: str = "king-of-the-hill",
        *,
        at: int = 0,
        format_id: str = "sr2019",
        player_clock_ms: int = 60 * MINUTE,
        army_points: int = 75,
    ) -> Table:
        chosen = setup(
            scenario_id,
            format_id=format_id,
            player_clock_ms=player_clock_ms,
            army_points=army_points,
        )
        return cls(new_game(chosen, at), at)

    def at(self, now: int) -> Table:
        assert now >= self.now, "tests move time forward only"
        self.now = now
        return self

    def wait(self, ms: int) -> Table:
        return self.at(self.now + ms)

    def do(self, actor: c.Actor, command: c.Command, *, after: int = STEP) -> Game:
        """Apply `command` `after` ms after the previous one; keep the new game."""
        self.now += after
        self.game = apply(self.game, actor, command, self.now)
        return self.game

    def try_do(self, actor: c.Actor, command: c.Command, *, after: int = STEP) -> Game:
        """Apply without keeping the result (for commands expected to be refused)."""
        return apply(self.game, actor, command, self.now + after)

    def start(self, *, after: int = STEP) -> Game:
        return self.do(P1, c.StartClock(), after=after)

    def tap(
        self,
        *,
        kill_box: bool | None = None,
        score: c.Scoring | None = None,
        after: int = STEP,
        by: Side | None = None,
    ) -> Game:
        """The active player ends their deployment step or turn."""
        game = self.game
        turn_end = default_turn_end(game)
        if turn_end is not None:
            turn_end = c.TurnEnd(
                kill_box=turn_end.kill_box if kill_box is None else kill_box,
                scoring=turn_end.scoring if score is None else score,
            )
        return self.do(
            by or game.active, c.PassTurn(expect=game.active, turn_end=turn_end), after=after
        )

    def play_to(self, turn: int, side: Side, *, step: int = STEP) -> Game:
        """Start if needed and tap quietly until it is `side`'s turn `turn`."""
        if self.game.phase is Phase.READY:
            self.start(after=step)
        while self.game.phase is not Phase.TURN or (self.game.turn, self.game.active) != (
            turn,
            side,
        ):
            assert self.game.phase in (
                Phase.PRE_DEPLOYMENT,
                Phase.DEPLOYMENT,
                Phase.ADVANCE_DEPLOYMENT,
                Phase.TURN,
            )
            assert (self.game.turn, int(self.game.active)) < (turn, int(side)), "already past"
            self.tap(after=step)
        return self.game


def table_at(
    turn: int,
    side: Side,
    scenario_id: str = "king-of-the-hill",
    *,
    step: int = STEP,
    player_clock_ms: int = 60 * MINUTE,
    army_points: int = 75,
) -> Table:
    table = Table.new(scenario_id, player_clock_ms=player_clock_ms, army_points=army_points)
    table.play_to(turn, side, step=step)
    return table
