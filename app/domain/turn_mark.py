"""A player's turn, as the rules name one: "the end of P2's turn 2", "from P1's turn 2"."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.clock import Side


@dataclass(frozen=True, slots=True)
class TurnMark:
    """A player's turn: (turn number, side). Ordered as played."""

    turn: int
    side: Side

    @property
    def order(self) -> int:
        return self.turn * 2 + int(self.side)

    def reached_by(self, turn: int, side: Side) -> bool:
        return turn * 2 + int(side) >= self.order
