"""The result of a game (TS4, TS6-TS9): tiebreakers, reports, and when it is settled.

The result is read off the game's state (`Played`), which holds it: this module never
imports the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from app.domain.army_lists import read_list
from app.domain.clock import Side, each, put
from app.domain.errors import BadInput
from app.domain.method import Method
from app.domain.pregame import Pregame
from app.domain.rulebook import Ruleset, Tiebreaker


@dataclass(frozen=True, slots=True)
class Ending:
    """How the game ended; `winner` is None until tiebreakers decide it."""

    method: Method
    winner: Side | None
    at_ms: int
    #: The tiebreakers that decide it (TS4: a game end on equal CP, the scenario's own);
    #: None: the format's, from the 1st.
    tiebreakers: tuple[Tiebreaker, ...] | None = None


@dataclass(frozen=True, slots=True)
class Report:
    army_points_destroyed: int
    scenario_presence: int | None
    list_played: str


@dataclass(frozen=True, slots=True)
class Result:
    """TS9: the game's result as both players confirm it."""

    winner: Side | None
    method: Method
    control_points: tuple[int, int]
    army_points_destroyed: tuple[int, int]
    lists: tuple[str, str]
    #: Each player's specialist swap at the table, in words ("": none).
    specialists: tuple[str, str] = ("", "")


@dataclass(frozen=True, slots=True)
class Correction:
    """TS9: the EO moved a settled result, saying why; `before` is what it replaced."""

    reason: str
    at_ms: int
    before: Result
    round_closed: bool
    before_by_eo: bool = False  # what it replaced was the EO's entry, not the players'


class Sized(Protocol):
    """What a result reads of a game's setup: the army points each player brought."""

    @property
    def army_points(self) -> int: ...


class Played(Protocol):
    """What a result is read from: the game as the table recorded it
    (`app.domain.state.Game`)."""

    @property
    def format(self) -> Ruleset[Any]: ...
    @property
    def setup(self) -> Sized: ...
    @property
    def ending(self) -> Ending | None: ...
    @property
    def recorded(self) -> Result | None: ...
    @property
    def reports(self) -> tuple[Report | None, Report | None]: ...
    @property
    def confirmed(self) -> tuple[bool, bool]: ...
    @property
    def disputed(self) -> str | None: ...
    @property
    def final_due(self) -> bool: ...
    @property
    def control_points(self) -> tuple[int, int]: ...
    @property
    def casters(self) -> tuple[bool, bool]: ...
    @property
    def pregame(self) -> Pregame | None: ...


def settled(game: Played) -> bool:
    """TS9: the result stands once both players confirmed it or the EO entered it."""
    return game.recorded is not None or all(game.confirmed)


def settled_result(game: Played) -> Result | None:
    """The result that stands: the EO's, else the players' once both confirmed it and
    nobody disputes it."""
    if game.recorded is not None:
        return game.recorded
    if not all(game.confirmed) or game.disputed is not None:
        return None
    return compute_result(game)


def _tiebreak(
    game: Played, apd: tuple[int, int], presence: tuple[int | None, int | None]
) -> tuple[Side | None, bool]:
    """TS7: the ruleset's tiebreakers in order (SR2019: casters remaining, CP, fewer APD
    suffered, scenario presence; IG2014: casters, CP, army points remaining, fewer APD
    suffered); equal on all of them, nobody wins.

    Returns (winner, decided); not decided while a collected value is missing.
    """
    for tiebreaker in chain(game):
        if tiebreaker is Tiebreaker.COLLECTED:
            if presence[0] is None or presence[1] is None:
                return None, False
            p1, p2 = presence[0], presence[1]
        else:
            p1, p2 = _measure(game, tiebreaker, apd)
        if p1 != p2:
            return (Side.P1 if p1 > p2 else Side.P2), True
    return None, True


def tiebreak_steps(
    game: Played, result: Result, presence: tuple[int | None, int | None]
) -> list[tuple[Tiebreaker, tuple[int | None, int | None]]]:
    """TS7: the ruleset's tiebreakers in its own order, up to the one that decided,
    each with both players' values as the result has them (APD: what each suffered)."""
    apd = result.army_points_destroyed
    steps: list[tuple[Tiebreaker, tuple[int | None, int | None]]] = []
    for tiebreaker in chain(game):
        values: tuple[int | None, int | None]
        if tiebreaker is Tiebreaker.COLLECTED:
            values = presence
        elif tiebreaker is Tiebreaker.APD_SUFFERED:
            values = (apd[1], apd[0])
        elif tiebreaker is Tiebreaker.CONTROL_POINTS:
            values = result.control_points
        else:
            values = _measure(game, tiebreaker, apd)
        steps.append((tiebreaker, values))
        if values[0] != values[1] or None in values:
            break
    return steps


