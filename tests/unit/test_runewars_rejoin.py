"""RP7 and the regulations' "Pairings": a dropped player may ask to rejoin, "being
assigned an unpaired loss for each round they did not attend"; ST5 standings count each
such loss as nothing (0 TP, MoV 0) and it is no round played for anyone's SoS. Runewars
events have drops but no disqualification, so every dropped player may rejoin, in the
Swiss stage (the cut ends the others' event)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from app.domain.errors import RuleError
from app.domain.runewars.event import (
    Result,
    RwEvent,
    drop,
    make_cut,
    pair_next,
    record,
    register,
    rejoin,
)
from app.domain.runewars.rules import Plan, Stage
from app.domain.runewars.standings import Entrant, Played, strength_of_schedule


def _event(players: int, plan: Plan) -> tuple[RwEvent, random.Random]:
    rng = random.Random(7)
    event = RwEvent("Store", plan)
    for n in range(players):
        event = register(event, f"p{n}", f"Player {n}", 190, rng)
    return event, rng


def _play_round(event: RwEvent) -> RwEvent:
    """Every game of the round: the first-named player wins by 80 (8 TP, 3 TP)."""
    play = event.current
    assert play is not None
    for match in play.matches:
        if match.b is not None and match.game not in play.results:
            event = record(event, match.game, Result(match.a, (8, 3), (80, 0)))
    return event


def test_a_rejoining_player_gets_an_unpaired_loss_per_round_missed__RP7_ST5() -> None:
    """Pairings: dropped after round 1, back before round 4: rounds 2 and 3 are losses
    worth 0 TP and MoV 0, no bye, and the player is paired in round 4."""
    event, rng = _event(8, Plan(5, 0))
    event = _play_round(pair_next(event, rng))
    before = event.player("p3")
    event = drop(event, "p3")
    for _ in range(2):
        event = _play_round(pair_next(event, rng))
    assert all(r.match_of("p3") is None for r in event.rounds[1:])

    event = rejoin(event, "p3")
    back = event.player("p3")
    assert not back.dropped
    assert back.games == (
        *before.games,
        Played.missed(2, Stage.SWISS),
        Played.missed(3, Stage.SWISS),
    )
    assert (back.tp, back.mov) == (before.tp, before.mov)  # the losses add nothing
    assert not back.had_bye and back.rounds_played == 1
    row = next(s for s in event.standings() if s.player_id == "p3")
    assert (row.tp, row.mov, row.dropped) == (before.tp, before.mov, False)

    event = pair_next(event, rng)
    assert event.rounds[-1].match_of("p3") is not None


def test_an_unpaired_loss_is_no_round_played_for_sos__RP7_ST5() -> None:
    """ST5: SoS divides an opponent's TP by the rounds that opponent played; a round
    missed before rejoining was not played."""
    s = Stage.SWISS
    back = Entrant("b", "B", 190, 0.1, (Played(1, s, "a", True, 8, 80), Played.missed(2, s)))
    a = Entrant("a", "A", 190, 0.2, (Played(1, s, "b", False, 3, 0),))
    assert strength_of_schedule(a, {"a": a, "b": back}) == Fraction(8, 1)


def test_a_player_dropped_before_a_round_is_paired_loses_only_that_round__RP7() -> None:
    """A player who dropped and rejoins before the next pairing missed nothing; one
    whose round was paired without them has that round as a loss."""
    event, rng = _event(6, Plan(3, 0))
    event = _play_round(pair_next(event, rng))
    event = rejoin(drop(event, "p1"), "p1")
    assert len(event.player("p1").games) == 1
    event = pair_next(drop(event, "p1"), rng)
    event = rejoin(event, "p1")
    assert event.player("p1").games[-1] == Played.missed(2, Stage.SWISS)


def test_rejoin_is_refused_unless_dropped_and_in_the_swiss__RP7_RP6() -> None:
    """Only a dropped player rejoins; after the cut only its players play on."""
    event, rng = _event(8, Plan(1, 4))
    with pytest.raises(RuleError, match="Player 2 has not dropped"):
        rejoin(event, "p2")
    event = _play_round(pair_next(event, rng))
    loser = next(s.player_id for s in reversed(event.standings()))
    event = make_cut(drop(event, loser))
    with pytest.raises(RuleError, match="the cut is made"):
        rejoin(event, loser)
