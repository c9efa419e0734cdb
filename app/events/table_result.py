"""A table's result as the event counts it: the players' confirmed one or the EO's
entry (with its correction, TS9). Typed through the service; its JSON form exists
only at the edges (the store's row, the API's body)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.game import Game

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
        out = self.stored_json()
        out["by"] = self.by
        return out

    def stored_json(self) -> dict[str, Any]:
        """The store's form (the EO's row): as the API's, less "by"."""
        out: dict[str, Any] = {
            "winner": None if self.winner is None else self.winner.name.lower(),
            "method": self.method,
            "lists": list(self.lists),
            "control_points": list(self.control_points),
            "army_points_destroyed": list(self.army_points_destroyed),
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
    def from_json(cls, data: Mapping[str, Any], by: By = "eo") -> TableResult:
        """A result as stored (checked when it was written)."""
        lists = [str(x) for x in (data.get("lists") or [])] + ["", ""]
        cp, apd = data["control_points"], data["army_points_destroyed"]
        found = data.get("correction")
        correction = None
        if isinstance(found, Mapping):
            before = found["before"]
            correction = Correction(
                reason=str(found.get("reason", "")),
                at_ms=int(found.get("at_ms", 0)),
                before=cls.from_json(before, "players" if before.get("by") == "players" else "eo"),
                round_closed=bool(found.get("round_closed")),
            )
        winner = data.get("winner")
        return cls(
            winner=None if winner is None else Side.parse(winner),
            control_points=(int(cp[0]), int(cp[1])),
            army_points_destroyed=(int(apd[0]), int(apd[1])),
            lists=(lists[0], lists[1]),
            method=str(data.get("method") or "eo"),
            by=by,
            correction=correction,
        )

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


def players_result(game: Game) -> TableResult | None:
    """The table's own result, once both players confirmed it and nobody disputes it,
    by seat (the pairing's first player first, whoever went first)."""
    result = game.result()
    if result is None or not all(game.confirmed) or game.disputed is not None:
        return None
    played = TableResult(
        winner=result.winner,
        control_points=result.control_points,
        army_points_destroyed=result.army_points_destroyed,
        lists=result.lists,
        method=result.method.value,
        by="players",
    )
    return by_seat(played, seats_swapped(game))
