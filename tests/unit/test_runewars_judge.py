"""The organiser's result at a Runewars table (TS11 scores, ST5 outcome): a disputed
score judged, equal scores needing the Final Flurry, a correction needing its reason and
keeping what it replaced, a concession by a named side, and never from a player's phone;
and the event's stored result corrected so the standings follow
(shared/seeds/runewars-tournament-regulations-2017.txt)."""

from __future__ import annotations

import random

import pytest

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import BadInput, NotFound, NotYourSeat, RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars.engine import apply, new_game, view
from app.domain.runewars.event import (
    Result,
    RwEvent,
    correct,
    pair_next,
    record,
    register,
)
from app.domain.runewars.rules import Plan
from app.domain.runewars.state import EndedBy, Phase, RwGame, TableSetup
from app.tables.runewars.codec import command_from_wire, command_to_wire

P1, P2 = Side.P1, Side.P2
EO = Role.EO
T0 = 1_000_000


def playing() -> RwGame:
    setup = TableSetup(("Ann", "Bob"), (198, 200), "Battle Lines", "Bounty")
    game = new_game(setup, random.Random(1))
    game = apply(game, game.chooser, rc.ChooseFirstPlayer(P1), T0)
    game = apply(game, P2, rc.ChooseArea("red"), T0)
    return apply(game, EO, rc.StartRound(), T0)


def scoring() -> RwGame:
    game = playing()
    while game.phase is Phase.PLAYING:
        game = apply(game, P1, rc.EndGameRound(game.game_round), T0)
    return game


def decided() -> RwGame:
    """Ann 107 against Bob's 49: Ann wins, MoV 58, 7 TP to 4; both confirmed it."""
    game = apply(scoring(), P1, rc.EnterScore(107, 0), T0)
    game = apply(game, P2, rc.EnterScore(49, 0), T0)
    return apply(apply(game, P1, rc.ConfirmResult(), T0), P2, rc.ConfirmResult(), T0)


def judge(p1: tuple[int, int], p2: tuple[int, int], **kw: object) -> rc.JudgeScores:
    return rc.JudgeScores((p1, p2), **kw)  # type: ignore[arg-type]


def test_the_organiser_judges_a_disputed_score__TS11_ST5() -> None:
    game = apply(scoring(), P1, rc.EnterScore(120, 10), T0)  # Bob never agrees to enter
    game = apply(game, EO, judge((120, 10), (60, 0)), T0 + 5)
    assert game.phase is Phase.OVER and game.outcome is not None
    assert game.outcome.winner is P1 and game.outcome.scores == (130, 60)
    assert game.outcome.mov == (70, 0) and game.outcome.tp == (8, 3)
    assert game.judged and game.correction is None  # nothing was decided before
    assert view(game, T0)["judged"] is True


def test_equal_scores_need_the_final_flurry__TS11() -> None:
    with pytest.raises(RuleError, match=r"equal \(90 each\).*Final Flurry"):
        apply(scoring(), EO, judge((80, 10), (90, 0)), T0)
    with pytest.raises(RuleError, match="roll the Final Flurry again"):
        apply(scoring(), EO, judge((80, 10), (90, 0), flurry=(3, 3)), T0)
    with pytest.raises(BadInput, match="not equal"):
        apply(scoring(), EO, judge((80, 10), (10, 0), flurry=(3, 1)), T0)
    game = apply(scoring(), EO, judge((80, 10), (90, 0), flurry=(2, 5)), T0)
    assert game.outcome is not None and game.outcome.winner is P2
    assert game.outcome.flurry == (2, 5) and game.outcome.tp == (5, 6)


def test_the_organiser_settles_a_final_flurry_table__TS11() -> None:
    game = apply(scoring(), P1, rc.EnterScore(50, 0), T0)
    game = apply(game, P2, rc.EnterScore(50, 0), T0)
    assert game.phase is Phase.FINAL_FLURRY
    game = apply(game, EO, judge((50, 0), (50, 0), flurry=(4, 1)), T0)
    assert game.outcome is not None and game.outcome.winner is P1


