"""Pairings for a round (RP2, RP3, RP5); dropped players are never paired (RP7).

Round 1 shuffles the player record sheets and keeps each club's players apart where it
can (`app.domain.clubs`); a world final's seeding pairs it instead (RP5,
`app.domain.seeding`). From round 2 on, the round is one
maximum-weight perfect matching over every possible pair (and the bye, as one
more node when the count is odd). Each criterion below outweighs all the ones
after it together, so a worse choice is only taken when nothing better exists:

1. nobody gets a second bye;
2. the bye goes to the lowest TP group among players without one: the documents' EO
   "selects a player from those with the lowest tournament point totals" (RP3), where
   the two below are only what should not happen;
3. no rematch (and no third meeting where a second would do);
4. nobody is paired down a second time;
5. as few and as small TP gaps as possible, counted in groups and squared, so
   pairs stay in their TP group and a pair-down goes to the next group, not further;
6. at a world final, the seeding (RP5): within a TP group the first-ranked meets the
   last-ranked (the bye is first chosen by the rules above, then the rest paired);
7. chance, from the given `random.Random`.

With the event's fresh tables, the table numbers then keep everyone off a table they
sat at before where they can (`app.domain.fresh_tables`). Every choice the rules had to
make against a wish (a pair-down, a club clash, a rematch, a table again) comes back as
a note in the EO's words.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from app.domain.clubs import clash_notes, keep_apart
from app.domain.errors import BadInput, RuleError
from app.domain.fresh_tables import Sat, number_tables, repeat_notes
from app.domain.pairing_notes import later_notes
from app.domain.seeding import brackets, first_round, seed_cost, seed_order
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


@dataclass(frozen=True, slots=True)
class Memory:
    """What the pairing knows of the players beyond their results."""

    clubs: Mapping[str, str] = field(default_factory=dict)  # "": none
    #: RP5: the qualifier points of each seeded player at a world final.
    seeds: Mapping[str, int] = field(default_factory=dict)
    #: Fresh tables: the tables each player sat at (None: the event does not ask).
    sat: Sat | None = None


@dataclass(frozen=True, slots=True)
class PairedRound:
    pairings: list[Pairing]
    notes: list[str]  # why the pairing chose as it did, in the EO's words


def pair_round(
    players: Sequence[PlayerRecord],
    round_number: int,
    rng: random.Random,
    *,
    tp: Mapping[str, int] = SR2019_TP,
) -> list[Pairing]:
    """Pair every player who has not dropped; deterministic for a given `rng` state."""
    return pair_with_notes(players, round_number, rng, tp=tp).pairings


def pair_with_notes(
    players: Sequence[PlayerRecord],
    round_number: int,
    rng: random.Random,
    *,
    tp: Mapping[str, int] = SR2019_TP,
    memory: Memory | None = None,
) -> PairedRound:
    """The round's pairings with the notes of why; deterministic for a given `rng`."""
    memory = memory or Memory()
    if round_number < 1:
        raise BadInput("rounds are numbered from 1")
    active = [p for p in by_id(players).values() if not p.dropped]
    if len(active) < 2:
        raise PairingImpossible(
            f"{len(active)} player{'s' if len(active) != 1 else ''} left to pair: "
            "a round needs at least two"
        )
    active.sort(key=lambda p: p.id)
    names = {p.id: p.name for p in active}
    seeds = {p.id: memory.seeds[p.id] for p in active if p.id in memory.seeds}
    order: list[str] | None = None
    notes: list[str] = []
    if seeds:  # RP5: a world final
        order, notes = seed_order([p.id for p in active], seeds, names)
    if round_number == 1:
        if order is not None:
            games, bye = first_round(order)
            notes += _seeded_notes(games, bye, memory.clubs, names)
        else:
            games, bye = _first_round([p.id for p in active], rng, memory.clubs, names, notes)
        pairings = [Pairing(n, a, b) for n, (a, b) in enumerate(games, start=1)] + _bye(bye)
    else:
        pairings, later = _later_round(active, rng, tp, order)
        notes += later
    if memory.sat is not None:
        pairings = fresh(pairings, memory.sat, names, notes)
    return PairedRound(pairings, notes)


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


def _first_round(
    ids: list[str],
    rng: random.Random,
    clubs: Mapping[str, str],
    names: Mapping[str, str],
    notes: list[str],
) -> tuple[list[tuple[str, str]], str | None]:
    """RP2/RP3: random pairings and, for an odd count, a random bye; a club's players
    apart where they can be."""
    rng.shuffle(ids)
    games, bye = keep_apart(ids, clubs, rng)
    pairs = [(a, b) for a, b in games]
    notes += clash_notes(pairs, clubs, names)
    return pairs, bye


