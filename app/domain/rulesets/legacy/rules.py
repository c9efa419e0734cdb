"""What the legacy scenarios share (shared/seeds/legacy-scenarios.txt): how their
elements are controlled and scored, and the kinds of victory condition they name.

- Elements are controlled, never dominated; an element on a player's side (his Flag,
  the Gauntlet sections on his side) is scored only by his opponent.
- Where a scenario says "at the end of his turn", only the player ending the turn scores.
- A scenario may cap the CP one player scores from one element (Frontline Foray: 2).
- Every scenario is also won by assassination (TS6): that needs no hook.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from app.domain import commands as c
from app.domain.clock import BySide, Side, put
from app.domain.errors import BadInput
from app.domain.rulesets.scoring import held
from app.domain.scenarios import (
    EarnedRule,
    Element,
    ElementKind,
    RoundNotes,
    ScenarioVictory,
    ScoreSheet,
)
from app.domain.state import Game
from app.domain.table_layout import Shape


def zone(
    eid: str,
    name: str,
    shape: Shape,
    *,
    cp: int = 1,
    owner: Side | None = None,
    most_cp: int | None = None,
) -> Element:
    return Element(
        eid, ElementKind.ZONE, name, control_cp=cp, owner=owner, most_cp=most_cp, shape=shape
    )


def flag(eid: str, name: str, shape: Shape, *, owner: Side | None = None) -> Element:
    return Element(eid, ElementKind.FLAG, name, owner=owner, shape=shape)


def _checked(game: Game, scoring: c.Scoring, *, own_turn: bool) -> list[tuple[Element, Side]]:
    """The elements the sheet says are controlled, each by whom, as the scenario allows."""
    if scoring.dominate:
        raise BadInput(f"{game.scenario.name} scores control only: nothing is dominated")
    if scoring.destroyed or scoring.removed:
        raise BadInput(f"{game.scenario.name} has no objectives")
    controlled = []
    names = game.names
    for element_id, side in sorted(scoring.control.items()):
        element = held(game.scenario, element_id, names)
        if element.owner is side:
            raise BadInput(f"{element.named(names)} is scored only by {names[side.other]}")
        if own_turn and side is not game.active:
            raise BadInput(
                f"{game.scenario.name}: only the player ending the turn "
                f"({names[game.active]}) scores, so {names[side]} scores nothing now"
            )
        controlled.append((element, side))
    return controlled


def _gains(game: Game, scoring: c.Scoring, *, own_turn: bool) -> dict[str, BySide[int]]:
    """CP each element gives each player for this sheet, within the element's cap."""
    gains: dict[str, BySide[int]] = {}
    for element, side in _checked(game, scoring, own_turn=own_turn):
        before = game.earned.get(element.id, (0, 0))[side]
        cp = element.control_cp
        if element.most_cp is not None:
            cp = max(0, min(cp, element.most_cp - before))
        gains[element.id] = put(gains.get(element.id, (0, 0)), side, cp)
    return gains


def control_points_sheet(*, own_turn: bool) -> ScoreSheet[Game]:
    """A sheet scoring CP for each element controlled (by the player ending the turn only
    where the scenario says "at the end of his turn")."""

    def sheet(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
        cp = game.control_points
        for gained in _gains(game, scoring, own_turn=own_turn).values():
            cp = (cp[0] + gained[0], cp[1] + gained[1])
        return cp, game.objectives_destroyed

    return sheet


def control_sheet(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
    """A sheet that scores no CP: it records who controls what, for the victory check."""
    _checked(game, scoring, own_turn=False)
    return game.control_points, game.objectives_destroyed


def earned_by_element(*, own_turn: bool) -> EarnedRule[Game]:
    """The CP each player has earned from each element, after a sheet."""

    def earned(game: Game, scoring: c.Scoring) -> Mapping[str, tuple[int, int]]:
        tally = dict(game.earned)
        for element_id, gained in _gains(game, scoring, own_turn=own_turn).items():
            before = tally.get(element_id, (0, 0))
            tally[element_id] = (before[0] + gained[0], before[1] + gained[1])
        return MappingProxyType(tally)

    return earned


# -- victory conditions ------------------------------------------------------------


def _ender_first(game: Game) -> tuple[Side, Side]:
    """Where both players meet a condition at once, the player ending the turn is first."""
    return game.active, game.active.other


def scores(cp_needed: int) -> ScenarioVictory[Game]:
    """ "A player wins when he scores N Control Points"."""

    def victory(game: Game, _scoring: c.Scoring | None, cp: tuple[int, int]) -> Side | None:
        return next((s for s in _ender_first(game) if cp[s] >= cp_needed), None)

    return victory


def _controls(scoring: c.Scoring | None, side: Side, element_ids: Iterable[str]) -> int:
    if scoring is None:
        return 0
    return sum(1 for e in element_ids if scoring.control.get(e) is side)


def ends_turn_in_control(*element_ids: str) -> ScenarioVictory[Game]:
    """ "A player wins when he ends his turn in control of" every one of these."""

    def victory(game: Game, scoring: c.Scoring | None, _cp: tuple[int, int]) -> Side | None:
        ender = game.active
        return ender if _controls(scoring, ender, element_ids) == len(element_ids) else None

    return victory


def ends_turn_holding(lines: Mapping[Side, tuple[str, ...]]) -> ScenarioVictory[Game]:
    """Each player wins by holding his own line of points at the end of his turn."""

    def victory(game: Game, scoring: c.Scoring | None, _cp: tuple[int, int]) -> Side | None:
        ender = game.active
        line = lines[ender]
        return ender if _controls(scoring, ender, line) == len(line) else None

    return victory


def controls(count: int, *element_ids: str) -> ScenarioVictory[Game]:
    """ "A player wins when he controls (holds)" `count` of these, at any turn's end."""

    def victory(game: Game, scoring: c.Scoring | None, _cp: tuple[int, int]) -> Side | None:
        return next(
            (s for s in _ender_first(game) if _controls(scoring, s, element_ids) >= count), None
        )

    return victory


# -- what the phones show each round -------------------------------------------------


def round_of(game: Game) -> int:
    """TS1: round n is P1's turn n and P2's turn n; before the first turn, round 1 is next."""
    return max(1, game.turn)


def by_round(*steps: str) -> RoundNotes[Game]:
    """A special rule that changes each round: one entry a round, the last one from then on."""

    def notes(game: Game) -> tuple[str, ...]:
        rnd = round_of(game)
        return (f"Round {rnd}: {steps[min(rnd, len(steps)) - 1]}",)

    return notes


def earned_notes(game: Game) -> tuple[str, ...]:
    """The CP each element has given each player so far (and its cap)."""
    notes = []
    first, second = game.names
    for element in game.scenario.controllable:
        got = game.earned.get(element.id)
        if got is None and element.most_cp is None:
            continue
        p1, p2 = got or (0, 0)
        cap = "" if element.most_cp is None else f" (at most {element.most_cp} each)"
        notes.append(f"{element.name}: {first} {p1} CP, {second} {p2} CP{cap}")
    return tuple(notes)
