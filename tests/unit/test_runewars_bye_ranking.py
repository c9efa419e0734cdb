"""RP6: "the bye is given to the lowest ranked player who has not yet received a bye",
ranked by the standings as published: a dropped opponent still counts in strength of
schedule, as the standings count them."""

from __future__ import annotations

import random

from app.domain.runewars.pairing import swiss
from app.domain.runewars.rules import Stage
from app.domain.runewars.standings import Entrant, Played, standings

S = Stage.SWISS


def _w(rnd: int, opponent: str, tp: int, mov: int) -> Played:
    return Played(rnd, S, opponent, True, tp, mov)


def _l(rnd: int, opponent: str, tp: int) -> Played:
    return Played(rnd, S, opponent, False, tp, 0)


def _players() -> list[Entrant]:
    """Round 1: B>X, A>Y, C>D, E>F, G bye; round 2: C>X, D>Y, B>G, F>A, E bye. B and C
    drop. X and Y both have 7 TP and MoV 0; X's SoS 6.75 (B 13/2, C 14/2), Y's 6.0
    (A 11/2, D 13/2)."""
    games = {
        "X": (_l(1, "B", 4), _l(2, "C", 3)),
        "Y": (_l(1, "A", 4), _l(2, "D", 3)),
        "A": (_w(1, "Y", 7, 40), _l(2, "F", 4)),
        "B": (_w(1, "X", 7, 40), _w(2, "G", 6, 10)),
        "C": (_w(1, "D", 6, 20), _w(2, "X", 8, 80)),
        "D": (_l(1, "C", 5), _w(2, "Y", 8, 80)),
        "E": (_w(1, "F", 6, 20), Played.bye(2, S)),
        "F": (_l(1, "E", 5), _w(2, "A", 7, 40)),
        "G": (Played.bye(1, S), _l(2, "B", 5)),
    }
    draws = {"X": 0.9, "Y": 0.1}  # were SoS ignored, the draw would put X lowest
    return [
        Entrant(pid, pid, 200, draws.get(pid, 0.5), g, dropped=pid in {"B", "C"})
        for pid, g in games.items()
    ]


def test_the_bye_goes_to_the_lowest_in_the_published_standings__RP6() -> None:
    players = _players()
    published = standings(players)
    rows = {s.player_id: s for s in published}
    assert (rows["X"].tp, rows["X"].mov, float(rows["X"].sos)) == (7, 0, 6.75)
    assert (rows["Y"].tp, rows["Y"].mov, float(rows["Y"].sos)) == (7, 0, 6.0)
    assert [s.player_id for s in published][-2:] == ["X", "Y"]  # Y is the lowest ranked

    for seed in range(5):
        matches = swiss(players, 3, random.Random(seed))
        byes = [m.a for m in matches if m.b is None]
        assert byes == ["Y"]
        paired = {p for m in matches for p in (m.a, m.b) if p is not None}
        assert paired == {"X", "Y", "A", "D", "E", "F", "G"}  # the dropped not paired


def test_the_bye_skips_a_player_who_had_one__RP6() -> None:
    """G and E had byes; with Y out too (dropped), X is the lowest still to have one."""
    players = [
        p if p.id != "Y" else Entrant(p.id, p.name, 200, p.draw, p.games, dropped=True)
        for p in _players()
    ]
    players.append(Entrant("H", "H", 200, 0.3, (_w(1, "Z", 10, 150), _w(2, "Z", 10, 150))))
    matches = swiss(players, 3, random.Random(0))
    assert [m.a for m in matches if m.b is None] == ["X"]
