"""A table's result as the event counts it: the players' confirmed one or the EO's
entry (with its correction, TS9), read from the table's game, whose log is the one
record of both. Typed through the service; its JSON form exists only at the API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.game import Game, Result
from app.domain.result import settled_result

By = Literal["players", "eo"]


@dataclass(frozen=True, slots=True)
class Correction:
    """TS9: the EO moved a settled result, saying why; `before` is what it replaced."""

    reason: str
    at_ms: int
    before: TableResult
    round_closed: bool


@dataclass(frozen=True, slots=True)
class TableResult:
    winner: Side | None  # None: a tie
    control_points: tuple[int, int]
    army_points_destroyed: tuple[int, int]
    lists: tuple[str, str] = ("", "")
    method: str = "eo"
    by: By = "eo"
    correction: Correction | None = None

    def outcome_for(self, side: Side) -> str:
        """A seat's outcome: "win", "loss" or "tie"."""
        if self.winner is None:
            return "tie"
        return "win" if self.winner is side else "loss"

    def plain(self) -> TableResult:
        """The result without its correction (what a later correction keeps as `before`)."""
        return replace(self, correction=None)

    # -- JSON, at the edges ---------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The API's form: winner "p1"/"p2"/null, [P1, P2] pairs, "by", "correction"."""
        out: dict[str, Any] = {
            "winner": None if self.winner is None else self.winner.name.lower(),
            "method": self.method,
            "lists": list(self.lists),
            "control_points": list(self.control_points),
            "army_points_destroyed": list(self.army_points_destroyed),
            "by": self.by,
        }
        if self.correction is not None:
            out["correction"] = {
                "reason": self.correction.reason,
                "at_ms": self.correction.at_ms,
                "before": self.correction.before.as_json(),
                "round_closed": self.correction.round_closed,
            }
        return out

    @classmethod
    def from_wire(cls, body: Mapping[str, Any]) -> TableResult:
        """The EO's result as sent, checked: winner "p1", "p2" or null, two pairs."""
        winner = body.get("winner")
        if winner not in ("p1", "p2", None):
            raise BadInput("winner must be 'p1', 'p2' or null for a tie")
        pairs = []
        for key in ("control_points", "army_points_destroyed"):
            value = body.get(key)
            if (
                not isinstance(value, list)
                or len(value) != 2
                or not all(isinstance(v, int) and 0 <= v <= 10_000 for v in value)
            ):
                raise BadInput(f"{key} must be two whole numbers from 0, [P1, P2]")
            pairs.append((value[0], value[1]))
        lists = ([str(x)[:200] for x in (body.get("lists") or [])] + ["", ""])[:2]
        return cls(
            winner=None if winner is None else Side.parse(winner),
            control_points=pairs[0],
            army_points_destroyed=pairs[1],
            lists=(lists[0], lists[1]),
            method=str(body.get("method") or "eo"),
        )


def seats_swapped(game: Game) -> bool:
    """The pre-game made the second seat's player P1 (they go first)."""
    return game.pregame is not None and game.pregame.swapped


def by_seat(result: TableResult, swapped: bool) -> TableResult:
    """A result between a table's sides (P1 goes first) and its seats (the pairing's
    first and second player): the same when the seats were not swapped."""
    if not swapped:
        return result
    return replace(
        result,
        winner=None if result.winner is None else result.winner.other,
        control_points=result.control_points[::-1],
        army_points_destroyed=result.army_points_destroyed[::-1],
        lists=result.lists[::-1],
    )


def _from_domain(result: Result, by: By, correction: Correction | None = None) -> TableResult:
    return TableResult(
        winner=result.winner,
        control_points=result.control_points,
        army_points_destroyed=result.army_points_destroyed,
        lists=result.lists,
        method=result.method.value,
        by=by,
        correction=correction,
    )


def recorded_result(game: Game) -> TableResult | None:
    """The table's result as the event counts it, from the table's own log (its one
    source): the EO's entry, else the players' once both confirmed it and nobody
    disputes it; by seat (the pairing's first player first, whoever went first)."""
    result = settled_result(game)
    if result is None:
        return None
    swapped = seats_swapped(game)
    if game.recorded is None:
        return by_seat(_from_domain(result, "players"), swapped)
    correction = None
    moved = game.correction
    if moved is not None:
        before = _from_domain(moved.before, "eo" if moved.before_by_eo else "players")
        correction = Correction(
            moved.reason, moved.at_ms, by_seat(before, swapped), moved.round_closed
        )
    return by_seat(_from_domain(result, "eo", correction), swapped)
