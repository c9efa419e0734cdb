"""What the screens see of a table's pre-game. Public: nothing secret before its reveal
(a list until both have chosen, an objective until the pre-game is done). A seat's own
choice goes only to that seat's screens (`mine`)."""

from __future__ import annotations

from typing import Any

from app.domain import commands as c
from app.domain.army_lists import Entry, read_list
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.game import Game
from app.domain.pregame import STEP_WORDS, Pregame, Step, Swap
from app.tables.seats import ROLES
from app.tables.warmachine import seating


def _side(pregame: Pregame, seat: int | None) -> str | None:
    return None if seat is None else pregame.side_of_seat(seat).name.lower()


def _rolls(pregame: Pregame, pair: tuple[int | None, int | None]) -> list[int | None]:
    return [pair[1], pair[0]] if pregame.swapped else [pair[0], pair[1]]


def _by(pregame: Pregame) -> list[str]:
    """The sides the current step waits for."""
    step = pregame.step
    if step is Step.LISTS:
        return [_s(pregame, i) for i in (0, 1) if pregame.lists[i] is None]
    if step is Step.SPECIALISTS:
        return [_s(pregame, i) for i in (0, 1) if pregame.specialists[i] is None]
    if step is Step.OBJECTIVES:
        return [_s(pregame, i) for i in (0, 1) if pregame.chosen_objectives[i] is None]
    if step is Step.ROLL:
        return [_s(pregame, i) for i in (0, 1) if pregame.rolling[i] is None]
    if step is Step.ORDER:
        return [_s(pregame, pregame.winner)]
    if step is Step.EDGE:
        return ["p2"]
    return []


def _s(pregame: Pregame, seat: int | None) -> str:
    side = _side(pregame, seat)
    assert side is not None
    return side


def pregame_view(game: Game) -> dict[str, Any] | None:
    pregame = game.pregame
    if pregame is None:
        return None
    lists = pregame.in_play_order(pregame.lists)
    objectives = pregame.in_play_order(pregame.chosen_objectives)
    swaps = pregame.specialists[::-1] if pregame.swapped else pregame.specialists
    armies = pregame.armies[::-1] if pregame.swapped else pregame.armies
    step = pregame.step
    return {
        "armies": [[army_view(text) for text in texts] for texts in armies],
        "specialists_chosen": [x is not None for x in swaps],
        "specialists": [_swap(x) for x in swaps] if pregame.specialists_revealed else [None, None],
        "step": step.value,
        "words": STEP_WORDS[step],
        "steps": [s.value for s in pregame.steps],
        "by": _by(pregame),
        "objective_choices": list(pregame.objectives),
        "lists_chosen": [x is not None for x in lists],
        "lists": list(lists) if pregame.lists_revealed else [None, None],
        "objectives_chosen": [x is not None for x in objectives],
        "objectives": list(objectives) if pregame.objectives_revealed else [None, None],
        "rolls": [_rolls(pregame, r) for r in pregame.rolls],
        "rolling": _rolls(pregame, pregame.rolling),
        "winner": _side(pregame, pregame.winner),
        "swapped": pregame.swapped,
        "ordered": pregame.ordered,
        "edge_swap": pregame.edge_swap,
    }


def own_choices(game: Game, side: Side) -> dict[str, Any]:
    """A seat's own lists to choose from and its secret choices, for its screens only."""
    pregame = game.pregame
    if pregame is None:
        return {"choices": [], "list": None, "objective": None, "specialists": None}
    seat = pregame.seat(side)
    return {
        "choices": list(pregame.choices[seat]),
        "list": pregame.lists[seat],
        "specialists": _swap(pregame.specialists[seat]),
        "objective": pregame.chosen_objectives[seat],
    }


def _swap(swap: Swap | None) -> dict[str, list[str]] | None:
    return None if swap is None else {"removed": list(swap.removed), "added": list(swap.added)}


def _entry(entry: Entry) -> dict[str, Any]:
    return {"text": entry.text, "name": entry.name, "points": entry.points}


def army_view(text: str) -> dict[str, Any]:
    """One army list as the Lists view shows it: its name (as the players choose it),
    every model as the list reads, and its specialists; a list that cannot be read
    shows its lines as written."""
    try:
        army = read_list(text)
    except BadInput:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return {
            "name": lines[0] if lines else "",
            "title": "",
            "points": None,
            "models": [{"text": x, "name": x, "points": None} for x in lines[1:]],
            "specialists": [],
        }
    return {
        "name": army.text,
        "title": army.title,
        "points": army.points,
        "models": [_entry(e) for e in army.models],
        "specialists": [_entry(e) for e in army.specialists],
    }


def pregame_prompt(game: Game) -> dict[str, Any] | None:
    """The pre-game's prompt while it lasts."""
    if not game.in_pregame or game.pregame is None:
        return None
    return {"kind": "pregame", "step": game.pregame.step.value, "by": _by(game.pregame)}


def side_for(game: Game, seat: Side) -> Side:
    """A seat's side: the second seat is P1 once its player chose (or was given) to go
    first in the pre-game."""
    return seating.side_of(game, seat)


def screens_to_refresh(before: Game, after: Game, actor: c.Actor) -> tuple[str, ...]:
    """The links whose screens need the whole table again after a command: all of them
    when the seats' sides changed (who goes first); a seat's own after its secret choice."""
    if side_for(before, Side.P1) is not side_for(after, Side.P1):
        return ROLES
    if isinstance(actor, Side) and after.pregame is not None and after.pregame != before.pregame:
        return (side_for(after, actor).name.lower(),)
    return ()
