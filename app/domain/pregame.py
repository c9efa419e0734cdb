"""The pre-game at the table, before the clock starts ("Starting the Game").

Each player secretly chooses one of their lists; both are revealed at once. Where the
format has objectives (SR2019, Masters and Champions), each player then secretly chooses
one; they are revealed together after the starting roll and the choice of sides. Both
players roll a d6 (ties roll again); the higher roll chooses to go first or second, and
the second player chooses the table edge. Which steps a format has is its ruleset's
data (`Ruleset.pregame`); this module never names a format.

Until the order is chosen a side is a seat (the link the player holds); once it is
chosen, P1 is the player who goes first. `swapped` says that the second seat's player
goes first: the table maps its seats to sides by it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from app.domain import commands as c
from app.domain.army_lists import split_lists
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.frozen import replace

MAX_LIST_NAME = 200


class Step(StrEnum):
    LISTS = "lists"
    SPECIALISTS = "specialists"
    OBJECTIVES = "objectives"
    ROLL = "roll"
    ORDER = "order"
    EDGE = "edge"
    DONE = "done"


#: What each step asks of the table, in the players' words.
STEP_WORDS = {
    Step.LISTS: "each player chooses a list",
    Step.SPECIALISTS: "each player chooses their specialists",
    Step.OBJECTIVES: "each player chooses an objective",
    Step.ROLL: "the starting roll",
    Step.ORDER: "the winner of the starting roll chooses to go first or second",
    Step.EDGE: "the second player chooses the table edge",
    Step.DONE: "the pre-game is done",
}

Pair = tuple[str | None, str | None]


@dataclass(frozen=True, slots=True)
class Swap:
    """A player's specialist substitution as checked legal: the cards that left the
    chosen list and the specialists that joined it, each as written in the list."""

    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pregame:
    """Where a table's pre-game stands. Choices are kept by seat (index 0: the P1 link)."""

    steps: tuple[Step, ...]
    #: The lists each seat may choose (empty: any list the player writes).
    choices: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    objectives: tuple[str, ...] = ()
    lists: Pair = (None, None)
    #: Each seat's army lists, whole as written (both players see both: `app.domain.army_lists`).
    armies: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    specialists: tuple[Swap | None, Swap | None] = (None, None)
    chosen_objectives: Pair = (None, None)
    #: Each starting roll so far, (first seat's die, second seat's die); a tie rolls again.
    rolls: tuple[tuple[int, int], ...] = ()
    rolling: tuple[int | None, int | None] = (None, None)
    winner: int | None = None  # the seat that won the starting roll
    swapped: bool = False  # the second seat's player goes first
    ordered: bool = False
    edge_swap: bool | None = None  # the second player took the other side of the table

    # -- where it stands -------------------------------------------------------

    @property
    def step(self) -> Step:
        for step in self.steps:
            if not self._finished(step):
                return step
        return Step.DONE

    @property
    def done(self) -> bool:
        return self.step is Step.DONE

    def _finished(self, step: Step) -> bool:
        match step:
            case Step.LISTS:
                return None not in self.lists
            case Step.SPECIALISTS:
                return None not in self.specialists
            case Step.OBJECTIVES:
                return None not in self.chosen_objectives
            case Step.ROLL:
                return self.winner is not None
            case Step.ORDER:
                return self.ordered
            case Step.EDGE:
                return self.edge_swap is not None
        return True

    def seat(self, side: Side) -> int:
        """The seat (0 or 1) of a side: once the order is chosen, P1 goes first."""
        return int(side) ^ int(self.swapped)

    def side_of_seat(self, seat: int) -> Side:
        return Side(seat ^ int(self.swapped))

    def in_play_order(self, pair: Pair) -> Pair:
        """A pair kept by seat, as (P1's, P2's)."""
        return (pair[1], pair[0]) if self.swapped else pair

    @property
    def lists_revealed(self) -> bool:
        """Both lists are shown at once, when both players have chosen."""
        return None not in self.lists

    @property
    def specialists_revealed(self) -> bool:
        """Both substitutions are shown at once, when both players have chosen."""
        return None not in self.specialists

    def swaps_in_play_order(self) -> tuple[str, str]:
        """Each player's specialist swap in words, as (P1's, P2's) ("": none)."""
        first, second = self.in_play_order(
            (swap_words(self.specialists[0]), swap_words(self.specialists[1]))
        )
        return (first or "", second or "")

    @property
    def objectives_revealed(self) -> bool:
        """After the starting roll and the choice of sides (the whole pre-game)."""
        return self.done and None not in self.chosen_objectives


def swap_words(swap: Swap | None) -> str:
    """A specialist swap as the result keeps it: "out A; in B" ("": none)."""
    if swap is None:
        return ""
    parts = [
        f"{word} {', '.join(cards)}"
        for word, cards in (("out", swap.removed), ("in", swap.added))
        if cards
    ]
    return "; ".join(parts)


def open_pregame(
    steps: tuple[str, ...], objectives: tuple[str, ...], cmd: c.OpenPregame
) -> Pregame:
    """The table's pre-game begins with its format's steps and each seat's lists."""
    wanted = tuple(Step(s) for s in steps)
    if not objectives:
        wanted = tuple(s for s in wanted if s is not Step.OBJECTIVES)
    if cmd.specialists and Step.LISTS in wanted and any(cmd.armies):
        at = wanted.index(Step.LISTS) + 1
        wanted = (*wanted[:at], Step.SPECIALISTS, *wanted[at:])
    return Pregame(steps=wanted, choices=cmd.choices, objectives=objectives, armies=cmd.armies)


