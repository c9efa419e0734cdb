"""Runewars 2017 around the tables (RP6, ST5): round counts and cuts, deployments and
objectives, Swiss and elimination pairings, byes, drops and the standings."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.runewars import pairing
from app.domain.runewars.event import Result, RwEvent, drop, pair_next, record, register
from app.domain.runewars.rules import (
    DEPLOYMENTS,
    OBJECTIVES,
    Plan,
    Stage,
    Structure,
    draw_card,
    plan_for,
)
from app.domain.runewars.standings import (
    Entrant,
    Played,
    export_csv,
    standings,
    strength_of_schedule,
)

S = Stage.SWISS


def entrant(pid: str, games: tuple[Played, ...] = (), draw: float = 0.5) -> Entrant:
    return Entrant(pid, pid.upper(), 200, draw, games)


def won(rnd: int, opp: str, tp: int = 8, mov: int = 80) -> Played:
    return Played(rnd, S, opp, True, tp, mov)


def lost(rnd: int, opp: str, tp: int = 3) -> Played:
    return Played(rnd, S, opp, False, tp, 0)


# -- RP6: structures ----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds"), [(4, 2), (8, 2), (9, 3), (32, 3), (33, 4), (48, 4), (49, 5), (300, 5)]
)
def test_basic_structure_rounds_by_attendance__RP6(players: int, rounds: int) -> None:
    assert plan_for(Structure.BASIC, players) == Plan(rounds, 0)


@pytest.mark.parametrize(
    ("players", "plan"),
    [
        (9, Plan(3, 0)),
        (28, Plan(3, 0)),
        (29, Plan(4, 2)),
        (44, Plan(4, 2)),
        (45, Plan(5, 2)),
        (90, Plan(5, 2)),
        (91, Plan(5, 4)),
    ],
)
def test_advanced_structure_rounds_and_cut__RP6(players: int, plan: Plan) -> None:
    assert plan_for(Structure.ADVANCED, players) == plan


def test_structures_refuse_too_few_players_and_odd_cuts__RP6() -> None:
    with pytest.raises(RuleError, match="at least 4"):
        plan_for(Structure.BASIC, 3)
    with pytest.raises(RuleError, match="at least 9"):
        plan_for(Structure.ADVANCED, 8)
    with pytest.raises(BadInput, match="top 2, 4, 8"):
        plan_for(Structure.CUSTOM, 12, rounds=3, cut=3)
    assert plan_for(Structure.CUSTOM, 12, rounds=3, cut=4) == Plan(3, 4)
    assert Plan(3, 4).elimination_rounds == 2 and Plan(5, 2).elimination_rounds == 1


# -- RP6: deployment and objective per round --------------------------------------


def test_cards_are_not_repeated_until_all_are_used__RP6() -> None:
    rng = random.Random(5)
    drawn: list[str] = []
    for _ in range(9):
        drawn.append(draw_card(DEPLOYMENTS, drawn, rng))
    for start in (0, 3, 6):
        assert sorted(drawn[start : start + 3]) == sorted(DEPLOYMENTS)
    assert OBJECTIVES == ("Bounty", "Break Their Defenses", "Supply Raid")


# -- RP6: Swiss pairing -------------------------------------------------------


def test_round_one_is_random_with_a_random_bye__RP6() -> None:
    players = [entrant(f"p{n}") for n in range(7)]
    byes = Counter()
    for seed in range(30):
        matches = pairing.swiss(players, 1, random.Random(seed))
        assert len(matches) == 4 and sum(m.b is None for m in matches) == 1
        byes[next(m.a for m in matches if m.b is None)] += 1
    assert len(byes) > 3


def test_later_rounds_pair_within_tp_groups_odd_one_down__RP6() -> None:
    """The pairing example: John, Stella and Felix on 15, Kyle alone on 13; John has
    played Felix. Two of the 15s pair (never John and Felix again) and the one left
    plays Kyle, at random; the example's John v Stella, Felix v Kyle is one such draw."""
    players = [
        entrant("john", (won(1, "felix", 15, 100),)),
        entrant("stella", (won(1, "x1", 15, 100),)),
        entrant("felix", (Played(1, S, "john", False, 15, 0),)),
        entrant("kyle", (won(1, "x2", 13, 100),)),
        entrant("x1", (lost(1, "stella", 1),)),
        entrant("x2", (lost(1, "kyle", 1),)),
    ]
    seen = set()
    for seed in range(20):
        pairs = {frozenset((m.a, m.b)) for m in pairing.swiss(players, 2, random.Random(seed))}
        assert frozenset(("john", "felix")) not in pairs
        assert frozenset(("x1", "x2")) in pairs
        (down,) = [p for p in pairs if "kyle" in p]
        assert down - {"kyle"} <= {"john", "stella", "felix"}
        seen.add(frozenset(pairs))
    example = {frozenset(p) for p in (("john", "stella"), ("felix", "kyle"), ("x1", "x2"))}
    assert frozenset(example) in seen


def test_no_rematch_within_a_stage__RP6() -> None:
    players = [
        entrant("a", (won(1, "b"),)),
        entrant("b", (lost(1, "a"),)),
        entrant("c", (won(1, "d"),)),
        entrant("d", (lost(1, "c"),)),
    ]
    for seed in range(10):
        for m in pairing.swiss(players, 2, random.Random(seed)):
            assert {m.a, m.b} not in ({"a", "b"}, {"c", "d"})


