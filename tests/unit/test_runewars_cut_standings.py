"""ST5 with an RP6 cut: after single elimination the standings open with the player the
event names its winner, then the final's loser, then the semi-final's losers in their
Swiss order (the cut's seeding), then the players not cut in their Swiss order."""

from __future__ import annotations

import random

from app.domain.runewars.event import Result as EventResult
from app.domain.runewars.event import RwEvent, drop, pair_next, record, register
from app.domain.runewars.rules import Stage, Structure, plan_for
from app.domain.runewars.standings import Entrant, Played, cut_standings, standings

SWISS, ELIM = Stage.SWISS, Stage.ELIMINATION


def _win(rnd: int, stage: Stage, opponent: str, tp: int, mov: int) -> Played:
    return Played(rnd, stage, opponent, True, tp, mov)


def _loss(rnd: int, stage: Stage, opponent: str, tp: int) -> Played:
    return Played(rnd, stage, opponent, False, tp, 0)


def test_the_finals_winner_heads_the_standings_not_the_most_tp__ST5() -> None:
    """The audit's case: Player 20, first after the Swiss (35 TP), loses the top-2 final
    by MoV 10 to Player 17 (32 TP): 40 TP against 38, yet Player 17 is the winner."""
    p20 = Entrant(
        "p20",
        "Player 20",
        200,
        0.1,
        (
            _win(1, SWISS, "p1", 9, 120),
            _win(2, SWISS, "p2", 9, 120),
            _win(3, SWISS, "p3", 9, 120),
            _win(4, SWISS, "p17", 8, 80),
            _loss(5, ELIM, "p17", 5),
        ),
    )
    p17 = Entrant(
        "p17",
        "Player 17",
        200,
        0.2,
        (
            _win(1, SWISS, "p4", 10, 150),
            _win(2, SWISS, "p5", 10, 150),
            _win(3, SWISS, "p6", 9, 110),
            _loss(4, SWISS, "p20", 3),
            _win(5, ELIM, "p20", 6, 10),
        ),
    )
    others = [Entrant(f"p{n}", f"Player {n}", 200, n / 10) for n in range(1, 7)]
    players = [p20, p17, *others]
    assert [s.player_id for s in standings(players)][:2] == ["p20", "p17"]  # by TP: 40, 38

    ranked = cut_standings(players, ("p20", "p17"))
    assert [(s.rank, s.player_id, s.tp) for s in ranked[:2]] == [(1, "p17", 38), (2, "p20", 40)]
    assert [s.rank for s in ranked] == list(range(1, 9))
    assert cut_standings(players, ()) == standings(players)  # no cut: ST5 as it was


def _ranked(event: RwEvent) -> list[str]:
    return [s.player_id for s in event.standings()]


def _event_after_swiss() -> RwEvent:
    """8 players, 2 Swiss rounds, a top 4 cut; the lower-numbered player wins each game,
    p0 by MoV 150 (10 TP), everyone else by MoV 10 (6 TP, the loser 5)."""
    rng = random.Random(8)
    event = RwEvent("Cut", plan_for(Structure.CUSTOM, 8, rounds=2, cut=4))
    for n in range(8):
        event = register(event, f"p{n}", f"Player {n}", 200, rng)
    for _ in range(2):
        event = pair_next(event, rng)
        for m in event.rounds[-1].matches:
            assert m.b is not None
            a = min(m.a, m.b)
            win = (10, 1) if a == "p0" else (6, 5)
            mov = (150, 0) if a == "p0" else (10, 0)
            tp, mv = (win, mov) if a == m.a else (win[::-1], mov[::-1])
            event = record(event, m.game, EventResult(a, tp, mv))
    return event


def _play(event: RwEvent, winners: set[str]) -> RwEvent:
    """The current elimination round: the player in `winners` wins by MoV 10 (6 TP, 5)."""
    for m in event.rounds[-1].matches:
        assert m.b is not None
        a_wins = m.a in winners
        result = EventResult(
            m.a if a_wins else m.b, (6, 5) if a_wins else (5, 6), (10, 0) if a_wins else (0, 10)
        )
        event = record(event, m.game, result)
    return event


def test_top_four_winner_finalist_then_semi_losers_by_seed_then_the_rest__ST5() -> None:
    event = _event_after_swiss()
    swiss = _ranked(event)
    event = pair_next(event, random.Random(1))  # the cut and the semi-finals
    s1, s2, s3, s4 = event.cut_to
    assert list(event.cut_to) == swiss[:4] and s1 == "p0"
    assert _ranked(event) == swiss  # the cut made, nothing played: the Swiss order

    event = _play(event, {s4, s2})  # the fourth seed beats the first, the second the third
    event = _play(pair_next(event, random.Random(2)), {s4})  # and wins the final
    assert event.winner == s4 and event.over
    assert standings(event.players)[0].player_id == s1  # most TP, not the winner

    ranked = event.standings()
    assert [s.player_id for s in ranked] == [s4, s2, s1, s3, *swiss[4:]]
    assert ranked[0].player_id == event.winner
    assert [s.rank for s in ranked] == list(range(1, 9))
    assert ranked[2].tp == event.player(s1).tp  # the rows still show every game's TP


def test_a_finalist_who_drops_in_the_final_is_second_the_bye_winner_first__ST5() -> None:
    event = _event_after_swiss()
    swiss = _ranked(event)
    event = pair_next(event, random.Random(1))
    s1, s2, s3, s4 = event.cut_to
    event = _play(event, {s1, s3})  # the seeds 1 and 3 reach the final
    event = drop(pair_next(event, random.Random(2)), s3)  # s3 leaves: s1 has a bye
    assert event.winner == s1
    assert _ranked(event) == [s1, s3, s2, s4, *swiss[4:]]
