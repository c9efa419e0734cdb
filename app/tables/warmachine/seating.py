"""Who is who at a table: its two seats and its two sides.

A table seats two players, each with a link of their own: the seats, in the order the
pairing (or the quick game's form) gave them, which is the order the event knows its
players by. The game is played by sides, P1 being whoever goes first. Seats and sides
are the same until a pre-game's starting roll makes the second seat's player go first.

This module is the one place that maps the one onto the other: the side a seat's link
plays, and what the game keeps by side (names, reports, a result) in seat order.
"""

from __future__ import annotations

from typing import Any, TypeVar

from app.domain.clock import Side

T = TypeVar("T")


def swapped(game: Any) -> bool:
    """The second seat's player goes first (a game without a pre-game never swaps)."""
    pregame = getattr(game, "pregame", None)
    return pregame is not None and bool(pregame.swapped)


def side_of(game: Any, seat: Side) -> Side:
    """The side a seat's link plays; the same mapping gives a side's seat."""
    return seat.other if swapped(game) else seat


seat_of = side_of


def in_seat_order(game: Any, pair: tuple[T, T]) -> tuple[T, T]:
    """A pair the game keeps by side (P1's, P2's), as (the first seat's, the second's);
    the same swap turns a pair in seat order into one by side."""
    return (pair[1], pair[0]) if swapped(game) else pair


in_side_order = in_seat_order


def first_seat(game: Any) -> Side | None:
    """The seat whose player goes first, once that is decided: from the start at a
    table without a pre-game (the first seat's), else once the winner of the starting
    roll chose (or the EO started the clock over the pre-game: the first seat's)."""
    pregame = getattr(game, "pregame", None)
    if pregame is not None and not pregame.ordered and getattr(game, "in_pregame", False):
        return None
    return seat_of(game, Side.P1)


def first_player(game: Any, players: tuple[T, T]) -> T | None:
    """Of a table's two players (in seat order), the one who goes first, once decided."""
    seat = first_seat(game)
    return None if seat is None else players[seat]