def _measure(game: Played, tiebreaker: Tiebreaker, apd: tuple[int, int]) -> tuple[int, int]:
    """Each side's number for a tiebreaker the table already knows; more is better."""
    if tiebreaker is Tiebreaker.CASTERS:
        return int(game.casters[0]), int(game.casters[1])
    if tiebreaker is Tiebreaker.CONTROL_POINTS:
        return game.control_points
    return -apd[1], -apd[0]  # APD suffered is what the opponent destroyed


def presence_may_decide(game: Played) -> bool:
    """TS7: the collected tiebreaker (scenario presence; IG2014: army points remaining)
    can decide only a game the tiebreakers decide, never a scenario or assassination win."""
    ending = game.ending
    if ending is None or ending.method is not Method.TIEBREAKER:
        return False
    return Tiebreaker.COLLECTED in chain(game)


def chain(game: Played) -> tuple[Tiebreaker, ...]:
    """The tiebreakers that decide this game, in order: the ending's own (TS4: a game
    end on equal CP), else the format's."""
    ending = game.ending
    if ending is not None and ending.tiebreakers is not None:
        return ending.tiebreakers
    return game.format.tiebreakers


def presence_needed(game: Played) -> bool:
    ending = game.ending
    if ending is None or ending.method is not Method.TIEBREAKER:
        return False
    r1, r2 = game.reports
    if r1 is None or r2 is None:
        return False
    _, decided = _tiebreak(game, (r1.army_points_destroyed, r2.army_points_destroyed), (None, None))
    return not decided


def conceded_army(game: Played, conceding: Side) -> tuple[int, str | None]:
    """SR2019 "Sportsmanship": the conceding player's starting army, in army points: the
    list they played, as its text gives its points; else the event's point size (the
    list, None: no list played here gives its points)."""
    pregame = game.pregame
    played = None if pregame is None else pregame.in_play_order(pregame.lists)[conceding]
    if played:
        try:
            points = read_list(played).points
        except BadInput:
            points = None
        if points is not None:
            return points, played
    return game.setup.army_points, None


def conceded_scores(
    game: Played, winner: Side, cp: tuple[int, int], apd: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """TS8: a concession's CP and APD, as its format gives them (SR2019: the winner at
    least 3 CP and half the conceder's army; the conceder none), from the table's."""
    rules = game.format
    army, _ = conceded_army(game, winner.other)
    won_cp, won_apd = rules.concession(rules, cp[winner], apd[winner], army)
    return put((0, 0), winner, won_cp), put((0, 0), winner, won_apd)


def reports_needed(game: Played) -> tuple[Side, ...]:
    ending = game.ending
    if ending is None or game.recorded is not None:
        return ()
    sides: tuple[Side, ...] = (Side.P1, Side.P2)
    if ending.method is Method.CONCESSION and ending.winner is not None:
        sides = (ending.winner,)
    return tuple(s for s in sides if game.reports[s] is None)


def compute_result(game: Played) -> Result | None:
    if game.recorded is not None:
        return game.recorded
    ending = game.ending
    if ending is None or game.final_due or reports_needed(game):
        return None
    apd = each(game.reports, lambda r: r.army_points_destroyed if r else 0)
    lists = each(game.reports, lambda r: r.list_played if r else "")
    if game.pregame is not None:  # the list chosen at the table, unless reported otherwise
        chosen = game.pregame.in_play_order(game.pregame.lists)
        lists = (lists[0] or chosen[0] or "", lists[1] or chosen[1] or "")
    cp = game.control_points
    winner = ending.winner
    if ending.method is Method.TIEBREAKER:
        presence = each(game.reports, lambda r: r.scenario_presence if r else None)
        winner, decided = _tiebreak(game, apd, presence)
        if not decided:
            return None
    if ending.method is Method.CONCESSION and winner is not None:
        cp, apd = conceded_scores(game, winner, cp, apd)
    return Result(
        winner=winner,
        method=ending.method,
        control_points=cp,
        army_points_destroyed=apd,
        lists=lists,
        specialists=("", "") if game.pregame is None else game.pregame.swaps_in_play_order(),
    )
