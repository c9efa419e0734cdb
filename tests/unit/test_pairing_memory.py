"""Pairings with a memory: round 1 keeps a club's players apart (RP2), fresh tables,
the world finals seeding by qualifier points (RP5), and the notes that say why."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from app.domain.pairing import Memory, PairedRound, Pairing, pair_with_notes
from app.domain.standings import PlayerRecord

from .test_standings import history

SEEDS = range(30)


def field(count: int) -> list[PlayerRecord]:
    return [PlayerRecord(f"p{n:03d}", f"Player {n + 1}") for n in range(count)]


def clashes(pairings: Sequence[Pairing], clubs: Mapping[str, str]) -> int:
    return sum(
        1
        for p in pairings
        if p.p2 is not None and clubs.get(p.p1) and clubs.get(p.p1) == clubs.get(p.p2)
    )


def everyone_once(players: Sequence[PlayerRecord], pairings: Sequence[Pairing]) -> bool:
    seated = [x for p in pairings for x in (p.p1, p.p2) if x is not None]
    return sorted(seated) == sorted(p.id for p in players)


def round_one(players: Sequence[PlayerRecord], clubs: Mapping[str, str], seed: int) -> PairedRound:
    return pair_with_notes(players, 1, random.Random(seed), memory=Memory(clubs=clubs))


# --- round 1: clubs apart -------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (8, (2, 2, 2, 2)),  # four clubs of two: every pair of clubmates apart
        (8, (4, 3)),  # half the field in one club: still no clash
        (9, (4, 3, 2)),
        (9, (5, 4)),  # five of one club in nine: the bye takes one of them
        (64, (8,) * 8),
        (64, (32, 20)),  # half the field in one club, twelve without a club
    ],
)
def test_round_one_keeps_every_club_apart_where_it_can__RP2(
    count: int, sizes: tuple[int, ...]
) -> None:
    players = field(count)
    clubs = {}
    ids = iter(p.id for p in players)
    for number, size in enumerate(sizes):
        clubs |= {next(ids): f"Club {number}" for _ in range(size)}
    outcomes = set()
    for seed in SEEDS:
        paired = round_one(players, clubs, seed)
        assert everyone_once(players, paired.pairings)
        assert clashes(paired.pairings, clubs) == 0
        assert paired.notes == []
        assert paired == round_one(players, clubs, seed)  # deterministic for a given rng
        outcomes.add(frozenset(frozenset((p.p1, p.p2)) for p in paired.pairings))
    assert len(outcomes) > len(SEEDS) // 2  # and random otherwise


def test_round_one_without_clubs_is_the_plain_shuffle__RP2() -> None:
    players = field(9)
    for seed in SEEDS:
        ids = sorted(p.id for p in players)
        random.Random(seed).shuffle(ids)
        expected = [(ids[n], ids[n + 1]) for n in range(0, 8, 2)] + [(ids[8], None)]
        paired = round_one(players, {}, seed)
        assert [(p.p1, p.p2) for p in paired.pairings] == expected
        assert [p.table for p in paired.pairings] == [1, 2, 3, 4, 0]


def test_round_one_says_which_clubmates_meet_when_all_are_one_club__RP2() -> None:
    players = field(6)
    clubs = {p.id: "Iron Kings" for p in players}
    names = {p.id: p.name for p in players}
    outcomes = set()
    for seed in SEEDS:
        paired = round_one(players, clubs, seed)
        assert clashes(paired.pairings, clubs) == 3
        assert paired.notes == [
            f"{names[p.p1]} and {names[p.p2 or '']} are both of Iron Kings: "
            "no other pairing kept every club apart"
            for p in paired.pairings
        ]
        outcomes.add(frozenset(frozenset((p.p1, p.p2)) for p in paired.pairings))
    assert len(outcomes) > 5  # still random


def test_round_one_with_three_of_four_in_one_club_has_one_clash_and_says_it__RP2() -> None:
    players = [PlayerRecord(i, n) for i, n in (("a", "Ann"), ("b", "Bob"), ("c", "Cid"))]
    players.append(PlayerRecord("d", "Dee"))
    clubs = {"a": "Iron Kings", "b": "Iron Kings", "c": "Iron Kings"}
    partners = Counter()
    for seed in SEEDS:
        paired = round_one(players, clubs, seed)
        assert clashes(paired.pairings, clubs) == 1
        (note,) = paired.notes
        clash = next(p for p in paired.pairings if "d" not in (p.p1, p.p2))
        names = {"a": "Ann", "b": "Bob", "c": "Cid"}
        assert note == (
            f"{names[clash.p1]} and {names[clash.p2 or '']} are both of Iron Kings: "
            "no other pairing kept every club apart"
        )
        partners[
            next(p.p1 if p.p2 == "d" else p.p2 for p in paired.pairings if "d" in (p.p1, p.p2))
        ] += 1
    assert set(partners) == {"a", "b", "c"}  # Dee meets any of the three


def test_round_one_the_unavoidable_clashes_are_the_fewest__RP2() -> None:
    players = field(64)
    clubs = {p.id: "Big Club" for p in players[:40]} | {p.id: "Small" for p in players[40:48]}
    for seed in range(5):
        paired = round_one(players, clubs, seed)
        assert clashes(paired.pairings, clubs) == 40 - 32  # the extra eight meet each other
        assert len(paired.notes) == 8


# --- fresh tables ---------------------------------------------------------------


def test_fresh_tables_move_a_game_off_a_table_a_player_sat_at() -> None:
    players = history("A>B C>D E>F G>H")
    sat = {"A": {1: 1}, "B": {1: 1}, "C": {2: 1}, "D": {2: 1}}
    sat |= {"E": {3: 1}, "F": {3: 1}, "G": {4: 1}, "H": {4: 1}}
    for seed in SEEDS:
        plain = pair_with_notes(players, 2, random.Random(seed))
        fresh = pair_with_notes(players, 2, random.Random(seed), memory=Memory(sat=sat))
        assert [(p.p1, p.p2) for p in plain.pairings] != [] and fresh.notes == []
        pairs = {frozenset((p.p1, p.p2)) for p in fresh.pairings}
        assert pairs == {frozenset((p.p1, p.p2)) for p in plain.pairings}  # same games
        for p in fresh.pairings:
            assert p.table not in sat[p.p1] and p.table not in sat[p.p2 or ""]
        assert sorted(p.table for p in fresh.pairings) == [1, 2, 3, 4]


def test_fresh_tables_keep_the_top_tables_order_when_nobody_repeats() -> None:
    players = history("A>B C>D E>F G>H")
    sat = {"A": {4: 1}, "B": {4: 1}, "C": {3: 1}, "D": {3: 1}}
    sat |= {"E": {2: 1}, "F": {2: 1}, "G": {1: 1}, "H": {1: 1}}
    for seed in SEEDS:
        plain = pair_with_notes(players, 2, random.Random(seed))
        fresh = pair_with_notes(players, 2, random.Random(seed), memory=Memory(sat=sat))
        if all(p.table not in sat[p.p1] and p.table not in sat[p.p2 or ""] for p in plain.pairings):
            assert fresh.pairings == plain.pairings


def test_fresh_tables_say_who_must_sit_at_a_table_again() -> None:
    players = [PlayerRecord("a", "Ann"), PlayerRecord("b", "Bob")]
    paired = pair_with_notes(players, 1, random.Random(1), memory=Memory(sat={"a": {1: 3}}))
    assert paired.pairings[0].table == 1
    assert paired.notes == [
        "Ann plays at table 1 again (as in round 3): no other seating kept everyone off a "
        "table they had played at"
    ]


# --- RP5: world finals seeding ----------------------------------------------------

NINE = ["Ada", "Ben", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def seeded(names: Sequence[str], qps: Sequence[int]) -> tuple[list[PlayerRecord], Memory]:
    # ids in reverse alphabetical order, so nothing follows from the input or id order
    players = [PlayerRecord(f"z{9 - n}", name) for n, name in enumerate(names)]
    return players, Memory(seeds={p.id: q for p, q in zip(players, qps, strict=True)})


def test_world_final_round_one_pairs_first_against_last__RP5() -> None:
    qps = [31, 12, 27, 10, 45, 17, 22, 14, 38]  # ranked: Eli Ivy Ada Cal Gus Fay Hal Ben Dot
    players, memory = seeded(NINE, qps)
    ids = {p.name: p.id for p in players}
    for seed in SEEDS:
        paired = pair_with_notes(players, 1, random.Random(seed), memory=memory)
        got = [(p.table, p.p1, p.p2) for p in paired.pairings]
        assert got == [
            (1, ids["Ivy"], ids["Dot"]),  # #2 v #9 (#1 has the bye)
            (2, ids["Ada"], ids["Ben"]),  # #3 v #8
            (3, ids["Cal"], ids["Hal"]),  # #4 v #7
            (4, ids["Gus"], ids["Fay"]),  # #5 v #6
            (0, ids["Eli"], None),  # "the first-ranked player automatically receives the bye"
        ]
        assert "Eli has the bye as the first-ranked player" in paired.notes


def test_world_final_even_field_first_meets_last__RP5() -> None:
    players, memory = seeded(NINE[:4], [10, 40, 20, 30])  # ranked: Ben Dot Cal Ada
    ids = {p.name: p.id for p in players}
    paired = pair_with_notes(players, 1, random.Random(0), memory=memory)
    got = [(p.table, p.p1, p.p2) for p in paired.pairings]
    assert got == [(1, ids["Ben"], ids["Ada"]), (2, ids["Dot"], ids["Cal"])]


def test_world_final_equal_qps_ranked_by_a_draw_said_in_the_notes__RP5() -> None:
    players, memory = seeded(NINE[:4], [20, 20, 20, 10])
    ids = {p.name: p.id for p in players}
    order = sorted(["Ada", "Ben", "Cal"], key=lambda n: ids[n])  # the draw: Cal, Ben, Ada
    for seed in SEEDS:
        paired = pair_with_notes(players, 1, random.Random(seed), memory=memory)
        got = [(p.p1, p.p2) for p in paired.pairings]
        assert got == [(ids[order[0]], ids["Dot"]), (ids[order[1]], ids[order[2]])]
        assert (
            f"{order[0]}, {order[1]} and {order[2]} have 20 qualifier points each: "
            "a draw ranks them in that order"
        ) in paired.notes


def test_world_final_later_rounds_pair_by_tp_then_first_seed_against_last__RP5() -> None:
    # Round 1 by the seeding (A is #1 ... H is #8): A-H, B-G, C-F, D-E; A, G, C, E win.
    players = history("A>H G>B C>F E>D")
    memory = Memory(seeds={p.id: 80 - 10 * "ABCDEFGH".index(p.id) for p in players})
    for seed in SEEDS:
        paired = pair_with_notes(players, 2, random.Random(seed), memory=memory)
        pairs = [(p.p1, p.p2) for p in paired.pairings]
        # 1 TP: A C E G ranked -> A v G, C v E; 0 TP: B D F H -> B v H, D v F
        assert {frozenset(p) for p in pairs} == {
            frozenset("AG"),
            frozenset("CE"),
            frozenset("BH"),
            frozenset("DF"),
        }


def test_world_final_odd_group_sends_its_last_seed_down_to_the_next_groups_last__RP5() -> None:
    # Seeds: A the most QPs ... F the fewest. After round 1, A B C on 1 TP, D E F on 0.
    players = history("A>F B>E C>D")
    memory = Memory(seeds={p.id: 60 - 10 * "ABCDEF".index(p.id) for p in players})
    for seed in SEEDS:
        paired = pair_with_notes(players, 2, random.Random(seed), memory=memory)
        # 1 TP, ranked A B C: odd, so its last (C) goes down (RP2's "last player") and
        # heads the 0 TP bracket C D E F, whose first meets its last: C v F, D v E.
        got = [(p.table, frozenset((p.p1, p.p2)), p.paired_down) for p in paired.pairings]
        assert got == [
            (1, frozenset("AB"), None),
            (2, frozenset("CF"), "C"),
            (3, frozenset("DE"), None),
        ]
        assert paired.notes == [
            "Player C is paired down from the 1 TP group to play Player F (0 TP): "
            "the 1 TP group had an odd number of players to pair"
        ]


def test_world_final_later_bye_by_the_usual_rules_then_the_seeding__RP5() -> None:
    # Seeds A the most ... G the fewest; after round 1 (A had the bye) A B C D are on
    # 1 TP, E F G on 0.
    players = history("A+ B>F C>G D>E")
    memory = Memory(seeds={p.id: 70 - 10 * "ABCDEFG".index(p.id) for p in players})
    byes = Counter()
    for seed in SEEDS:
        paired = pair_with_notes(players, 2, random.Random(seed), memory=memory)
        bye = paired.pairings[-1]
        assert bye.p2 is None and bye.p1 in "EFG"  # RP3: random among the lowest TP
        byes[bye.p1] += 1
        # 1 TP ranked A B C D: A v D, B v C; the two 0 TP players left meet.
        assert {frozenset((p.p1, p.p2)) for p in paired.pairings[:-1]} == {
            frozenset("AD"),
            frozenset("BC"),
            frozenset(set("EFG") - {bye.p1}),
        }
    assert set(byes) == set("EFG")