def test_later_bye_to_the_lowest_ranked_without_one__RP6() -> None:
    players = [
        entrant("a", (won(1, "b"),)),
        entrant("b", (lost(1, "a"),)),
        entrant("c", (Played.bye(1, S),)),  # the lowest would be c, but c had the bye
        entrant("d", (won(1, "e", 7, 40),)),
        entrant("e", (lost(1, "d"),)),
    ]
    matches = pairing.swiss(players, 2, random.Random(1))
    assert next(m.a for m in matches if m.b is None) == "e"


def test_a_bye_is_a_win_of_8_tp_and_mov_70__RP6() -> None:
    bye = Played.bye(1, S)
    assert (bye.won, bye.tp, bye.mov, bye.opponent_id) == (True, 8, 70, None)


# -- RP6: single elimination ----------------------------------------------------


def test_elimination_seeds_one_against_the_lowest__RP6() -> None:
    first = pairing.first_elimination(["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"])
    assert [(m.game, m.a, m.b) for m in first] == [
        (1, "s1", "s8"),
        (2, "s2", "s7"),
        (3, "s3", "s6"),
        (4, "s4", "s5"),
    ]
    later = pairing.next_elimination(["w1", "w2", "w3", "w4"])
    assert [(m.game, m.a, m.b) for m in later] == [(1, "w1", "w4"), (2, "w2", "w3")]
    with pytest.raises(RuleError):
        pairing.first_elimination(["a", "b", "c"])


# -- ST5: standings ------------------------------------------------------------


def test_standings_tp_then_mov_then_sos_then_the_draw__ST5() -> None:
    players = [
        entrant("a", (won(1, "c", 8, 80),), draw=0.9),
        entrant("b", (won(1, "d", 8, 90),), draw=0.9),
        entrant("c", (lost(1, "a", 3),), draw=0.2),
        entrant("d", (lost(1, "b", 3),), draw=0.1),
    ]
    assert [s.player_id for s in standings(players)] == ["b", "a", "d", "c"]
    assert [s.rank for s in standings(players)] == [1, 2, 3, 4]


def test_sos_is_the_mean_of_opponents_tp_per_round__ST5() -> None:
    everyone = {
        "a": entrant("a", (won(1, "b"), won(2, "c"))),
        "b": entrant("b", (lost(1, "a", 3), won(2, "x", 9, 120))),  # 12 TP over 2 rounds
        "c": entrant("c", (Played.bye(1, S), lost(2, "a", 4))),  # 12 TP over 2 rounds
        "x": entrant("x", (lost(2, "b", 2),)),
    }
    assert strength_of_schedule(everyone["a"], everyone) == Fraction(6)
    assert strength_of_schedule(everyone["x"], everyone) == Fraction(6)
    lone = entrant("z", (Played.bye(1, S),))
    assert strength_of_schedule(lone, {"z": lone}) == 0


def test_sos_breaks_a_tie_on_tp_and_mov__ST5() -> None:
    players = [
        entrant("a", (won(1, "c", 8, 80),), draw=0.0),
        entrant("b", (won(1, "d", 8, 80),), draw=0.9),
        entrant("c", (lost(1, "a", 3),)),
        entrant("d", (lost(1, "b", 3), won(2, "e", 9, 0))),
        entrant("e", (lost(2, "d", 2),)),
    ]
    order = [s.player_id for s in standings(players)]
    assert order.index("b") < order.index("a")  # SoS 6 against 3, before the draw


def test_standings_export_as_csv__ST5() -> None:
    rows = standings([entrant("a", (won(1, "b"),)), entrant("b", (lost(1, "a"),))])
    assert export_csv(rows).splitlines() == [
        "rank,name,tp,mov,sos,dropped,status",
        '1,"A",8,80,3.00,0,playing',
        '2,"B",3,0,8.00,0,playing',
    ]


# -- the event ----------------------------------------------------------------


def test_registration_takes_the_army_value__RP6() -> None:
    event = RwEvent("Store Championship", Plan(2, 0))
    rng = random.Random(1)
    event = register(event, "a", "Ann", 198, rng)
    with pytest.raises(BadInput, match="1 to 200"):
        register(event, "b", "Bob", 201, rng)
    with pytest.raises(BadInput, match="already"):
        register(event, "a", "Ann", 150, rng)
    assert event.player("a").army_value == 198


def test_a_drop_in_the_elimination_gives_the_opponent_a_bye__RP6() -> None:
    rng = random.Random(3)
    event = RwEvent("Cup", Plan(1, 2))
    for n in range(4):
        event = register(event, f"p{n}", f"P{n}", 200, rng)
    event = pair_next(event, rng)
    for m in event.rounds[-1].matches:
        assert m.b is not None
        event = record(event, m.game, Result(m.a, (8, 3), (80, 0)))
    event = pair_next(event, rng)
    final = event.rounds[-1]
    assert final.stage is Stage.ELIMINATION and final.minutes == 140
    (match,) = final.matches
    event = drop(event, match.a)
    assert event.rounds[-1].results[1].winner == match.b
    assert event.winner == match.b
    with pytest.raises(RuleError, match="over"):
        pair_next(event, rng)
