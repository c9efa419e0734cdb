"""Standings (ST1) and the player record sheet (ST6), with hand-computed events."""

from __future__ import annotations

import pytest

from app.domain.errors import BadInput
from app.domain.formats import get_format
from app.domain.standings import (
    Outcome,
    PlayerRecord,
    RoundRecord,
    record_sheet,
    standings,
    tournament_points,
)

W, L, T, BYE = Outcome.WIN, Outcome.LOSS, Outcome.TIE, Outcome.BYE

_RESULTS = {">": (W, L), "<": (L, W), "=": (T, T)}


def history(*rounds: str, dropped: str = "", also: str = "") -> list[PlayerRecord]:
    """Players named by one letter; one string per round: "A>B C=D E+" means A beat B,
    C and D tied, E had the bye. From round 2 on, a game between different TP
    totals marks the player with more TP as paired down."""
    games: dict[str, list[RoundRecord]] = {name: [] for name in also}
    for number, played in enumerate(rounds, start=1):
        tp = {name: sum(1 for r in recs if r.outcome in (W, BYE)) for name, recs in games.items()}
        for token in played.split():
            if token.endswith("+"):
                games.setdefault(token[0], []).append(RoundRecord(number, None, BYE, 3, 38))
                continue
            a, sign, b = token
            down = number > 1 and tp.get(a, 0) != tp.get(b, 0)
            high = a if tp.get(a, 0) > tp.get(b, 0) else b
            for me, them, outcome in ((a, b, _RESULTS[sign][0]), (b, a, _RESULTS[sign][1])):
                record = RoundRecord(number, them, outcome, 0, 0, paired_down=down and me == high)
                games.setdefault(me, []).append(record)
    return [
        PlayerRecord(id=name, name=f"Player {name}", dropped=name in dropped, rounds=tuple(recs))
        for name, recs in sorted(games.items())
    ]


def _game(rnd: int, opponent: str, outcome: Outcome, cp: int, apd: int) -> RoundRecord:
    return RoundRecord(rnd, opponent, outcome, cp, apd, list_played="List 1")


#: A 3-round, 6-player event (Swiss as played):
#:   round 1: A beat B, C beat D, E beat F
#:   round 2: A beat C; E (1 TP) paired down and lost to B; D beat F
#:   round 3: A (2 TP) paired down against D and won; F beat B (B paired down); C tied E
#: TP: A 3, all others 1. SoS: B, C, D = 3+1+1 = 5 each; E, F = 1+1+1 = 3 each.
#: CP: A 12, B 9, C 8, D 8, E 7, F 7.  APD: A 125, B 90, C 85, D 85, E 125, F 80.
SIX = [
    PlayerRecord(
        "a",
        "Alice",
        "Cygnar",
        rounds=(_game(1, "b", W, 3, 45), _game(2, "c", W, 5, 30), _game(3, "d", W, 4, 50)),
    ),
    PlayerRecord(
        "b",
        "Bruno",
        "Khador",
        rounds=(_game(1, "a", L, 1, 20), _game(2, "e", W, 4, 40), _game(3, "f", L, 4, 30)),
    ),
    PlayerRecord(
        "c",
        "Chloé",
        "Cryx",
        rounds=(_game(1, "d", W, 5, 30), _game(2, "a", L, 0, 15), _game(3, "e", T, 3, 40)),
    ),
    PlayerRecord(
        "d",
        "Dmitri",
        "Circle",
        dropped=True,
        rounds=(_game(1, "c", L, 2, 25), _game(2, "f", W, 3, 50), _game(3, "a", L, 3, 10)),
    ),
    PlayerRecord(
        "e",
        "Esther",
        "Legion",
        rounds=(_game(1, "f", W, 2, 60), _game(2, "b", L, 1, 30), _game(3, "c", T, 4, 35)),
    ),
    PlayerRecord(
        "f",
        "Farid",
        "Skorne",
        rounds=(_game(1, "e", L, 0, 35), _game(2, "d", L, 2, 20), _game(3, "b", W, 5, 25)),
    ),
]


def test_worked_six_player_example__ST1() -> None:
    table = [
        (s.rank, s.player_id, s.tp, s.sos, s.control_points, s.army_points_destroyed)
        for s in standings(SIX)
    ]
    assert table == [
        (1, "a", 3, 3, 12, 125),  # most TP
        (2, "b", 1, 5, 9, 90),  # TP tie: SoS 5 beats 3, then CP 9 beats 8
        (3, "c", 1, 5, 8, 85),  # equal on TP, SoS, CP and APD: rank shared
        (3, "d", 1, 5, 8, 85),
        (5, "e", 1, 3, 7, 125),  # TP, SoS and CP tie: APD 125 beats 80
        (6, "f", 1, 3, 7, 80),
    ]