def test_a_correction_needs_a_reason_and_keeps_what_it_replaced__TS11_ST5() -> None:
    game = decided()
    before = game.outcome
    with pytest.raises(BadInput, match="give the reason"):
        apply(game, EO, judge((49, 0), (107, 0)), T0)
    with pytest.raises(BadInput, match="give the reason"):
        apply(game, EO, judge((49, 0), (107, 0), reason="   "), T0)
    fixed = apply(game, EO, judge((49, 0), (107, 0), reason="scores swapped"), T0 + 9)
    assert fixed.outcome is not None and fixed.outcome.winner is P2
    assert fixed.outcome.tp == (4, 7) and fixed.outcome.mov == (0, 58)
    assert fixed.correction is not None and fixed.correction.before == before
    assert fixed.correction.reason == "scores swapped" and fixed.correction.at_ms == T0 + 9
    assert fixed.correction.entries_before == ((107, 0), (49, 0))
    shown = view(fixed, T0)["correction"]
    assert isinstance(shown, dict) and shown["before"]["winner"] == "p1"  # type: ignore[index]
    # The same result again changes nothing, so it needs no reason.
    same = apply(fixed, EO, judge((49, 0), (107, 0)), T0 + 10)
    assert same.outcome == fixed.outcome and same.correction == fixed.correction


def test_players_cannot_send_it__TS11() -> None:
    for actor in (P1, P2, Role.SYSTEM):
        with pytest.raises(NotYourSeat, match="only the organiser"):
            apply(scoring(), actor, judge((10, 0), (0, 0)), T0)
        with pytest.raises(NotYourSeat):
            apply(decided(), actor, judge((0, 0), (10, 0), reason="mine"), T0)


def test_entered_while_playing_with_a_reason_ends_the_game__TS11_DC11() -> None:
    with pytest.raises(BadInput, match="has not ended at the table: give the reason"):
        apply(playing(), EO, judge((10, 0), (0, 0)), T0)
    game = apply(playing(), EO, judge((10, 0), (0, 0), reason="Bob left early"), T0)
    assert game.phase is Phase.OVER and game.settled and game.judged
    assert game.outcome is not None and game.outcome.ended_by is EndedBy.ORGANISER
    assert game.judged_reason == "Bob left early" and view(game, T0)["settled"] is True
    # DC11: after time is called, a game the organiser enters ended on time.
    called = apply(playing(), EO, rc.CallTime(), T0)
    timed = apply(called, EO, judge((10, 0), (0, 0), reason="never scored"), T0)
    assert timed.outcome is not None and timed.outcome.ended_by is EndedBy.TIME
    # Even before the round's timer starts (a table that never played).
    setup = TableSetup(("Ann", "Bob"), (198, 200), "Battle Lines", "Bounty")
    fresh = new_game(setup, random.Random(1))
    early = apply(fresh, EO, judge((0, 0), (0, 0), conceded=P1, reason="no show"), T0)
    assert early.outcome is not None and early.outcome.winner is P2 and early.settled


def test_entries_are_checked_like_the_players__TS11() -> None:
    with pytest.raises(BadInput, match="Ann cannot have destroyed more than Bob's army"):
        apply(scoring(), EO, judge((201, 0), (0, 0)), T0)
    with pytest.raises(BadInput, match="negative"):
        apply(scoring(), EO, judge((10, -1), (0, 0)), T0)


def test_the_organiser_records_a_concession_by_a_named_side__ST5() -> None:
    game = apply(scoring(), EO, judge((40, 0), (20, 0), conceded=P2), T0)
    assert game.outcome is not None and game.outcome.ended_by is EndedBy.CONCESSION
    assert game.outcome.winner is P1 and game.outcome.tp == (8, 0)
    assert game.outcome.mov == (70, 0)
    fixed = apply(game, EO, judge((40, 0), (20, 0), conceded=P1, reason="Ann conceded"), T0)
    assert fixed.outcome is not None and fixed.outcome.winner is P2
    assert fixed.outcome.tp == (0, 8)