def _seeded_notes(
    games: list[tuple[str, str]],
    bye: str | None,
    clubs: Mapping[str, str],
    names: Mapping[str, str],
) -> list[str]:
    notes = ["Round 1 follows the seeding: the most qualifier points meet the fewest"]
    if bye is not None:
        notes.append(f"{names[bye]} has the bye as the first-ranked player")
    return notes + clash_notes(games, clubs, names, "the seeding pairs them")


def fresh(
    pairings: list[Pairing],
    sat: Sat,
    names: Mapping[str, str],
    notes: list[str],
    first: int = 1,
) -> list[Pairing]:
    """The games renumbered (from table `first`) so nobody sits at a table they sat at,
    where it can be."""
    games = [p for p in pairings if not p.is_bye]
    seats = [(p.p1, p.p2 or "") for p in games]
    tables = number_tables(seats, sat, first)
    notes += repeat_notes(seats, tables, sat, names)
    numbered = sorted(
        (Pairing(t, p.p1, p.p2, p.paired_down) for p, t in zip(games, tables, strict=True)),
        key=lambda p: p.table,
    )
    return numbered + [p for p in pairings if p.is_bye]


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
    #: RP5: each player's seeding bracket, place in it and its size (empty: not seeded).
    bracket: Mapping[str, tuple[int, int, int]]

    @classmethod
    def of(
        cls,
        active: Sequence[PlayerRecord],
        tp: Mapping[str, int],
        bracket: Mapping[str, tuple[int, int, int]] | None = None,
    ) -> _Field:
        points = {p.id: p.points(tp) for p in active}
        tops = sorted(set(points.values()), reverse=True)
        fresh = sorted({points[p.id] for p in active if not p.had_bye}) or tops[::-1]
        pairs = (len(active) + 1) // 2
        rounds = max(len(p.rounds) for p in active)
        most = (
            max(p.bye_count for p in active),
            len(tops),
            pairs * rounds,  # games already played between the two, summed
            pairs * rounds,  # earlier pair-downs of the player paired down, summed
            pairs * (len(tops) - 1) ** 2,
            pairs * len(active) if bracket else 0,  # how far from the seeding, summed
            pairs * _CHANCE,
        )
        return cls(
            players={p.id: p for p in active},
            points=points,
            group={i: tops.index(v) for i, v in points.items()},
            bye_level={i: bisect_left(fresh, v) for i, v in points.items()},
            units=_units(most),
            bracket=bracket or {},
        )

    def pair_cost(self, a: str, b: str, chance: int) -> int:
        met = self.players[a].opponents.count(b)
        gap = abs(self.group[a] - self.group[b])
        high = a if self.points[a] > self.points[b] else b
        downs = self.players[high].paired_down_count if gap else 0
        seeding = seed_cost(a, b, self.bracket) if self.bracket else 0
        return self._cost(0, 0, met, downs, gap * gap, seeding, chance)

    def bye_cost(self, player_id: str, chance: int) -> int:
        player = self.players[player_id]
        return self._cost(player.bye_count, self.bye_level[player_id], 0, 0, 0, 0, chance)

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


def _match(field: _Field, ids: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """The best pairs by the criteria (the bye as a pair with `_BYE`)."""
    costs = {(a, b): field.pair_cost(a, b, rng.randrange(_CHANCE)) for a, b in combinations(ids, 2)}
    if len(ids) % 2:
        costs |= {(i, _BYE): field.bye_cost(i, rng.randrange(_CHANCE)) for i in ids}
    ceiling = max(costs.values()) + 1
    # Imported here: a tenth of a second off every server start (a restart mid-round).
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, ceiling - cost) for (a, b), cost in costs.items())
    return [(str(a), str(b)) for a, b in nx.max_weight_matching(graph, maxcardinality=True)]


def _later_round(
    active: list[PlayerRecord],
    rng: random.Random,
    tp: Mapping[str, int],
    order: list[str] | None,
) -> tuple[list[Pairing], list[str]]:
    """The matching over the criteria; at a world final, once the bye is chosen by the
    rules, the others are matched again with the seeding (RP5)."""
    field = _Field.of(active, tp)
    ids = [p.id for p in active]
    matched = _match(field, ids, rng)
    if order is not None:
        bye = next((b if a == _BYE else a for a, b in matched if _BYE in (a, b)), None)
        rest = [p for p in active if p.id != bye]
        bracket = brackets([i for i in order if i != bye], field.points)
        matched = _match(_Field.of(rest, tp, bracket), [p.id for p in rest], rng)
        matched += [] if bye is None else [(bye, _BYE)]
    seats = {player_id: rng.random() for player_id in ids}
    pairings = _tables(field, matched, seats)
    games = [(p.p1, p.p2) for p in pairings]
    return pairings, later_notes(games, field.points, field.players, field.group)


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