def test_dropped_player_stays_listed_with_their_record__ST1() -> None:
    dmitri = next(s for s in standings(SIX) if s.player_id == "d")
    assert dmitri.dropped and dmitri.rank == 3 and dmitri.name == "Dmitri"
    assert dmitri.faction == "Circle"


def test_dropped_opponent_still_counts_in_sos__ST1() -> None:
    players = history("A>B C>D", "A>D B+", dropped="C")  # C dropped after round 1
    sos = {s.player_id: s.sos for s in standings(players)}
    # TP: A 2, B 1, C 1, D 0. D met C (1, dropped) and A (2).
    assert sos == {"A": 1 + 0, "B": 2, "C": 0, "D": 1 + 2}


def test_byes_add_nothing_to_sos__ST1() -> None:
    players = history("A>B C+", "C>A B+")
    sos = {s.player_id: s.sos for s in standings(players)}
    # TP: A 1, B 1 (the bye), C 2. A met B and C; B and C only met A: their byes add nothing.
    assert sos == {"A": 1 + 2, "B": 1, "C": 1}
    assert standings(players)[0].player_id == "C"  # 2 TP: a bye is a win


def test_sos_uses_each_opponents_current_tp__ST1() -> None:
    players = history("A>B C>D", "A>C B>D", "A>D B>C")
    # TP: A 3, B 2, C 1, D 0. A's SoS = B + C + D = 2 + 1 + 0.
    by_player = {s.player_id: s for s in standings(players)}
    assert by_player["A"].sos == 3
    assert by_player["D"].sos == 3 + 1 + 2


def test_four_equal_players_share_rank_one__ST1() -> None:
    players = [PlayerRecord(i, f"Player {i}") for i in "wxyz"]
    assert [s.rank for s in standings(players)] == [1, 1, 1, 1]


def test_shared_rank_skips_places__ST1() -> None:
    players = history("A>B C>D")
    assert [(s.rank, s.player_id) for s in standings(players)] == [
        (1, "A"),
        (1, "C"),
        (3, "B"),
        (3, "D"),
    ]


def test_ties_score_no_tp_and_byes_score_a_win__ST1() -> None:
    assert [tournament_points(o) for o in (W, L, T, BYE)] == [1, 0, 0, 1]
    sr2019 = get_format("sr2019").tp  # no "bye" entry: the bye is scored as a win
    assert [tournament_points(o, sr2019) for o in (W, L, T, BYE)] == [1, 0, 0, 1]


def test_player_record_totals__ST1() -> None:
    alice = SIX[0]
    assert (alice.tp, alice.control_points, alice.army_points_destroyed) == (3, 12, 125)
    assert alice.opponents == ("b", "c", "d")
    assert not alice.had_bye and alice.paired_down_count == 0


def test_duplicate_player_ids_are_bad_input__ST1() -> None:
    with pytest.raises(BadInput, match="twice"):
        standings([PlayerRecord("a", "Alice"), PlayerRecord("a", "Another Alice")])


def test_record_sheet_rows__ST6() -> None:
    bruno = SIX[1]
    assert record_sheet(bruno, SIX) == [
        {
            "round": 1,
            "opponent": "Alice",
            "list_played": "List 1",
            "result": "Loss",
            "control_points": 1,
            "army_points_destroyed": 20,
        },
        {
            "round": 2,
            "opponent": "Esther",
            "list_played": "List 1",
            "result": "Win",
            "control_points": 4,
            "army_points_destroyed": 40,
        },
        {
            "round": 3,
            "opponent": "Farid",
            "list_played": "List 1",
            "result": "Loss",
            "control_points": 4,
            "army_points_destroyed": 30,
        },
    ]


def test_record_sheet_bye_tie_and_missed_round__ST6() -> None:
    ada = PlayerRecord(
        "ada",
        "Ada",
        rounds=(
            RoundRecord(3, None, BYE, 3, 38),
            RoundRecord(1, None, L, 0, 0),  # joined late: missed round 1
            RoundRecord(2, "bo", T, 2, 40, list_played="Haley 3"),
        ),
    )
    bo = PlayerRecord("bo", "Bo", rounds=(RoundRecord(2, "ada", T, 1, 30),))
    rows = record_sheet(ada, [ada, bo])
    assert [(r["round"], r["opponent"], r["result"]) for r in rows] == [
        (1, "Missed round", "Loss"),
        (2, "Bo", "Tie"),
        (3, "Bye", "Bye"),
    ]
    assert rows[1]["list_played"] == "Haley 3"
    assert (rows[2]["control_points"], rows[2]["army_points_destroyed"]) == (3, 38)