def test_a_defeated_army_still_loses_when_judged__TS11() -> None:
    game = apply(playing(), P2, rc.ArmyDestroyed(P2), T0)
    game = apply(game, EO, judge((198, 0), (120, 20)), T0)
    assert game.outcome is not None and game.outcome.scores == (200, 140)
    assert game.outcome.winner is P1 and game.outcome.tp == (7, 4)


def test_the_judgement_travels_the_wire_and_the_log__TS11() -> None:
    wire = {
        "c": "judge_scores",
        "entries": [[49, 0], [107, 5]],
        "flurry": None,
        "conceded": "p2",
        "reason": "typo",
    }
    command = command_from_wire(wire)
    assert command == rc.JudgeScores(((49, 0), (107, 5)), None, P2, "typo")
    assert command_to_wire(command) == wire
    for bad, words in (
        ({"entries": [[1, 2]]}, "needs each player's score"),
        ({"entries": [[1, 2], [3]]}, "army value destroyed and objective points"),
        ({"entries": [[1, "x"], [3, 4]]}, "Objective points must be a whole number"),
        ({"entries": [[1, 2], [3, 4]], "conceded": "p3"}, "The player who conceded"),
        ({"entries": [[1, 2], [3, 4]], "reason": "x" * 301}, "300 characters"),
        ({"entries": [[1, 2], [3, 4]], "flurry": [1]}, "Final Flurry's hits"),
    ):
        with pytest.raises(BadInput, match=words):
            command_from_wire({"c": "judge_scores", **bad})


# -- the event's stored result ------------------------------------------------------


def event_with_round_one() -> RwEvent:
    rng = random.Random(3)
    event = RwEvent("Open", Plan(3, 0))
    for pid, name in (("a", "Ann"), ("b", "Bob"), ("c", "Cal"), ("d", "Dee")):
        event = register(event, pid, name, 190, rng)
    return pair_next(event, rng)


def test_correct_replaces_the_result_and_the_standings_follow__ST5() -> None:
    event = event_with_round_one()
    first, second = event.rounds[0].matches
    event = record(event, first.game, Result(first.a, (8, 3), (80, 0)))
    event = record(event, second.game, Result(second.a, (6, 5), (10, 0)))
    assert event.standings()[0].player_id == first.a
    fixed = correct(event, 1, first.game, Result(first.b, (3, 8), (0, 80)))
    assert fixed.rounds[0].results[first.game] == Result(first.b, (3, 8), (0, 80))
    assert fixed.standings()[0].player_id == first.b
    loser = fixed.player(first.a)
    assert [(g.round, g.won, g.tp, g.mov) for g in loser.games] == [(1, False, 3, 0)]
    assert [(g.won, g.tp) for g in fixed.player(first.b).games] == [(True, 8)]
    # Pairings made since stand; the later round keeps its matches.
    later = pair_next(fixed, random.Random(4))
    assert (
        correct(later, 1, first.game, Result(first.a, (8, 3), (80, 0))).rounds[1]
        == (later.rounds[1])
    )


def test_correct_refuses_what_has_no_result__ST5() -> None:
    event = event_with_round_one()
    match = event.rounds[0].matches[0]
    with pytest.raises(RuleError, match="no result yet"):
        correct(event, 1, match.game, Result(match.a, (8, 3), (80, 0)))
    with pytest.raises(NotFound, match="no round 2"):
        correct(event, 2, match.game, Result(match.a, (8, 3), (80, 0)))
    with pytest.raises(NotFound, match="no game 99"):
        correct(event, 1, 99, Result(match.a, (8, 3), (80, 0)))
    event = record(event, match.game, Result(match.a, (8, 3), (80, 0)))
    with pytest.raises(BadInput, match="one of the game's two players"):
        correct(event, 1, match.game, Result("zz", (8, 3), (80, 0)))
