"""Pairings (RP2), byes (RP3) and drops (RP7): hand-computed histories and
property tests over random events played with `pair_round` itself."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.errors import BadInput, RuleError
from app.domain.pairing import BYE_TABLE, Pairing, PairingImpossible, pair_round, pairing_of
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, standings
from app.domain.tournament import round_count

from .test_standings import history

SEEDS = range(40)


def pairs(pairings: Sequence[Pairing]) -> set[frozenset[str]]:
    return {frozenset((p.p1, p.p2)) for p in pairings if p.p2 is not None}


def bye_of(pairings: Sequence[Pairing]) -> str | None:
    return next((p.p1 for p in pairings if p.p2 is None), None)


def rematches(players: Sequence[PlayerRecord], pairings: Sequence[Pairing]) -> int:
    met = {p.id: set(p.opponents) for p in players}
    return sum(1 for p in pairings if p.p2 is not None and p.p2 in met[p.p1])


def second_pair_downs(players: Sequence[PlayerRecord], pairings: Sequence[Pairing]) -> int:
    before = {p.id: p.paired_down_count for p in players}
    return sum(1 for p in pairings if p.paired_down is not None and before[p.paired_down] > 0)


# --- round 1 ------------------------------------------------------------------


def test_round_one_pairs_everyone_at_random__RP2() -> None:
    players = [PlayerRecord(i, f"Player {i}") for i in "ABCD"]
    seen = Counter(frozenset(pairs(pair_round(players, 1, random.Random(s)))) for s in SEEDS)
    assert len(seen) == 3  # all three ways to pair four players occur
    for pairing in seen:
        assert set().union(*pairing) == set("ABCD")


def test_round_one_tables_numbered_from_one__RP2() -> None:
    players = [PlayerRecord(str(i), f"Player {i}") for i in range(8)]
    assert [p.table for p in pair_round(players, 1, random.Random(3))] == [1, 2, 3, 4]


def test_round_one_bye_is_random_and_listed_last_on_table_zero__RP3() -> None:
    players = [PlayerRecord(i, f"Player {i}") for i in "ABCDE"]
    byes = Counter()
    for seed in SEEDS:
        pairings = pair_round(players, 1, random.Random(seed))
        assert pairings[-1].p2 is None and pairings[-1].table == BYE_TABLE
        assert [p.table for p in pairings[:-1]] == [1, 2]
        byes[pairings[-1].p1] += 1
    assert set(byes) == set("ABCDE")


def test_same_seed_same_pairings_whatever_the_input_order__RP2() -> None:
    players = history("A>B C>D E>F G=H", "A>C E>B D>G F>H")
    shuffled = list(reversed(players))
    for seed in SEEDS:
        assert pair_round(players, 3, random.Random(seed)) == pair_round(
            shuffled, 3, random.Random(seed)
        )


# --- later rounds -------------------------------------------------------------


def test_players_meet_others_on_the_same_tp__RP2() -> None:
    players = history("A>B C>D")  # A, C on 1 TP; B, D on 0
    for seed in SEEDS:
        pairings = pair_round(players, 2, random.Random(seed))
        assert pairs(pairings) == {frozenset("AC"), frozenset("BD")}
        assert all(p.paired_down is None for p in pairings)
        assert pairings[0].table == 1 and set(pairings[0].p1 + pairings[0].p2) == set("AC")


def test_odd_group_pairs_one_player_down_to_the_next_group__RP2() -> None:
    players = history("A>D B>E C>F")  # 1 TP: A, B, C; 0 TP: D, E, F
    downs = Counter()
    for seed in SEEDS:
        pairings = pair_round(players, 2, random.Random(seed))
        assert rematches(players, pairings) == 0
        (down,) = [p for p in pairings if p.paired_down is not None]
        assert down.paired_down == down.p1 and down.p1 in "ABC" and down.p2 in "DEF"
        assert down.table == 2  # between the 1-TP pair (table 1) and the 0-TP pair
        downs[down.p1] += 1
    assert set(downs) == set("ABC")  # who is paired down is left to chance


def test_no_rematch_even_across_a_wider_gap__RP2() -> None:
    # TP: A 2, B 1, C 1, D 0. A has met B and C: only D is left for A.
    players = history("A>B C>D", "A>C B>D")
    for seed in SEEDS:
        pairings = pair_round(players, 3, random.Random(seed))
        assert pairs(pairings) == {frozenset("AD"), frozenset("BC")}
        assert pairings[0] == Pairing(1, "A", "D", "A")


def test_rematch_only_when_nothing_else_is_left__RP2() -> None:
    # Four players, three rounds: everyone has met everyone.
    players = history("A>B C>D", "A>C B>D", "A>D B>C")
    pairings = pair_round(players, 4, random.Random(1))
    assert set().union(*pairs(pairings)) == set("ABCD")
    assert rematches(players, pairings) == 2


def test_nobody_paired_down_twice__RP2() -> None:
    # Round 2: C (1 TP) was paired down against D and lost.
    # TP now: A 2; B, C, D, F 1; E 0. A is paired down; one of B, C, D, F must
    # play E. E has met B and F; C was already paired down: only D can go down.
    players = history("A>D B>E C>F", "A>B C<D F>E")
    assert next(p for p in players if p.id == "C").paired_down_count == 1
    for seed in SEEDS:
        pairings = pair_round(players, 3, random.Random(seed))
        assert rematches(players, pairings) == 0
        assert frozenset("DE") in pairs(pairings)
        assert {p.paired_down for p in pairings} - {None} == {"A", "D"}


def greedy_top_down(players: Sequence[PlayerRecord]) -> list[tuple[str, str]] | None:
    """The pass a hurried EO makes down the standings: each player takes the next
    one they have not met. None when the last players have all met already."""
    met = {p.id: set(p.opponents) for p in players}
    left = [s.player_id for s in standings(players)]
    done: list[tuple[str, str]] = []
    while left:
        first = left.pop(0)
        partner = next((o for o in left if o not in met[first]), None)
        if partner is None:
            return None
        left.remove(partner)
        done.append((first, partner))
    return done


def test_finds_the_pairing_a_greedy_pass_misses__RP2() -> None:
    # Round 1: A>B, C>D, E>F, G and H tie. Round 2: A>C; E paired down, beat B;
    # D>G; F>H. TP: A 2, E 2; C, D, F 1; B, G, H 0. Standings order:
    # A E | C F D | B G H. Greedy: A-E, C-F, D-B, and G-H (met in round 1) is stuck.
    players = history("A>B C>D E>F G=H", "A>C E>B D>G F>H")
    assert greedy_top_down(players) is None
    legal = [
        {frozenset("AE"), frozenset("CF"), frozenset("DH"), frozenset("BG")},
        {frozenset("AE"), frozenset("DF"), frozenset("CG"), frozenset("BH")},
        {frozenset("AE"), frozenset("DF"), frozenset("CH"), frozenset("BG")},
    ]
    found = Counter()
    for seed in SEEDS:
        pairings = pair_round(players, 3, random.Random(seed))
        assert pairs(pairings) in legal
        assert pairings[0].table == 1 and {pairings[0].p1, pairings[0].p2} == set("AE")
        found[legal.index(pairs(pairings))] += 1
    assert len(found) == 3  # each legal pairing is reachable


def test_pairings_list_the_higher_tp_player_first_and_tables_from_the_top__RP2() -> None:
    players = history("A>B C>D E>F G=H", "A>C E>B D>G F>H")
    points = {p.id: p.tp for p in players}
    pairings = pair_round(players, 3, random.Random(7))
    assert [p.table for p in pairings] == [1, 2, 3, 4]
    tops = [(points[p.p1], points[p.p2 or ""]) for p in pairings]
    assert tops == sorted(tops, reverse=True)
    assert all(points[p.p1] >= points[p.p2 or ""] for p in pairings)


# --- byes ---------------------------------------------------------------------


def test_bye_goes_to_lowest_tp_without_bye__RP3() -> None:
    players = history("A>B C>D E+")  # 1 TP: A, C, E; 0 TP: B, D
    byes = Counter(bye_of(pair_round(players, 2, random.Random(s))) for s in SEEDS)
    assert set(byes) == {"B", "D"}  # a random one of the lowest


def test_bye_skips_players_who_had_one__RP3() -> None:
    # TP: C 3; D 2, E 2; A 1, B 1. A, B and E had their byes: D, the lowest without one.
    players = history("A<C B+ D>E", "A<D B<C E+", "A+ B<E C>D")
    for seed in SEEDS:
        pairings = pair_round(players, 4, random.Random(seed))
        assert bye_of(pairings) == "D"
        assert pairs(pairings) == {frozenset("CE"), frozenset("AB")}


def test_the_bye_stays_with_the_lowest_tp_though_someone_is_paired_down_twice__RP3() -> None:
    # TP: A 3; C 2, E 2; B 1, D 1. Byes: E, B, D; still without one: A, C. The EO
    # "selects a player from those with the lowest tournament point totals" (RP3): C,
    # the only one on 2 TP without a bye, though the round then pairs E down again (A has
    # met B and E: A-D, E-B), where the bye to the leader would not (a pair-down only
    # "should not" happen twice). Before, the bye went to A, the leader: a free win.
    players = history("A>B C>D E+", "A>C B+ E>D", "A>E C>B D+")
    for seed in SEEDS:
        pairings = pair_round(players, 4, random.Random(seed))
        assert bye_of(pairings) == "C"
        assert pairs(pairings) == {frozenset("AD"), frozenset("BE")}


def test_the_bye_stays_with_the_lowest_tp_though_it_forces_a_rematch__RP3() -> None:
    # D, E, F drop after round 2. A (2 TP) has met B and C (1 TP each): a bye to B or C
    # makes A meet the other again, which only "should not" happen; the bye's recipient
    # is drawn among the lowest TP (RP3), never the leader for want of an opponent.
    players = history("A>B C>D E>F", "A>C B>E D>F", dropped="DEF")
    byes = set()
    for seed in SEEDS:
        pairings = pair_round(players, 3, random.Random(seed))
        byes.add(bye_of(pairings))
        assert pairs(pairings) == {frozenset({"A", *({"B", "C"} - {bye_of(pairings)})})}
    assert byes == {"B", "C"}  # drawn among them


def test_second_bye_only_when_everyone_had_one__RP3() -> None:
    players = history("A>B C+", "A>C B+", "B>C A+")  # TP: A 3, B 2, C 1
    pairings = pair_round(players, 4, random.Random(0))
    assert bye_of(pairings) == "C"  # everyone had a bye: the lowest TP gets the second


def test_no_bye_for_an_even_count__RP3() -> None:
    players = history("A>B C+", also="D")
    assert bye_of(pair_round(players, 2, random.Random(0))) is None


# --- drops --------------------------------------------------------------------


def test_dropped_players_are_not_paired__RP7() -> None:
    players = history("A>B C>D E>F", dropped="C")
    for seed in SEEDS:
        pairings = pair_round(players, 2, random.Random(seed))
        seated = {p.p1 for p in pairings} | {p.p2 for p in pairings if p.p2}
        assert seated == set("ABDEF")
        assert bye_of(pairings) in {"B", "D", "F"}


def test_fewer_than_two_players_cannot_be_paired__RP2() -> None:
    with pytest.raises(PairingImpossible, match="at least two"):
        pair_round(history("A>B", dropped="B"), 2, random.Random(0))
    with pytest.raises(RuleError):
        pair_round([], 1, random.Random(0))


def test_round_numbers_start_at_one__RP2() -> None:
    with pytest.raises(BadInput):
        pair_round(history("A>B"), 0, random.Random(0))


# --- property tests over random events ----------------------------------------


def play_event(size: int, rounds: int, seed: int, drops: bool) -> list[PlayerRecord]:
    """`rounds` rounds paired by `pair_round`, random results (5% ties), a few drops."""
    rng = random.Random(seed)
    players = {f"p{n:02}": PlayerRecord(f"p{n:02}", f"Player {n}") for n in range(size)}
    for number in range(1, rounds + 1):
        for pairing in pair_round(list(players.values()), number, rng):
            for player_id, record in _records(number, pairing, rng):
                player = players[player_id]
                players[player_id] = replace(player, rounds=(*player.rounds, record))
        active = [p for p in players.values() if not p.dropped]
        if drops and len(active) > 4 and rng.random() < 0.3:
            quitter = rng.choice(active)
            players[quitter.id] = replace(quitter, dropped=True)
    return list(players.values())


def _records(number: int, pairing: Pairing, rng: random.Random) -> list[tuple[str, RoundRecord]]:
    if pairing.p2 is None:
        return [(pairing.p1, RoundRecord(number, None, Outcome.BYE, 3, 38))]
    roll = rng.random()
    first, second = (
        (Outcome.TIE, Outcome.TIE)
        if roll < 0.05
        else (Outcome.WIN, Outcome.LOSS)
        if roll < 0.525
        else (Outcome.LOSS, Outcome.WIN)
    )
    return [
        (me, RoundRecord(number, them, outcome, 0, 0, paired_down=pairing.paired_down == me))
        for me, them, outcome in (
            (pairing.p1, pairing.p2, first),
            (pairing.p2, pairing.p1, second),
        )
    ]


@st.composite
def events(draw: st.DrawFn) -> tuple[list[PlayerRecord], int, int]:
    """A random event after k rounds, the next round's number and a pairing seed."""
    size = draw(st.integers(4, 40))
    rounds = draw(st.integers(1, round_count(size)))
    played = play_event(size, rounds, draw(st.integers(0, 2**32 - 1)), draw(st.booleans()))
    return played, rounds + 1, draw(st.integers(0, 2**32 - 1))


