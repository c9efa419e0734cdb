"""Round 1 keeps a club's players apart (a club, team or travel group): the random
pairing stands where it already does; where it pairs two players of one club, a swap
with another table (or the bye) parts them, and only a clash no swap can part stays.

A clash no swap can part is one no pairing avoids: at a swap that cannot help, every
clash is of one club and every other table has a player of it, so that club has more
players than the round has tables without it, and each extra one must meet another.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

#: A round's games as pairs of player ids, and the player with the bye (None: none).
Games = list[list[str]]


def _clash(game: list[str], clubs: Mapping[str, str]) -> str:
    """The club both players of a game are of ("": none)."""
    first = clubs.get(game[0], "")
    return first if first and all(clubs.get(p, "") == first for p in game) else ""


def _parts(a: list[str], b: list[str], clubs: Mapping[str, str]) -> list[tuple[int, int]]:
    """The swaps of one player of clashing game `a` with one of game `b` that leave
    neither game a clash (indexes into a and b)."""
    found = []
    for i in range(len(a)):
        for j in range(len(b)):
            new_a, new_b = list(a), list(b)
            new_a[i], new_b[j] = b[j], a[i]
            if not _clash(new_a, clubs) and (len(new_b) < 2 or not _clash(new_b, clubs)):
                found.append((i, j))
    return found


def keep_apart(
    ids: list[str], clubs: Mapping[str, str], rng: random.Random
) -> tuple[Games, str | None]:
    """Pair `ids` (already in random order) two by two, the last one out with the bye on
    an odd count, then part every clash a swap can part (a swap chosen at random)."""
    bye = ids[-1] if len(ids) % 2 else None
    games = [ids[n : n + 2] for n in range(0, len(ids) - len(ids) % 2, 2)]
    slots = games + ([[bye]] if bye is not None else [])
    # A clash that no swap parts means none can be parted (see above): stop at the first.
    while (a := next((g for g in slots if len(g) == 2 and _clash(g, clubs)), None)) is not None:
        options = [(b, i, j) for b in slots if b is not a for i, j in _parts(a, b, clubs)]
        if not options:
            break
        b, i, j = options[rng.randrange(len(options))]
        a[i], b[j] = b[j], a[i]
    return [g for g in slots if len(g) == 2], next((g[0] for g in slots if len(g) == 1), None)


def clash_notes(
    games: Sequence[tuple[str, str]],
    clubs: Mapping[str, str],
    names: Mapping[str, str],
    why: str = "no other pairing kept every club apart",
) -> list[str]:
    """The games that pair two players of one club, in the EO's words."""
    return [
        f"{names[a]} and {names[b]} are both of {_clash([a, b], clubs)}: {why}"
        for a, b in games
        if _clash([a, b], clubs)
    ]
