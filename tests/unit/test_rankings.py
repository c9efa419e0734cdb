"""Standings variants (ST2): each orders a field differently from the baseline (ST1)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from app.domain.errors import BadInput
from app.domain.method import Method
from app.domain.rankings import RANKINGS, Finals, get_ranking, pair_finals, ranked
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, Standing, standings

Game = tuple[int, str, str, Method, tuple[int, int], tuple[int, int]]


def field(*games: Game, names: str = "") -> list[PlayerRecord]:
    """Games as (round, winner, loser, method, (CP w, l), (APD w, l))."""
    rounds: dict[str, list[RoundRecord]] = {n: [] for n in names}
    for number, winner, loser, method, cp, apd in games:
        sides = ((winner, loser, Outcome.WIN, 0), (loser, winner, Outcome.LOSS, 1))
        for me, them, outcome, i in sides:
            record = RoundRecord(number, them, outcome, cp[i], apd[i], method=method)
            rounds.setdefault(me, []).append(record)
    return [PlayerRecord(id=n, name=n, rounds=tuple(r)) for n, r in sorted(rounds.items())]


def order(rows: Sequence[Standing]) -> str:
    return "".join(r.player_id for r in rows)


S, A, CL = Method.SCENARIO, Method.ASSASSINATION, Method.CLOCK


def test_assassin_scoring_counts_a_clock_win_as_an_assassination__ST2() -> None:
    players = field(
        (1, "A", "C", A, (5, 0), (30, 10)),
        (1, "B", "D", A, (1, 0), (30, 10)),
        (2, "A", "D", S, (5, 0), (30, 10)),
        (2, "B", "C", CL, (1, 0), (30, 10)),  # C's clock ran out: an assassination win for B
    )
    assert order(standings(players)[:2]) == "AB"  # ST1: equal TP and SoS, A has more CP
    rows = ranked(players, get_ranking("assassin"))
    assert order(rows[:2]) == "BA"
    assert [r.assassinations for r in rows[:2]] == [2, 1]


def test_control_point_scoring_puts_cp_before_sos__ST2() -> None:
    players = field(
        (1, "A", "C", S, (1, 0), (10, 10)),
        (1, "B", "D", S, (5, 0), (10, 10)),
        (1, "E", "F", S, (1, 0), (10, 10)),
        (2, "E", "A", S, (1, 0), (10, 10)),
        (2, "C", "B", S, (1, 0), (10, 10)),
        (2, "D", "F", S, (1, 0), (10, 10)),
    )
    base = order(standings(players))
    assert base.index("A") < base.index("B")  # equal TP; A's opponents scored more (SoS)
    variant = order(ranked(players, get_ranking("control")))
    assert variant.index("B") < variant.index("A")  # B scored more CP


def test_destruction_scoring_ranks_by_army_points_destroyed_not_tp__ST2() -> None:
    players = field((1, "A", "B", S, (5, 2), (10, 50)))
    assert order(standings(players)) == "AB"
    rows = ranked(players, get_ranking("destruction"))
    assert order(rows) == "BA" and [r.rank for r in rows] == [1, 2]


def test_finals_tables_decide_first_to_third_and_the_rest_go_by_sos_then_cp__ST2() -> None:
    players = field(
        (1, "B", "A", S, (5, 0), (10, 10)),  # finals table 1: B wins the event, A second
        (1, "C", "D", S, (6, 0), (10, 10)),  # finals table 2: C third
        (1, "E", "F", S, (1, 4), (10, 10)),
    )
    assert order(standings(players)) == "CBEFAD"  # ST1: TP, then CP
    rows = ranked(players, get_ranking("finals"), finals=Finals(1, (("A", "B"), ("C", "D"))))
    # Beyond third: SoS, then CP. D and F faced a winner (SoS 1); E's 1 TP does not count.
    assert order(rows) == "BACFDE"
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_finals_tables_wait_for_both_finals_results__ST2() -> None:
    players = field((1, "B", "A", S, (5, 0), (10, 10)), names="ABCD")
    finals = Finals(1, (("A", "B"), ("C", "D")))
    assert ranked(players, get_ranking("finals"), finals=finals) == standings(players)


def test_finals_tables_pair_one_v_two_and_three_v_four_in_the_last_round__ST2() -> None:
    players = field(
        (1, "A", "E", S, (5, 0), (10, 10)),
        (1, "B", "F", S, (4, 0), (10, 10)),
        (1, "C", "G", S, (3, 0), (10, 10)),
        (1, "D", "H", S, (2, 0), (10, 10)),
        (2, "A", "B", S, (5, 0), (10, 10)),  # A and B have played: they meet again anyway
        (2, "C", "D", S, (3, 0), (10, 10)),
        (2, "E", "F", S, (3, 0), (10, 10)),
        (2, "G", "H", S, (3, 0), (10, 10)),
    )
    top = order(standings(players)[:4])
    pairings = pair_finals(players, 3, random.Random(1), get_ranking("finals")).pairings
    assert [(p.table, p.p1, p.p2) for p in pairings[:2]] == [
        (1, top[0], top[1]),
        (2, top[2], top[3]),
    ]
    rest = pairings[2:]
    assert sorted(p.table for p in rest) == [3, 4]
    assert {x for p in rest for x in (p.p1, p.p2)} == set("ABCDEFGH") - set(top)


def test_every_variant_is_data_and_an_unknown_one_is_refused__ST2() -> None:
    assert set(RANKINGS) == {"baseline", "assassin", "control", "destruction", "finals"}
    assert get_ranking("destruction").keys == ("army_points_destroyed", "control_points", "sos")
    with pytest.raises(BadInput, match="standings variant"):
        get_ranking("fastest")