def _expect(pregame: Pregame, step: Step) -> None:
    now = pregame.step
    if now is step:
        return
    if now is Step.DONE:
        raise RuleError("the pre-game is done: the first player starts the clock")
    if step in pregame.steps and pregame.steps.index(step) < pregame.steps.index(now):
        raise RuleError(f"that is settled already; now {STEP_WORDS[now]}")
    raise RuleError(f"not yet: first {STEP_WORDS[now]}")


def _put(pair: Pair, seat: int, value: str) -> Pair:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def choose_list(pregame: Pregame, side: Side, cmd: c.ChooseList) -> Pregame:
    _expect(pregame, Step.LISTS)
    seat = pregame.seat(side)
    if pregame.lists[seat] is not None:
        raise RuleError("you have chosen your list; it cannot be changed")
    name = cmd.name.strip()
    allowed = pregame.choices[seat]
    if allowed and name not in allowed:
        raise BadInput("choose one of your lists: " + "; ".join(allowed))
    if not name:
        raise BadInput("write the list you play")
    if len(name) > MAX_LIST_NAME:
        raise BadInput(f"a list is {MAX_LIST_NAME} characters at most")
    return replace(pregame, lists=_put(pregame.lists, seat, name))


def choose_specialists(
    pregame: Pregame, side: Side, cmd: c.ChooseSpecialists, check: Callable[[str], Swap]
) -> Pregame:
    """A player's secret substitution on their chosen list, `check`ed legal against its
    text (`app.domain.specialist_step`); revealed when both have chosen."""
    _expect(pregame, Step.SPECIALISTS)
    seat = pregame.seat(side)
    if pregame.specialists[seat] is not None:
        raise RuleError("you have chosen your specialists; they cannot be changed")
    text = chosen_text(pregame, seat)
    if text is None:
        if cmd.removed or cmd.added:
            raise BadInput("your chosen list is not written out whole here: no specialists to add")
        swap = Swap()
    else:
        swap = check(text)
    pair = (swap, pregame.specialists[1]) if seat == 0 else (pregame.specialists[0], swap)
    return replace(pregame, specialists=pair)


def chosen_text(pregame: Pregame, seat: int) -> str | None:
    """The whole text of the list a seat chose (None: not chosen, or not written out)."""
    name = pregame.lists[seat]
    for text in pregame.armies[seat]:
        if name is not None and name in split_lists(text):
            return text
    return None


def choose_objective(pregame: Pregame, side: Side, cmd: c.ChooseObjective) -> Pregame:
    _expect(pregame, Step.OBJECTIVES)
    seat = pregame.seat(side)
    if pregame.chosen_objectives[seat] is not None:
        raise RuleError("you have chosen your objective; it cannot be changed")
    if cmd.name not in pregame.objectives:
        raise BadInput("choose one of the objectives: " + ", ".join(pregame.objectives))
    return replace(pregame, chosen_objectives=_put(pregame.chosen_objectives, seat, cmd.name))


def roll(pregame: Pregame, side: Side, cmd: c.StartingRoll) -> Pregame:
    """A player's d6 for the starting roll, rolled by the server (or both dice as rolled
    at the table, `at_table`)."""
    _expect(pregame, Step.ROLL)
    if cmd.at_table is not None:
        return _rolled_at_table(pregame, cmd.at_table)
    if not 1 <= cmd.value <= 6:
        raise BadInput("a starting roll is a d6: 1 to 6")
    seat = pregame.seat(side)
    if pregame.rolling[seat] is not None:
        raise RuleError("you have rolled; wait for your opponent's roll")
    rolling = (cmd.value, pregame.rolling[1]) if seat == 0 else (pregame.rolling[0], cmd.value)
    first, second = rolling
    if first is None or second is None:
        return replace(pregame, rolling=rolling)
    rolls = (*pregame.rolls, (first, second))
    if first == second:  # a tie: both roll again
        return replace(pregame, rolls=rolls, rolling=(None, None))
    return replace(pregame, rolls=rolls, rolling=(None, None), winner=0 if first > second else 1)


def _rolled_at_table(pregame: Pregame, dice: tuple[int, int]) -> Pregame:
    """The starting roll made with real dice: a player enters both as rolled. Before the
    order is chosen the sides are the seats."""
    if pregame.rolling != (None, None):
        raise RuleError("a die is rolled on the phones already: roll the other one there")
    if not all(1 <= die <= 6 for die in dice):
        raise BadInput("a starting roll is a d6: 1 to 6")
    first, second = (dice[1], dice[0]) if pregame.swapped else dice
    if first == second:
        raise BadInput("the dice are equal: roll again")
    return replace(pregame, rolls=(*pregame.rolls, (first, second)), winner=int(second > first))


def choose_order(pregame: Pregame, side: Side, cmd: c.ChooseOrder) -> Pregame:
    """The winner of the starting roll goes first or second: P1 is settled here."""
    _expect(pregame, Step.ORDER)
    seat = pregame.seat(side)
    if seat != pregame.winner:
        raise NotYourSeat("the winner of the starting roll chooses to go first or second")
    first_seat = seat if cmd.first else 1 - seat
    return replace(pregame, swapped=first_seat == 1, ordered=True)


def choose_edge(pregame: Pregame, side: Side, cmd: c.ChooseEdge) -> Pregame:
    _expect(pregame, Step.EDGE)
    if side is not Side.P2:
        raise NotYourSeat("the second player chooses the table edge")
    return replace(pregame, edge_swap=cmd.swap)