Allowed = Callable[[str, str], bool]


def perfect_pairing_exists(ids: Sequence[str], allowed: Allowed, bye_from: Sequence[str]) -> bool:
    """Independent check: can `ids` all be seated using only allowed pairs (and, for
    an odd count, a bye to one of `bye_from`)? Brute force up to 12 players."""
    if len(ids) % 2:
        return any(
            perfect_pairing_exists([i for i in ids if i != c], allowed, ()) for c in bye_from
        )
    if len(ids) > 12:
        graph = nx.Graph()
        graph.add_nodes_from(ids)
        graph.add_edges_from(
            (a, b) for n, a in enumerate(ids) for b in ids[n + 1 :] if allowed(a, b)
        )
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ids)

    @cache
    def seat(left: frozenset[str]) -> bool:
        if not left:
            return True
        first = min(left)
        return any(allowed(first, o) and seat(left - {first, o}) for o in left - {first})

    return seat(frozenset(ids))


class Rules:
    """What the rules say about one field of players, computed without the pairer."""

    def __init__(self, players: Sequence[PlayerRecord]) -> None:
        self.active = [p for p in players if not p.dropped]
        self.ids = [p.id for p in self.active]
        self.tp = {p.id: p.tp for p in self.active}
        self.met = {p.id: set(p.opponents) for p in self.active}
        self.downs = {p.id: p.paired_down_count for p in self.active}
        fresh = [p.id for p in self.active if not p.had_bye]
        self.bye_pool = fresh or self.ids
        lowest = min(self.tp[i] for i in self.bye_pool)
        self.lowest = [i for i in self.bye_pool if self.tp[i] == lowest]

    def new(self, a: str, b: str) -> bool:
        return b not in self.met[a]

    def down_again(self, a: str, b: str) -> bool:
        """The pair would pair a player down a second time."""
        high = a if self.tp[a] > self.tp[b] else b
        return self.tp[a] != self.tp[b] and self.downs[high] > 0

    def legal(self, a: str, b: str) -> bool:
        return self.new(a, b) and not self.down_again(a, b)

    def exists(self, allowed: Allowed, bye_from: Sequence[str] | None = None) -> bool:
        pool = self.bye_pool if bye_from is None else bye_from
        return perfect_pairing_exists(self.ids, allowed, pool)


PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(events())
def test_every_active_player_is_seated_exactly_once__RP2(
    event: tuple[list[PlayerRecord], int, int],
) -> None:
    players, number, seed = event
    rules = Rules(players)
    pairings = pair_round(players, number, random.Random(seed))
    seated = [p.p1 for p in pairings] + [p.p2 for p in pairings if p.p2 is not None]
    assert sorted(seated) == sorted(rules.ids)
    assert sum(1 for p in pairings if p.p2 is None) == len(rules.ids) % 2
    assert [p.table for p in pairings] == [*range(1, len(rules.ids) // 2 + 1), BYE_TABLE][
        : len(pairings)
    ]
    for p in pairings:
        if p.p2 is not None:
            assert rules.tp[p.p1] >= rules.tp[p.p2]
            assert p.paired_down == (p.p1 if rules.tp[p.p1] > rules.tp[p.p2] else None)


@PROPERTY
@given(events())
def test_no_rematch_when_one_can_be_avoided__RP2(
    event: tuple[list[PlayerRecord], int, int],
) -> None:
    players, number, seed = event
    rules = Rules(players)
    pairings = pair_round(players, number, random.Random(seed))
    if rules.exists(rules.new, rules.lowest):  # the bye is the lowest TP's first (RP3)
        assert rematches(players, pairings) == 0


@PROPERTY
@given(events())
def test_nobody_paired_down_twice_when_avoidable__RP2(
    event: tuple[list[PlayerRecord], int, int],
) -> None:
    players, number, seed = event
    rules = Rules(players)
    pairings = pair_round(players, number, random.Random(seed))
    if rules.exists(rules.legal, rules.lowest):  # the bye is the lowest TP's first (RP3)
        assert rematches(players, pairings) == 0
        assert second_pair_downs(players, pairings) == 0


@PROPERTY
@given(events())
def test_bye_to_the_lowest_tp_without_one_and_never_twice__RP3(
    event: tuple[list[PlayerRecord], int, int],
) -> None:
    players, number, seed = event
    rules = Rules(players)
    bye = bye_of(pair_round(players, number, random.Random(seed)))
    if len(rules.ids) % 2 == 0:
        assert bye is None
        return
    assert bye in rules.bye_pool  # never a second bye while someone has had none
    assert bye in rules.lowest  # "from those with the lowest tournament point totals"


def rule_costs(
    players: Sequence[PlayerRecord], pairs_played: Sequence[tuple[str, str]], bye: str | None
) -> tuple[int, int, int, int]:
    """The rules' order: byes beyond the first, the bye's TP rank among the TP totals
    of players without a bye, games between the pair already played, and earlier
    pair-downs of whoever is paired down. Each is zero when obeyed."""
    rules = Rules(players)
    by = {p.id: p for p in players}
    fresh = sorted({rules.tp[i] for i in rules.bye_pool})
    return (
        0 if bye is None else by[bye].bye_count,
        0 if bye is None else sum(1 for v in fresh if v < rules.tp[bye]),
        sum(by[a].opponents.count(b) for a, b in pairs_played),
        sum(
            by[max(a, b, key=rules.tp.__getitem__)].paired_down_count
            for a, b in pairs_played
            if rules.tp[a] != rules.tp[b]
        ),
    )


def every_round(ids: Sequence[str]) -> list[tuple[list[tuple[str, str]], str | None]]:
    """Every way to seat `ids`: all perfect pairings, with each possible bye."""

    def seatings(left: list[str]) -> list[list[tuple[str, str]]]:
        if not left:
            return [[]]
        first, rest = left[0], left[1:]
        return [
            [(first, other), *more]
            for other in rest
            for more in seatings([i for i in rest if i != other])
        ]

    if len(ids) % 2 == 0:
        return [(seating, None) for seating in seatings(list(ids))]
    return [(seating, bye) for bye in ids for seating in seatings([i for i in ids if i != bye])]


@PROPERTY
@given(st.integers(4, 9), st.integers(1, 5), st.integers(0, 2**32 - 1), st.booleans())
def test_small_fields_get_the_best_round_the_rules_allow__RP2(
    size: int, rounds: int, seed: int, drops: bool
) -> None:
    players = play_event(size, rounds, seed, drops)
    ids = [p.id for p in players if not p.dropped]
    best = min(rule_costs(players, seating, bye) for seating, bye in every_round(ids))
    pairings = pair_round(players, rounds + 1, random.Random(seed))
    played = [(p.p1, p.p2) for p in pairings if p.p2 is not None]
    assert rule_costs(players, played, bye_of(pairings)) == best


def test_a_changed_pairing_keeps_who_is_paired_down__RP2() -> None:
    """The EO swaps players: the one with more TP than their new opponent is paired down."""
    players = history("A>B C>D E>F")
    assert pairing_of(2, "A", "D", players).paired_down == "A"
    assert pairing_of(2, "D", "A", players).paired_down == "A"
    assert pairing_of(1, "A", "C", players).paired_down is None
    assert pairing_of(3, "B", "D", players).paired_down is None
    assert pairing_of(0, "F", None, players) == Pairing(0, "F", None, None)
