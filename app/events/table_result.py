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
from app.domain.method import Method
from app.domain.result import settled_result
from app.tables.warmachine import seating
from app.tables.warmachine.outcome import outcome_words

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
    #: Each player's specialist swap at the table, in words ("": none).
    specialists: tuple[str, str] = ("", "")
    method: str = "eo"
    by: By = "eo"
    correction: Correction | None = None
    reason: str = ""  # why the EO entered it (a correction's reason, or a decision's)

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
        """The API's form, in the pairing's order: winner "p1"/"p2" (the pairing's first
        or second player, whoever went first) or null, pairs [its first's, its second's],
        "by", "reason", "correction"."""
        out: dict[str, Any] = {
            "winner": None if self.winner is None else self.winner.name.lower(),
            "method": self.method,
            "lists": list(self.lists),
            "control_points": list(self.control_points),
            "army_points_destroyed": list(self.army_points_destroyed),
            "by": self.by,
        }
        if any(self.specialists):
            out["specialists"] = list(self.specialists)
        if self.reason:
            out["reason"] = self.reason
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
        """The EO's result as sent, checked: winner "p1", "p2" or null, two pairs, all in
        the pairing's order."""
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
                raise BadInput(
                    f"{key} must be two whole numbers from 0, the pairing's first "
                    "player's, then the second's"
                )
            pairs.append((value[0], value[1]))
        lists = ([str(x)[:200] for x in (body.get("lists") or [])] + ["", ""])[:2]
        return cls(
            winner=None if winner is None else Side.parse(winner),
            control_points=pairs[0],
            army_points_destroyed=pairs[1],
            lists=(lists[0], lists[1]),
            method=str(body.get("method") or "eo"),
        )


def in_seat_order(result: TableResult, game: Game) -> TableResult:
    """A result the table's game keeps by side (P1 went first) in the pairing's order
    (its first player's first), whoever went first; the same swap maps it back."""
    return replace(
        result,
        winner=None if result.winner is None else seating.seat_of(game, result.winner),
        control_points=seating.in_seat_order(game, result.control_points),
        army_points_destroyed=seating.in_seat_order(game, result.army_points_destroyed),
        lists=seating.in_seat_order(game, result.lists),
        specialists=seating.in_seat_order(game, result.specialists),
    )


in_side_order = in_seat_order


def _from_domain(
    result: Result, by: By, correction: Correction | None = None, reason: str = ""
) -> TableResult:
    return TableResult(
        winner=result.winner,
        control_points=result.control_points,
        army_points_destroyed=result.army_points_destroyed,
        lists=result.lists,
        specialists=result.specialists,
        method=result.method.value,
        by=by,
        correction=correction,
        reason=reason,
    )


def recorded_result(game: Game) -> TableResult | None:
    """The table's result as the event counts it, from the table's own log (its one
    source): the EO's entry, else the players' once both confirmed it and nobody
    disputes it; in the pairing's order, whoever went first."""
    result = settled_result(game)
    if result is None:
        return None
    if game.recorded is None:
        return in_seat_order(_from_domain(result, "players"), game)
    correction = None
    moved = game.correction
    if moved is not None:
        before = _from_domain(moved.before, "eo" if moved.before_by_eo else "players")
        correction = Correction(
            moved.reason, moved.at_ms, in_seat_order(before, game), moved.round_closed
        )
    return in_seat_order(_from_domain(result, "eo", correction, game.eo_reason), game)


def table_says(game: Game) -> TableResult | None:
    """What the table says the result is now, in the pairing's order: the one that
    stands, else the one the players' reports make (unconfirmed, or disputed)."""
    recorded = recorded_result(game)
    if recorded is not None:
        return recorded
    result = game.result()
    return None if result is None else in_seat_order(_from_domain(result, "players"), game)


def change_words(
    before: TableResult | None, after: TableResult, names: tuple[str, str], tie_word: str
) -> str:
    """What the EO's entry made of the table's result, by the players' names: the
    outcome (from what to what), then each number or list it changed."""

    def outcome(result: TableResult) -> str:
        winner = None if result.winner is None else names[result.winner]
        return outcome_words(winner, Method(result.method), tie_word)

    if before is None:
        scores = "; ".join(
            f"{name} {after.control_points[i]} CP, {after.army_points_destroyed[i]} APD"
            for i, name in enumerate(names)
        )
        return f"{outcome(after)}; {scores}"
    was, now = outcome(before), outcome(after)
    moved = [now if was == now else f"{was} → {now}"]
    for i, name in enumerate(names):
        for label, old, new in (
            ("CP", before.control_points[i], after.control_points[i]),
            ("APD", before.army_points_destroyed[i], after.army_points_destroyed[i]),
            ("list", before.lists[i] or "none", after.lists[i] or "none"),
        ):
            if old != new:
                moved.append(f"{name}'s {label} {old} → {new}")
    return "; ".join(moved)
