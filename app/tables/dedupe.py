"""A command applied once: what each phone (seat link and device) sent, by sequence
number. A phone is its seat's link, not the side it plays: the pre-game's change of
seats (the second seat goes first, P1 from then on) leaves each link's numbers its own."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from app.domain.clock import Side

SEEN_PER_DEVICE = 512


def seat_link(side_of: Callable[[Any, Side], Side], game: Any, actor: str) -> str:
    """The link a command came from, by its sender as logged ("p1" or "p2": a side; "eo",
    "system"), in `game`, the table as the command found it. The change of seats turns
    a seat into its side, and the same change a side into its seat."""
    if actor not in ("p1", "p2"):
        return actor
    return side_of(game, Side.parse(actor)).name.lower()


class Dedupe:
    """The versions recent commands of each phone made; older ones are known by number.

    A phone's commands carry rising sequence numbers: one far below the highest seen is
    an old one sent again. A table restored from a snapshot knows each phone's highest
    number then (`floor`), and takes anything at or below it as sent before.
    """

    def __init__(self) -> None:
        self._seen: dict[str, OrderedDict[int, int]] = {}
        self.max_seq: dict[str, int] = {}
        self._floor: dict[str, int] = {}

    def __contains__(self, phone: str) -> bool:
        return phone in self._seen

    def restore(self, max_seq: dict[str, int]) -> None:
        self.max_seq.update(max_seq)
        self._floor = dict(max_seq)

    def remember(self, phone: str, seq: int, version: int) -> None:
        if not phone:
            return
        seen = self._seen.setdefault(phone, OrderedDict())
        seen[seq] = version
        if len(seen) > SEEN_PER_DEVICE:
            seen.popitem(last=False)
        self.max_seq[phone] = max(seq, self.max_seq.get(phone, seq))

    def applied(self, phone: str, seq: int, current: int) -> int | None:
        """The version the command made, `current` if it is known only as old, or None."""
        if not phone:
            return None
        seen = self._seen.get(phone)
        if seen is not None and seq in seen:
            return seen[seq]
        if seq <= self.max_seq.get(phone, -1) - SEEN_PER_DEVICE:
            return current
        if seq <= self._floor.get(phone, -1):
            return current
        return None
