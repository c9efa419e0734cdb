"""RP5, the Iron Gauntlet world finals seeding, in the words of its document ("World
Finals Seeding & Format"): "Before the event begins, the players are ranked based on
total QPs earned, from most to fewest. The first-ranked player is paired against the
last-ranked player, the second-ranked player is paired against the second-lowest-ranked
player, and so on. If there is a bye in the first round, the first-ranked player
automatically receives the bye. [...] Each round, players are paired according to
their tournament points as normal and also according to their seeding based on QPs
as described above."

The document does not say how players with equal QPs are ranked: by a draw, made once
when they register (the random order of their player ids), so the ranking is the same
every round and each round's notes say it. A player without QPs is ranked after those
with some.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby


def seed_order(
    ids: Sequence[str], seeds: Mapping[str, int], names: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """The players ranked from the most QPs down, and the notes on the draws that
    ranked players with equal QPs."""

    def qps(player_id: str) -> int | None:
        return seeds.get(player_id)

    order = sorted(ids, key=lambda i: (qps(i) is None, -(qps(i) or 0), i))
    notes = []
    for points, tied in groupby(order, key=qps):
        same = [names[i] for i in tied]
        if len(same) < 2:
            continue
        who = ", ".join(same[:-1]) + " and " + same[-1]
        if points is None:
            notes.append(f"{who} have no qualifier points: ranked last, in that order by a draw")
        else:
            notes.append(
                f"{who} have {points} qualifier points each: a draw ranks them in that order"
            )
    return order, notes


def first_round(order: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1 by the ranking: #1 v last, #2 v second-last...; an odd field's bye goes to
    #1 and the rest are paired the same way. Table 1 has the highest-ranked game."""
    rest = list(order)
    bye = rest.pop(0) if len(rest) % 2 else None
    games = [(rest[n], rest[-1 - n]) for n in range(len(rest) // 2)]
    return games, bye


def brackets(order: Sequence[str], points: Mapping[str, int]) -> dict[str, tuple[int, int, int]]:
    """A later round's seeding, for each player: their bracket, place in it and its
    size. A bracket is a TP group ranked by seed (the player paired down into it first,
    having more TP); a group left odd sends its last-ranked player down to the next
    one (RP2's "last player"). Within a bracket the first-ranked meets the last-ranked,
    the second the second-last, and so on."""
    groups = sorted({points[i] for i in order}, reverse=True)
    found: dict[str, tuple[int, int, int]] = {}
    carried: list[str] = []
    for number, tp in enumerate(groups):
        members = carried + [i for i in order if points[i] == tp]
        carried = [members.pop()] if len(members) % 2 and number < len(groups) - 1 else []
        for place, player_id in enumerate(members):
            found[player_id] = (number, place, len(members))
    return found


def seed_cost(a: str, b: str, bracket: Mapping[str, tuple[int, int, int]]) -> int:
    """How far a pair is from the seeding: 0 for the pair it asks for, more the further
    the two are from facing places in their bracket; the most for two brackets."""
    (group_a, place_a, size), (group_b, place_b, _) = bracket[a], bracket[b]
    if group_a != group_b:
        return len(bracket)
    return abs(place_a + place_b - (size - 1))
