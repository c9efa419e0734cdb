"""Pairings for a round (RP2, RP3); dropped players are never paired (RP7).

Round 1 shuffles the player record sheets. From round 2 on, the round is one
maximum-weight perfect matching over every possible pair (and the bye, as one
more node when the count is odd). Each criterion below outweighs all the ones
after it together, so a worse choice is only taken when nothing better exists:

1. nobody gets a second bye;
2. no rematch (and no third meeting where a second would do);
3. nobody is paired down a second time;
4. the bye goes to the lowest TP group among players without one;
5. as few and as small TP gaps as possible, counted in groups and squared, so
   pairs stay in their TP group and a pair-down goes to the next group, not further;
6. chance, from the given `random.Random`.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from app.domain.errors import BadInput, RuleError
from app.domain.standings import SR2019_TP, PlayerRecord, by_id

BYE_TABLE = 0
_BYE = "\x00bye"  # the bye's node in the graph; never a player id
_CHANCE = 1 << 16  # spread of the random tie-break on each pair


class PairingImpossible(RuleError):
    """Fewer than two players are left to pair."""


@dataclass(frozen=True, slots=True)
class Pairing:
    table: int  # 1-based; the bye is table 0 and listed last
    p1: str
    p2: str | None  # None: p1 has the bye
    paired_down: str | None = None  # the player from the higher TP group, if any

    @property
    def is_bye(self) -> bool:
        return self.p2 is None


def pair_round(
    players: Sequence[PlayerRecord],
    round_number: int,
    rng: random.Random,
    *,
    tp: Mapping[str, int] = SR2019_TP,
) -> list[Pairing]:
    """Pair every player who has not dropped; deterministic for a given `rng` state."""
    if round_number < 1:
        raise BadInput("rounds are numbered from 1")
    active = [p for p in by_id(players).values() if not p.dropped]
    if len(active) < 2:
        raise PairingImpossible(
            f"{len(active)} player{'s' if len(active) != 1 else ''} left to pair: "
            "a round needs at least two"
        )
    active.sort(key=lambda p: p.id)
    if round_number == 1:
        return _first_round([p.id for p in active], rng)
    return _later_round(active, rng, tp)


def pairing_of(
    table: int,
    p1: str,
    p2: str | None,
    players: Sequence[PlayerRecord],
    *,
    tp: Mapping[str, int] = SR2019_TP,
) -> Pairing:
    """A pairing as the EO made or changed it (a swap): whoever has more TP than their
    opponent is paired down (RP2), so the record that stops a second pair-down is kept."""
    if p2 is None:
        return Pairing(table, p1, None)
    records = by_id(players)
    points = [records[i].points(tp) if i in records else 0 for i in (p1, p2)]
    down = None if points[0] == points[1] else p1 if points[0] > points[1] else p2
    return Pairing(table, p1, p2, down)


def _first_round(ids: list[str], rng: random.Random) -> list[Pairing]:
    """RP2/RP3: random pairings and, for an odd count, a random bye."""
    rng.shuffle(ids)
    bye = ids.pop() if len(ids) % 2 else None
    games = [Pairing(n + 1, ids[2 * n], ids[2 * n + 1]) for n in range(len(ids) // 2)]
    return games + _bye(bye)


def _bye(player_id: str | None) -> list[Pairing]:
    return [] if player_id is None else [Pairing(BYE_TABLE, player_id, None)]


@dataclass(frozen=True, slots=True)
class _Field:
    """What the weights need to know about the players of one round."""

    players: Mapping[str, PlayerRecord]
    points: Mapping[str, int]
    group: Mapping[str, int]  # 0 is the top TP group
    bye_level: Mapping[str, int]  # 0 is the lowest TP among players without a bye
    units: tuple[int, ...]  # one unit of each criterion, in the module's order

    @classmethod
    def of(cls, active: Sequence[PlayerRecord], tp: Mapping[str, int]) -> _Field:
        points = {p.id: p.points(tp) for p in active}
        tops = sorted(set(points.values()), reverse=True)
        fresh = sorted({points[p.id] for p in active if not p.had_bye}) or tops[::-1]
        pairs = (len(active) + 1) // 2
        rounds = max(len(p.rounds) for p in active)
        most = (
            max(p.bye_count for p in active),
            pairs * rounds,  # games already played between the two, summed
            pairs * rounds,  # earlier pair-downs of the player paired down, summed
            len(tops),
            pairs * (len(tops) - 1) ** 2,
            pairs * _CHANCE,
        )
        return cls(
            players={p.id: p for p in active},
            points=points,
            group={i: tops.index(v) for i, v in points.items()},
            bye_level={i: bisect_left(fresh, v) for i, v in points.items()},
            units=_units(most),
        )

    def pair_cost(self, a: str, b: str, chance: int) -> int:
        met = self.players[a].opponents.count(b)
        gap = abs(self.group[a] - self.group[b])
        high = a if self.points[a] > self.points[b] else b
        downs = self.players[high].paired_down_count if gap else 0
        return self._cost(0, met, downs, 0, gap * gap, chance)

    def bye_cost(self, player_id: str, chance: int) -> int:
        player = self.players[player_id]
        return self._cost(player.bye_count, 0, 0, self.bye_level[player_id], 0, chance)

    def _cost(self, *criteria: int) -> int:
        return sum(unit * count for unit, count in zip(self.units, criteria, strict=True))


def _units(maxima: Sequence[int]) -> tuple[int, ...]:
    """Lexicographic weights: one unit of a criterion outweighs the most of all below it."""
    units: list[int] = []
    unit = 1
    for most in reversed(maxima):
        units.append(unit)
        unit *= most + 1
    return tuple(reversed(units))


def _later_round(
    active: list[PlayerRecord], rng: random.Random, tp: Mapping[str, int]
) -> list[Pairing]:
    field = _Field.of(active, tp)
    ids = [p.id for p in active]
    costs = {(a, b): field.pair_cost(a, b, rng.randrange(_CHANCE)) for a, b in combinations(ids, 2)}
    if len(ids) % 2:
        costs |= {(i, _BYE): field.bye_cost(i, rng.randrange(_CHANCE)) for i in ids}
    ceiling = max(costs.values()) + 1
    # Imported here: a tenth of a second off every server start (a restart mid-round).
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, ceiling - cost) for (a, b), cost in costs.items())
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    seats = {player_id: rng.random() for player_id in ids}
    return _tables(field, [(str(a), str(b)) for a, b in matched], seats)


def _tables(
    field: _Field, matched: list[tuple[str, str]], seats: Mapping[str, float]
) -> list[Pairing]:
    """Order each pair by TP and number the tables from the top TP pairs down."""
    bye: str | None = None
    games: list[tuple[str, str]] = []
    for a, b in matched:
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            continue
        high, low = sorted((a, b), key=lambda i: (-field.points[i], seats[i]))
        games.append((high, low))
    games.sort(key=lambda g: (-field.points[g[0]], -field.points[g[1]], seats[g[0]]))
    tables = [
        Pairing(n, high, low, high if field.points[high] > field.points[low] else None)
        for n, (high, low) in enumerate(games, start=1)
    ]
    return tables + _bye(bye)
