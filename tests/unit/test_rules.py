"""One or more tests per rule id of RULES.md (the id ends each test's name)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError, StaleCommand
from app.domain.formats import get_format
from app.domain.game import (
    UNDO_WINDOW_MS,
    Method,
    Phase,
    Result,
    UndoEnd,
    UndoOutcome,
    apply,
    new_game,
    reports_needed,
)

from .helpers import EO, MINUTE, P1, P2, SYSTEM, Table, scoring, setup, table_at

# --- DC1 player clock ---------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "minutes"),
    [(0, 20), (25, 30), (50, 42), (75, 60), (100, 75), (150, 120), (200, 150)],
)
def test_player_clock_by_point_size__DC1(points: int, minutes: int) -> None:
    assert get_format("sr2019").player_clock_ms(points) == minutes * 60_000


def test_sr2019_has_exactly_the_seven_sizes__DC1() -> None:
    assert sorted(get_format("sr2019").player_clock_minutes) == [0, 25, 50, 75, 100, 150, 200]


@pytest.mark.parametrize("format_id", ["masters2019", "champions2019"])
def test_masters_and_champions_play_sixty_minutes__DC1(format_id: str) -> None:
    fmt = get_format(format_id)
    assert fmt.player_clock_ms(75) == 60 * 60_000
    assert fmt.default_points == 75


@pytest.mark.parametrize(
    ("format_id", "points"),
    [("sr2019", 35), ("sr2019", -25), ("masters2019", 50), ("champions2019", 100)],
)
def test_unknown_point_size_is_bad_input__DC1(format_id: str, points: int) -> None:
    with pytest.raises(BadInput):
        get_format(format_id).player_clock_ms(points)


def test_new_game_gives_each_player_the_player_clock__DC1() -> None:
    each = get_format("sr2019").player_clock_ms(50)
    game = new_game(setup(player_clock_ms=each), 0)
    assert game.clock.remaining_ms == (42 * 60_000, 42 * 60_000)
    assert game.clock.running is None
    with pytest.raises(BadInput):
        new_game(setup(player_clock_ms=0), 0)
    with pytest.raises(BadInput):
        new_game(setup(format_id="nope"), 0)
    with pytest.raises(BadInput):
        new_game(setup("no-such-scenario"), 0)


# --- DC3 deployment on the clock --------------------------------------------


def test_deployment_taps_lead_to_p1_turn_one__DC3() -> None:
    table = Table.new()
    assert table.game.phase is Phase.READY
    assert table.game.clock.running is None

    seen = []
    game = table.start()
    seen.append((game.phase, game.active, game.clock.running, game.turn))
    for _ in range(4):
        game = table.tap()
        seen.append((game.phase, game.active, game.clock.running, game.turn))
    assert seen == [
        (Phase.DEPLOYMENT, P1, P1, 0),
        (Phase.DEPLOYMENT, P2, P2, 0),
        (Phase.ADVANCE_DEPLOYMENT, P1, P1, 0),
        (Phase.ADVANCE_DEPLOYMENT, P2, P2, 0),
        (Phase.TURN, P1, P1, 1),
    ]
    game = table.tap()
    assert (game.phase, game.active, game.clock.running, game.turn) == (Phase.TURN, P2, P2, 1)


def test_deployment_time_is_on_each_players_clock__DC3() -> None:
    table = Table.new(player_clock_ms=60 * MINUTE)
    table.start(after=5_000)  # idle before the start is nobody's time
    table.tap(after=2 * MINUTE)  # P1 normal deployment
    table.tap(after=3 * MINUTE)  # P2 normal deployment
    table.tap(after=1 * MINUTE)  # P1 advance deployment
    game = table.tap(after=4 * MINUTE)  # P2 advance deployment
    assert game.remaining(P1, table.now) == 57 * MINUTE
    assert game.remaining(P2, table.now) == 53 * MINUTE
    assert game.remaining(P1, table.now + MINUTE) == 56 * MINUTE


def test_only_p1_or_the_eo_starts_the_clock_once__DC3() -> None:
    table = Table.new()
    with pytest.raises(NotYourSeat):
        table.try_do(SYSTEM, c.StartClock())
    assert table.try_do(EO, c.StartClock()).phase is Phase.DEPLOYMENT
    table.start()
    with pytest.raises(RuleError):
        table.try_do(P1, c.StartClock())


def test_p2_cannot_start_the_clock__DC3() -> None:
    """P1 starts their clock and deploys first; P2 waits for them."""
    table = Table.new()
    with pytest.raises(NotYourSeat):
        table.try_do(P2, c.StartClock())
    assert table.game.phase is Phase.READY


def test_no_tap_before_the_clock_starts__DC3() -> None:
    table = Table.new()
    with pytest.raises(RuleError):
        table.try_do(P1, c.PassTurn(expect=P1))


def test_nothing_is_scored_during_deployment__DC3() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(BadInput):
        table.try_do(P1, c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=True)))
    with pytest.raises(BadInput):
        table.try_do(P1, c.PassTurn(expect=P1, turn_end=c.TurnEnd(scoring=scoring())))


def test_only_the_deploying_player_taps_for_their_side__DC3() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(NotYourSeat, match="only they may end their deployment"):
        table.tap(by=P2)  # names P1's running clock, from P2's seat
    assert table.game.active is P1
    game = table.tap(by=P1)
    assert game.active is P2


# --- DC5 only the EO pauses --------------------------------------------------


@pytest.mark.parametrize("actor", [P1, P2, SYSTEM])
def test_players_cannot_pause_or_resume__DC5(actor: c.Actor) -> None:
    table = table_at(2, P1)
    with pytest.raises(NotYourSeat):
        table.try_do(actor, c.PauseClock())
    table.do(EO, c.PauseClock())
    with pytest.raises(NotYourSeat):
        table.try_do(actor, c.ResumeClock())


def test_eo_pause_keeps_remaining_times_exactly__DC5() -> None:
    table = table_at(2, P1)
    table.wait(30_000)
    before = (table.game.remaining(P1, table.now), table.game.remaining(P2, table.now))
    game = table.do(EO, c.PauseClock(), after=0)
    assert game.paused and game.paused_by_eo
    assert game.paused_side is P1
    assert game.clock.running is None
    for later in (table.now, table.now + 1, table.now + 2 * 3_600_000):
        assert (game.remaining(P1, later), game.remaining(P2, later)) == before


def test_eo_resume_restarts_the_same_side__DC5() -> None:
    table = table_at(2, P2)
    table.wait(10_000)
    p2_left = table.game.remaining(P2, table.now)
    p1_left = table.game.remaining(P1, table.now)
    table.do(EO, c.PauseClock(), after=0)
    game = table.do(EO, c.ResumeClock(), after=15 * MINUTE)
    assert not game.paused
    assert game.paused_by_eo  # remembered for the end-of-round check (DC8)
    assert game.clock.running is P2
    assert game.active is P2
    assert game.remaining(P2, table.now) == p2_left
    assert game.remaining(P2, table.now + 4_000) == p2_left - 4_000
    assert game.remaining(P1, table.now + 4_000) == p1_left


def test_resume_after_pausing_an_interrupt_restarts_the_interrupting_side__DC5() -> None:
    table = table_at(3, P1)
    table.do(P1, c.SwitchClock(to=P2))
    table.do(EO, c.PauseClock())
    game = table.do(EO, c.ResumeClock(), after=MINUTE)
    assert game.clock.running is P2
    assert game.interrupted
    assert game.active is P1


def test_paused_table_refuses_taps_and_a_second_pause__DC5() -> None:
    table = table_at(2, P1)
    table.do(EO, c.PauseClock())
    with pytest.raises(RuleError):
        table.try_do(P1, c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=False)))
    with pytest.raises(RuleError):
        table.try_do(EO, c.PauseClock())


def test_resume_without_pause_is_refused__DC5() -> None:
    table = table_at(1, P1)
    with pytest.raises(RuleError):
        table.try_do(EO, c.ResumeClock())


def test_eo_can_pause_during_deployment__DC5() -> None:
    table = Table.new()
    table.start()
    table.tap()
    game = table.do(EO, c.PauseClock())
    assert game.paused and game.paused_side is P2
    game = table.do(EO, c.ResumeClock(), after=MINUTE)
    assert game.clock.running is P2
    assert game.phase is Phase.DEPLOYMENT


def test_no_pause_before_start_or_after_the_game__DC5() -> None:
    table = Table.new()
    with pytest.raises(RuleError):
        table.try_do(EO, c.PauseClock())
    table = table_at(2, P1)
    table.do(P2, c.Concede())
    with pytest.raises(RuleError):
        table.try_do(EO, c.PauseClock())


# --- DC6 interrupt switch --------------------------------------------------------


def test_active_player_switches_the_clock_to_the_opponent__DC6() -> None:
    table = table_at(3, P1)
    game = table.do(P1, c.SwitchClock(to=P2))
    assert game.interrupted
    assert game.clock.running is P2
    assert game.active is P1
    assert game.turn == 3


def test_only_the_active_player_switches_to_the_opponent__DC6() -> None:
    table = table_at(3, P1)
    with pytest.raises(NotYourSeat):
        table.try_do(P2, c.SwitchClock(to=P2))
    with pytest.raises(NotYourSeat):
        table.try_do(EO, c.SwitchClock(to=P2))


@pytest.mark.parametrize("by", [P1, P2])
def test_either_player_switches_back__DC6(by: Side) -> None:
    table = table_at(3, P2)
    table.do(P2, c.SwitchClock(to=P1))
    table.wait(20_000)
    p2_left = table.game.remaining(P2, table.now)
    game = table.do(by, c.SwitchClock(to=P2), after=0)
    assert not game.interrupted
    assert game.clock.running is P2
    assert (game.active, game.turn) == (P2, 3)
    assert game.remaining(P2, table.now + 1_000) == p2_left - 1_000


def test_interrupt_time_is_the_inactive_players__DC6() -> None:
    table = table_at(2, P1)
    p1 = table.game.remaining(P1, table.now)
    p2 = table.game.remaining(P2, table.now)
    table.do(P1, c.SwitchClock(to=P2), after=10_000)
    game = table.do(P2, c.SwitchClock(to=P1), after=7_000)
    assert game.remaining(P1, table.now) == p1 - 10_000
    assert game.remaining(P2, table.now) == p2 - 7_000


def test_a_tap_during_an_interrupt_is_refused__DC6() -> None:
    table = table_at(3, P1)
    table.do(P1, c.SwitchClock(to=P2))
    for expect in (P1, P2):
        with pytest.raises(RuleError):
            table.try_do(P1, c.PassTurn(expect=expect, turn_end=c.TurnEnd(kill_box=False)))


def test_switch_to_the_side_already_running_is_stale__DC6() -> None:
    table = table_at(3, P1)
    with pytest.raises(StaleCommand):
        table.try_do(P1, c.SwitchClock(to=P1))
    table.do(P1, c.SwitchClock(to=P2))
    with pytest.raises(StaleCommand):
        table.try_do(P1, c.SwitchClock(to=P2))


def test_no_interrupt_switch_during_deployment__DC6() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(RuleError):
        table.try_do(P1, c.SwitchClock(to=P2))


# --- DC7 clock out ---------------------------------------------------------------


def flagged_in_own_turn(turn: int = 4, side: Side = P1, cp: tuple[int, int] = (0, 0)) -> Table:
    """`side` runs out of time during their own turn `turn` (a 30 min clock)."""
    table = table_at(turn, side, player_clock_ms=30 * MINUTE)
    table.game = replace(table.game, control_points=cp)
    left = table.game.remaining(side, table.now)
    table.do(SYSTEM, c.FlagCheck(), after=left + 5_000)
    return table


def test_flag_during_own_turn_goes_to_clock_out__DC7() -> None:
    table = table_at(4, P1, player_clock_ms=30 * MINUTE)
    started = table.game.clock.since_ms
    left = table.game.remaining(P1, table.now)
    flag_time = started + table.game.clock.remaining_ms[P1]
    assert table.game.clock.flag_at() == flag_time

    not_yet = table.try_do(SYSTEM, c.FlagCheck(), after=left - 1)
    assert not_yet.phase is Phase.TURN and not_yet.flagged is None

    game = table.do(SYSTEM, c.FlagCheck(), after=left + 90_000)
    assert game.phase is Phase.CLOCK_OUT
    assert game.flagged is P1
    assert game.ending is None
    assert game.clock.running is None
    assert game.clock.since_ms == flag_time  # decided at the exact flag time
    assert game.clock.remaining_ms[P1] == 0
    assert game.remaining(P1, table.now) == 0
    assert game.clock.used_ms[P1] == 30 * MINUTE


def test_any_command_decides_a_due_flag_first__DC7() -> None:
    table = table_at(4, P1, player_clock_ms=30 * MINUTE)
    left = table.game.remaining(P1, table.now)
    late_tap = c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=False, scoring=scoring()))
    with pytest.raises(RuleError):  # the flag came first: the tap is too late
        table.try_do(P1, late_tap, after=left)
    game = table.try_do(P1, late_tap, after=left - 1)
    assert game.flagged is None and game.active is P2


def test_clock_out_claim_with_five_lead_and_agreement_wins_by_scenario__DC7() -> None:
    table = flagged_in_own_turn(4, P1, cp=(2, 0))
    claim = scoring({"rect-1": P1, "rect-2": P1, "circle-1": P1})
    game = table.do(P1, c.ClaimScenario(claim))
    assert game.claim == claim
    assert game.phase is Phase.CLOCK_OUT
    game = table.do(P2, c.AnswerClaim(agree=True))
    assert game.phase is Phase.OVER
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P1)
    assert game.control_points == (5, 0)
    assert game.casters == (True, True)
    assert not game.final_scoring_due


def test_clock_out_claim_short_of_five_is_refused__DC7() -> None:
    table = flagged_in_own_turn(4, P1, cp=(1, 0))
    with pytest.raises(RuleError):
        table.try_do(P1, c.ClaimScenario(scoring({"rect-1": P1, "rect-2": P1, "flag-1": P1})))
    assert table.game.phase is Phase.CLOCK_OUT and table.game.claim is None


def test_only_the_flagged_player_claims_and_only_the_opponent_answers__DC7() -> None:
    table = flagged_in_own_turn(4, P2, cp=(0, 3))
    claim = c.ClaimScenario(scoring({"rect-1": P2, "rect-2": P2}))
    with pytest.raises(RuleError):
        table.try_do(P1, claim)
    table.do(P2, claim)
    with pytest.raises(RuleError):
        table.try_do(P2, claim)  # one claim at a time
    with pytest.raises(NotYourSeat):
        table.try_do(P2, c.AnswerClaim(agree=True))
    with pytest.raises(NotYourSeat):
        table.try_do(EO, c.AnswerClaim(agree=True))


def test_opponent_disagrees_with_the_claim_clock_loss__DC7() -> None:
    table = flagged_in_own_turn(4, P1, cp=(2, 0))
    table.do(P1, c.ClaimScenario(scoring({"rect-1": P1, "rect-2": P1, "circle-1": P1})))
    game = table.do(P2, c.AnswerClaim(agree=False))
    assert game.phase is Phase.OVER
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.CLOCK, P2)
    assert game.casters == (False, True)
    assert game.control_points == (2, 0)  # the claim was not scored


def test_accept_clock_loss__DC7() -> None:
    table = flagged_in_own_turn(5, P2)
    with pytest.raises(RuleError):
        table.try_do(P1, c.AcceptClockLoss())
    game = table.do(P2, c.AcceptClockLoss())
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.CLOCK, P1)
    assert game.casters == (True, False)
    assert game.final_scoring_due  # scored as an assassination with table conditions


def test_clock_out_blocks_taps__DC7() -> None:
    table = flagged_in_own_turn(4, P1)
    with pytest.raises(RuleError):
        table.try_do(P2, c.PassTurn(expect=P2))
    with pytest.raises(RuleError):
        table.try_do(EO, c.AdjustClock(side=P1, remaining_ms=60_000))


def test_flag_during_an_interrupt_loses_at_once__DC7() -> None:
    table = table_at(4, P1, player_clock_ms=30 * MINUTE)
    table.do(P1, c.SwitchClock(to=P2))
    clock = table.game.clock
    flag_time = clock.since_ms + clock.remaining_ms[P2]
    assert clock.flag_at() == flag_time
    game = table.do(SYSTEM, c.FlagCheck(), after=clock.remaining_ms[P2] + 42_000)
    assert game.flagged is P2
    assert game.phase is Phase.OVER
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner, game.ending.at_ms) == (
        Method.CLOCK,
        P1,
        flag_time,
    )
    assert game.casters == (True, False)
    assert game.remaining(P2, table.now) == 0
    assert game.clock.remaining_ms[P2] == 0
    assert game.clock.running is None
    assert not game.interrupted


def test_flag_during_deployment_loses_at_once__DC7() -> None:
    table = Table.new(player_clock_ms=MINUTE)
    table.start(after=0)
    game = table.do(SYSTEM, c.FlagCheck(), after=MINUTE + 1)
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner, game.ending.at_ms) == (Method.CLOCK, P2, MINUTE)
    assert not game.final_scoring_due


def test_clock_loss_before_scoring_started_needs_no_final_scoring__DC7() -> None:
    table = flagged_in_own_turn(2, P1)
    game = table.game
    assert game.ending is not None and game.ending.winner is P2
    assert not game.final_scoring_due


@pytest.mark.parametrize(("turn", "side"), [(1, P1), (1, P2), (2, P1)])
def test_flag_in_own_turn_before_scoring_starts_loses_at_once__DC7(turn: int, side: Side) -> None:
    """Scenario scoring starts at the end of P2's turn 2: before it no claim is
    possible, so the loss is immediate and nobody waits on the player who ran out."""
    table = table_at(turn, side, player_clock_ms=30 * MINUTE)
    flag_time = table.game.clock.flag_at()
    game = table.do(SYSTEM, c.FlagCheck(), after=table.game.remaining(side, table.now) + 7_000)
    assert game.phase is Phase.OVER
    assert game.flagged is side
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner, game.ending.at_ms) == (
        Method.CLOCK,
        side.other,
        flag_time,
    )
    assert game.casters[side] is False and game.casters[side.other] is True
    assert not game.final_scoring_due
    with pytest.raises(RuleError):
        table.try_do(side, c.AcceptClockLoss())


def test_flag_in_p2_turn_two_can_still_be_claimed__DC7() -> None:
    """The end of P2's turn 2 is scored, so a clock out in it may still be a scenario win."""
    table = flagged_in_own_turn(2, P2)
    assert table.game.phase is Phase.CLOCK_OUT and table.game.scoring_due_at_mark


def test_no_claim_before_scoring_has_started__DC7() -> None:
    """Scenario scoring starts at the end of P2's turn 2: no scenario victory before it."""
    table = table_at(2, P1, "bunkers", player_clock_ms=30 * MINUTE)
    table.do(SYSTEM, c.FlagCheck(), after=table.game.remaining(P1, table.now))
    assert table.game.phase is Phase.OVER and not table.game.scoring_due_at_mark
    all_five = scoring({"rect-1": P1, "rect-2": P1, "flag-1": P1, "flag-2": P1, "flag-3": P1})
    with pytest.raises(RuleError):
        table.try_do(P1, c.ClaimScenario(all_five))


def test_format_without_the_scenario_exception_loses_at_once__DC7() -> None:
    """IG2014-style formats have no scenario exception: a clock out is a loss at once."""
    table = table_at(4, P1, player_clock_ms=30 * MINUTE)
    no_claim = replace(table.game.format, clock_out_claim=False)
    object.__setattr__(table.game.setup, "_format", no_claim)
    game = table.do(SYSTEM, c.FlagCheck(), after=table.game.remaining(P1, table.now))
    assert game.phase is Phase.OVER
    assert game.ending is not None and (game.ending.method, game.ending.winner) == (
        Method.CLOCK,
        P2,
    )
    assert game.final_scoring_due  # scored with current table conditions


# --- DC9 scenario victory ends the turn at once ---------------------------------


def test_pass_turn_scoring_a_five_lead_ends_the_game_at_once__DC9() -> None:
    table = table_at(3, P2)
    table.game = replace(table.game, control_points=(0, 2))
    left = (table.game.remaining(P1, table.now), table.game.remaining(P2, table.now + 9_000))
    game = table.tap(score=scoring({"rect-1": P2, "rect-2": P2, "flag-1": P2}), after=9_000)
    assert game.phase is Phase.OVER
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner, game.ending.at_ms) == (
        Method.SCENARIO,
        P2,
        table.now,
    )
    assert game.control_points == (0, 5)
    assert game.clock.running is None
    assert game.remaining(P1, table.now + MINUTE) == left[0]
    assert game.remaining(P2, table.now + MINUTE) == left[1]
    assert not game.final_scoring_due
    with pytest.raises(RuleError):
        table.try_do(P1, c.PassTurn(expect=P1))


# --- TS1 turn counter -----------------------------------------------------------------


def test_turns_alternate_p1_p2_and_count_on_p1__TS1() -> None:
    table = table_at(1, P1)
    marks = [(table.game.turn, table.game.active)]
    for _ in range(13):
        game = table.tap()
        assert game.clock.running is game.active
        marks.append((game.turn, game.active))
    expected = [(n, side) for n in range(1, 8) for side in (P1, P2)]
    assert marks == expected


def test_game_ends_after_p2_turn_seven__TS1() -> None:
    table = table_at(7, P2)
    assert table.game.last_turn
    game = table.tap()
    assert game.phase is Phase.OVER
    assert game.turn == 7


# --- TS2 scoring ------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "side"), [(1, P1), (1, P2), (2, P1)])
def test_no_scoring_before_the_end_of_p2_turn_two__TS2(turn: int, side: Side) -> None:
    table = table_at(turn, side)
    assert not table.game.scoring_due
    with pytest.raises(BadInput):
        table.tap(score=scoring({"rect-1": side}))


@pytest.mark.parametrize(("turn", "side"), [(2, P2), (3, P1), (3, P2), (7, P2)])
def test_scoring_is_due_from_the_end_of_p2_turn_two__TS2(turn: int, side: Side) -> None:
    table = table_at(turn, side)
    assert table.game.scoring_due
    with pytest.raises(BadInput):
        table.try_do(side, c.PassTurn(expect=side, turn_end=c.TurnEnd(kill_box=False)))


def test_zones_and_flags_score_one_each__TS2() -> None:
    table = table_at(2, P2)
    game = table.tap(score=scoring({"rect-1": P2, "circle-1": P2, "flag-1": P2}))
    assert game.control_points == (0, 3)
    game = table.tap(score=scoring({"rect-2": P1}))
    assert game.control_points == (1, 3)


def test_enemy_objective_destroyed_scores_for_the_owners_opponent_once__TS2() -> None:
    table = table_at(2, P2, "bunkers")
    game = table.tap(score=scoring(destroyed={"objective-p1"}))
    assert game.control_points == (0, 1)
    assert game.objectives_destroyed == frozenset({"objective-p1"})
    game = table.tap(score=scoring(destroyed={"objective-p2"}))
    assert game.control_points == (1, 1)
    before = table.game
    with pytest.raises(RuleError):
        table.tap(score=scoring(destroyed={"objective-p2"}))
    assert table.game == before
    game = table.tap(score=scoring())
    assert game.control_points == (1, 1)


def test_enemy_objective_removed_from_play_scores_as_destroyed__TS2() -> None:
    # SR2019 (and M&C): "Enemy Objective: Destroyed/Removed from Play = 1 CP (once per
    # objective)". IG2014's own rule (only the attacker who destroys it) is in test_ig2014.
    table = table_at(2, P2, "bunkers")
    game = table.tap(score=c.Scoring(removed=frozenset({"objective-p1"})))
    assert game.control_points == (0, 1)
    assert game.objectives_destroyed == frozenset({"objective-p1"})
    with pytest.raises(RuleError, match="once per objective"):
        table.tap(score=c.Scoring(destroyed=frozenset({"objective-p1"})))


def test_either_player_can_be_credited_for_an_element__TS2() -> None:
    """Per "a player earns", the sheet names who controls each element."""
    table = table_at(3, P1, "recon-ii")
    game = table.tap(score=scoring({"rect-1": P1, "flag-2": P2}, {"objective-p1"}))
    assert game.control_points == (1, 2)


@pytest.mark.parametrize(
    "sheet",
    [
        scoring({"rect-9": P1}),
        scoring({"objective-p1": P1}),  # objectives are destroyed, not controlled
        scoring(destroyed={"flag-1"}),
        scoring(destroyed={"objective-p3"}),
    ],
)
def test_unknown_element_is_bad_input__TS2(sheet: c.Scoring) -> None:
    table = table_at(2, P2)
    with pytest.raises(BadInput):
        table.tap(score=sheet)


def test_scenario_without_objectives_refuses_them__TS2() -> None:
    table = table_at(2, P2, "spread-the-net")
    with pytest.raises(BadInput):
        table.tap(score=scoring(destroyed={"objective-p1"}))


def test_there_is_no_cp_cap__TS2() -> None:
    table = table_at(2, P2)
    all_p2 = {"rect-1": P2, "rect-2": P2, "circle-1": P2, "flag-1": P2}
    all_p1 = {"rect-1": P1, "rect-2": P1, "circle-1": P1, "flag-1": P1}
    for _ in range(5):
        table.tap(score=scoring(all_p2))
        table.tap(score=scoring(all_p1))
    assert table.game.control_points == (20, 20)


# --- TS3 kill box ----------------------------------------------------------------


@pytest.mark.parametrize(("turn", "side"), [(1, P1), (1, P2)])
def test_kill_box_is_not_asked_before_p1_turn_two__TS3(turn: int, side: Side) -> None:
    table = table_at(turn, side)
    assert not table.game.kill_box_due
    with pytest.raises(BadInput):
        table.tap(kill_box=True)
    game = table.tap(kill_box=False)
    assert game.control_points == (0, 0)


@pytest.mark.parametrize(("turn", "side"), [(2, P1), (2, P2), (5, P1), (7, P2)])
def test_kill_box_is_asked_from_p1_turn_two__TS3(turn: int, side: Side) -> None:
    table = table_at(turn, side)
    assert table.game.kill_box_due
    turn_end = c.TurnEnd(scoring=scoring() if table.game.scoring_due else None)
    with pytest.raises(BadInput):
        table.try_do(side, c.PassTurn(expect=side, turn_end=turn_end))


@pytest.mark.parametrize("side", [P1, P2])
def test_kill_box_gives_the_opponent_two__TS3(side: Side) -> None:
    table = table_at(2, side)
    game = table.tap(kill_box=True)
    cp = [0, 0]
    cp[side.other] = 2
    assert game.control_points == tuple(cp)


def test_kill_box_adds_to_the_turns_scoring__TS3() -> None:
    table = table_at(3, P1)
    game = table.tap(kill_box=True, score=scoring({"rect-1": P1, "flag-1": P2}))
    assert game.control_points == (1, 3)


# --- TS4 victory ---------------------------------------------------------------------


def test_five_lead_wins_at_once__TS4() -> None:
    table = table_at(4, P1)
    table.game = replace(table.game, control_points=(3, 2))
    game = table.tap(score=scoring({"rect-1": P1, "rect-2": P1, "circle-1": P1, "flag-1": P1}))
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P1)


def test_kill_box_can_give_the_five_lead__TS4() -> None:
    table = table_at(4, P2)
    table.game = replace(table.game, control_points=(3, 0))
    game = table.tap(kill_box=True)
    assert game.control_points == (5, 0)
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P1)


def test_four_lead_plays_on__TS4() -> None:
    table = table_at(4, P1)
    game = table.tap(score=scoring({"rect-1": P1, "rect-2": P1, "circle-1": P1, "flag-1": P1}))
    assert game.ending is None
    assert (game.turn, game.active) == (4, P2)


def play_to_the_end(cp: tuple[int, int]) -> Table:
    table = table_at(7, P2)
    table.game = replace(table.game, control_points=cp)
    table.tap()
    return table


def test_more_cp_at_the_end_of_p2_turn_seven_wins_by_scenario__TS4() -> None:
    table = play_to_the_end((4, 6))
    game = table.game
    assert game.phase is Phase.OVER and game.clock.running is None
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P2)
    assert game.result() is None  # reports first
    table.do(P1, c.ReportGame(army_points_destroyed=30))
    assert table.game.result() is None
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    result = table.game.result()
    assert result is not None
    assert (result.winner, result.method, result.control_points) == (P2, Method.SCENARIO, (4, 6))
    assert result.army_points_destroyed == (30, 10)


def test_equal_cp_at_the_end_fewer_apd_suffered_wins__TS4() -> None:
    table = play_to_the_end((3, 3))
    assert table.game.ending is not None
    assert (table.game.ending.method, table.game.ending.winner) == (Method.TIEBREAKER, None)
    table.do(P1, c.ReportGame(army_points_destroyed=40))  # P2 suffered 40
    table.do(P2, c.ReportGame(army_points_destroyed=25))  # P1 suffered 25
    result = table.game.result()
    assert result is not None
    assert (result.winner, result.method) == (P1, Method.TIEBREAKER)


def test_equal_cp_and_apd_scenario_presence_decides__TS4() -> None:
    table = play_to_the_end((3, 3))
    table.do(P1, c.ReportGame(army_points_destroyed=30))
    table.do(P2, c.ReportGame(army_points_destroyed=30))
    assert table.game.result() is None  # presence needed
    table.do(P1, c.ReportGame(army_points_destroyed=30, scenario_presence=12))
    assert table.game.result() is None
    table.do(P2, c.ReportGame(army_points_destroyed=30, scenario_presence=19))
    result = table.game.result()
    assert result is not None
    assert (result.winner, result.method) == (P2, Method.TIEBREAKER)


# --- TS6 assassination --------------------------------------------------------------


def test_caster_destroyed_opponent_wins_at_once__TS6() -> None:
    table = table_at(3, P1)
    game = table.do(P2, c.CasterDestroyed())
    assert game.phase is Phase.OVER
    assert game.casters == (True, False)
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner, game.ending.at_ms) == (
        Method.ASSASSINATION,
        P1,
        table.now,
    )
    assert game.clock.running is None


def test_no_caster_destroyed_before_the_turns__TS6() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(RuleError):
        table.try_do(P1, c.CasterDestroyed())
    with pytest.raises(NotYourSeat):
        table_at(2, P1).try_do(EO, c.CasterDestroyed())


@pytest.mark.parametrize(("turn", "side"), [(1, P1), (1, P2), (2, P1)])
def test_no_final_scoring_before_scoring_started__TS6(turn: int, side: Side) -> None:
    table = table_at(turn, side)
    game = table.do(P1, c.CasterDestroyed())
    assert not game.final_scoring_due
    with pytest.raises(RuleError):
        table.try_do(P2, c.FinalScoring(scoring({"rect-1": P2})))
    assert table.game.result() is None
    table.do(P1, c.ReportGame(army_points_destroyed=0))
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    assert table.game.result() is not None


@pytest.mark.parametrize(("turn", "side"), [(2, P2), (3, P1), (6, P2)])
def test_final_scoring_due_once_scoring_has_started__TS6(turn: int, side: Side) -> None:
    table = table_at(turn, side)
    game = table.do(P2, c.CasterDestroyed())
    assert game.final_scoring_due


def test_final_scoring_cannot_change_the_winner__TS6() -> None:
    table = table_at(4, P2)
    table.game = replace(table.game, control_points=(1, 3))
    table.do(P2, c.CasterDestroyed())  # P1 wins by assassination
    table.do(P1, c.ReportGame(army_points_destroyed=10))
    table.do(P2, c.ReportGame(army_points_destroyed=44))
    assert table.game.result() is None  # the final scoring is still due
    with pytest.raises(RuleError):
        table.try_do(P1, c.ConfirmResult())
    game = table.do(
        P2, c.FinalScoring(scoring({"rect-1": P2, "rect-2": P2, "circle-1": P2, "flag-1": P2}))
    )
    assert game.control_points == (1, 7)  # a lead of 6 for P2
    assert not game.final_scoring_due
    result = game.result()
    assert result is not None
    assert (result.winner, result.method, result.control_points) == (
        P1,
        Method.ASSASSINATION,
        (1, 7),
    )
    with pytest.raises(RuleError):
        table.try_do(P2, c.FinalScoring(scoring({"rect-1": P2})))  # only one


def test_both_casters_destroyed_tiebreakers_decide__TS6() -> None:
    table = table_at(5, P1)
    table.game = replace(table.game, control_points=(4, 2))
    game = table.do(P2, c.CasterDestroyed(both=True))
    assert game.casters == (False, False)
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.TIEBREAKER, None)
    table.do(P1, c.ReportGame(army_points_destroyed=0))
    table.do(P2, c.ReportGame(army_points_destroyed=50))
    result = table.game.result()
    assert result is not None
    assert (result.winner, result.method) == (P1, Method.TIEBREAKER)  # 2nd: CP


# --- TS7 tiebreaker order ----------------------------------------------------------


def tied_game(*, casters: tuple[bool, bool] = (True, True), cp: tuple[int, int] = (2, 2)) -> Table:
    """A game the tiebreakers decide from the 1st (as when both casters fall at once),
    given the state to break: a game ended at P2's turn 7 on equal CP, its ending taking
    the format's whole chain instead of the scenario's game-end tiebreakers (TS4)."""
    table = play_to_the_end((2, 2))
    ending = table.game.ending
    assert ending is not None and ending.tiebreakers is not None
    ending = replace(ending, tiebreakers=None)
    table.game = replace(table.game, casters=casters, control_points=cp, ending=ending)
    return table


def report(
    table: Table, apd: tuple[int, int], presence: tuple[int | None, int | None] = (None, None)
) -> Result | None:
    for side in Side:
        command = c.ReportGame(army_points_destroyed=apd[side], scenario_presence=presence[side])
        table.do(side, command)
    return table.game.result()


def test_first_tiebreaker_casters_remaining__TS7() -> None:
    result = report(tied_game(casters=(False, True), cp=(6, 0)), (75, 0), (50, 0))
    assert result is not None and result.winner is P2


def test_second_tiebreaker_control_points__TS7() -> None:
    result = report(tied_game(cp=(3, 4)), (75, 0), (50, 0))
    assert result is not None and result.winner is P2


def test_third_tiebreaker_fewer_army_points_suffered__TS7() -> None:
    # P1 destroyed 20 of P2's, P2 destroyed 35 of P1's: P2 suffered fewer
    result = report(tied_game(), (20, 35), (50, 0))
    assert result is not None and result.winner is P2


def test_fourth_tiebreaker_scenario_presence__TS7() -> None:
    result = report(tied_game(), (20, 20), (31, 30))
    assert result is not None and result.winner is P1


def test_all_equal_is_a_tie__TS7() -> None:
    result = report(tied_game(), (20, 20), (30, 30))
    assert result is not None
    assert result.winner is None
    assert result.method is Method.TIEBREAKER


# --- TS8 concession -------------------------------------------------------------------


def test_concession_gives_at_least_three_cp_and_half_the_army__TS8() -> None:
    table = table_at(3, P1, army_points=75)
    table.game = replace(table.game, control_points=(1, 2))
    game = table.do(P1, c.Concede())
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.CONCESSION, P2)
    assert game.clock.running is None
    assert game.result() is None  # the winner reports first
    table.do(P2, c.ReportGame(army_points_destroyed=20, list_played="list 2"))
    result = table.game.result()
    assert result is not None
    assert result.winner is P2
    assert result.method is Method.CONCESSION
    assert result.control_points == (0, 3)
    assert result.army_points_destroyed == (0, 38)  # ceil(75 / 2)
    assert result.lists == ("", "list 2")


def test_concession_keeps_more_cp_and_apd_already_scored__TS8() -> None:
    table = table_at(5, P2, army_points=75)
    table.game = replace(table.game, control_points=(4, 2))
    table.do(P2, c.Concede())
    table.do(P1, c.ReportGame(army_points_destroyed=61))
    table.do(P2, c.ReportGame(army_points_destroyed=50))  # the conceder still gets nothing
    result = table.game.result()
    assert result is not None
    assert result.winner is P1
    assert result.control_points == (4, 0)
    assert result.army_points_destroyed == (61, 0)


@pytest.mark.parametrize(("points", "half"), [(75, 38), (50, 25), (25, 13), (0, 0), (35, 18)])
def test_concession_apd_is_half_rounded_up__TS8(points: int, half: int) -> None:
    assert get_format("sr2019").concession_apd(points) == half


def test_concession_during_deployment_and_clock_out__TS8() -> None:
    table = Table.new()
    table.start()
    game = table.do(P1, c.Concede())
    assert game.ending is not None and game.ending.winner is P2
    table = flagged_in_own_turn(4, P1)
    game = table.do(P1, c.Concede())
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.CONCESSION, P2)
    with pytest.raises(RuleError):
        table.try_do(P2, c.Concede())
    with pytest.raises(NotYourSeat):
        table_at(2, P1).try_do(EO, c.Concede())


# --- TS9 result and confirmation ---------------------------------------------------


def test_result_fields__TS9() -> None:
    table = table_at(4, P1)
    table.game = replace(table.game, control_points=(2, 1))
    table.do(P1, c.CasterDestroyed())
    table.do(P2, c.FinalScoring(scoring({"flag-1": P2})))
    table.do(P1, c.ReportGame(army_points_destroyed=27, list_played="Haley 3"))
    table.do(P2, c.ReportGame(army_points_destroyed=49, list_played="Butcher 3"))
    assert table.game.result() == Result(
        winner=P2,
        method=Method.ASSASSINATION,
        control_points=(2, 2),
        army_points_destroyed=(27, 49),
        lists=("Haley 3", "Butcher 3"),
    )


def test_confirm_only_when_the_result_is_complete__TS9() -> None:
    table = table_at(3, P2)
    with pytest.raises(RuleError):
        table.try_do(P1, c.ConfirmResult())
    table.do(P2, c.CasterDestroyed())
    table.do(P1, c.FinalScoring(scoring()))
    table.do(P1, c.ReportGame(army_points_destroyed=10))
    with pytest.raises(RuleError):
        table.try_do(P1, c.ConfirmResult())
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    game = table.do(P1, c.ConfirmResult())
    assert game.confirmed == (True, False)
    game = table.do(P2, c.ConfirmResult())
    assert game.confirmed == (True, True)
    with pytest.raises(NotYourSeat):
        table.try_do(EO, c.ConfirmResult())


def test_a_new_report_resets_confirmations__TS9() -> None:
    table = table_at(3, P2)
    table.do(P1, c.Concede())
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    table.do(P2, c.ConfirmResult())
    assert table.game.confirmed == (False, True)
    game = table.do(P2, c.ReportGame(army_points_destroyed=60))
    assert game.confirmed == (False, False)
    result = game.result()
    assert result is not None and result.army_points_destroyed == (0, 60)


def test_a_result_both_players_confirmed_only_moves_by_the_eo__TS9() -> None:
    table = table_at(3, P2)
    table.do(P1, c.Concede())
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    table.do(P2, c.ConfirmResult())
    table.do(P1, c.ConfirmResult())
    settled = table.game
    for seat, command in (
        (P2, c.ReportGame(army_points_destroyed=60)),
        (P1, c.ReportGame(army_points_destroyed=75)),
        (P1, c.DisputeResult(reason="changed my mind")),
    ):
        with pytest.raises(RuleError, match="only the EO"):
            table.try_do(seat, command)
        assert table.game == settled
    moved = c.RecordResult(winner=P2, control_points=(0, 4), army_points_destroyed=(0, 60))
    with pytest.raises(RuleError, match="give the reason"):
        table.try_do(c.Role.EO, moved)
    assert table.game == settled
    game = table.do(c.Role.EO, replace(moved, reason="APD miscounted"))
    result = game.result()
    assert result is not None and result.army_points_destroyed == (0, 60)
    assert game.correction is not None and game.correction.reason == "APD miscounted"
    assert game.correction.before == settled.result() and not game.correction.before_by_eo


def test_an_eo_result_asks_no_phone_for_a_report__TS9() -> None:
    table = table_at(3, P2)
    table.do(P1, c.Concede())
    game = table.do(
        c.Role.EO,
        c.RecordResult(winner=P2, control_points=(0, 3), army_points_destroyed=(0, 38)),
    )
    assert reports_needed(game) == ()
    with pytest.raises(RuleError, match="only the EO"):
        table.try_do(P2, c.ReportGame(army_points_destroyed=10))


def test_reports_only_when_over_and_within_bounds__TS9() -> None:
    table = table_at(3, P2)
    with pytest.raises(RuleError):
        table.try_do(P1, c.ReportGame(army_points_destroyed=10))
    table.do(P1, c.Concede())
    for bad in (
        c.ReportGame(army_points_destroyed=-1),
        c.ReportGame(army_points_destroyed=10_001),
        c.ReportGame(army_points_destroyed=0, scenario_presence=-1),
        c.ReportGame(army_points_destroyed=0, list_played="x" * 201),
    ):
        with pytest.raises(BadInput):
            table.try_do(P2, bad)
    with pytest.raises(NotYourSeat):
        table.try_do(EO, c.ReportGame(army_points_destroyed=0))


# --- undo and stale taps -------------------------------------------------------------


def test_undo_within_ten_seconds_restores_the_pre_tap_game() -> None:
    table = Table.new()
    pre = table.start()
    assert pre.undo is None
    table.tap(after=MINUTE)  # P1 taps at 61 s: P2 deploys
    tap_at = table.now
    table.do(P2, c.ProposeUndo(), after=4_000)
    game = table.do(P1, c.AnswerUndo(accept=True), after=5_000)
    assert game == replace(pre, undo_outcome=UndoOutcome(P2, UndoEnd.ACCEPTED, table.now))
    assert game.clock.running is P1
    # as if the tap never happened: P1's time ran all along from the original since
    assert game.remaining(P1, table.now) == 60 * MINUTE - (table.now - pre.clock.since_ms)
    assert game.remaining(P2, table.now) == 60 * MINUTE
    assert table.now - tap_at == 9_000


def test_undo_of_a_turn_tap_restores_turn_scoring_and_clock() -> None:
    table = table_at(3, P1)
    pre = table.game
    table.tap(score=scoring({"rect-1": P1}), kill_box=True)
    assert table.game.control_points == (1, 2)
    table.do(P1, c.ProposeUndo(), after=2_000)
    game = table.do(P2, c.AnswerUndo(accept=True), after=2_000)
    accepted = UndoOutcome(P1, UndoEnd.ACCEPTED, table.now)
    assert game == replace(pre, undo=None, undo_outcome=accepted)
    assert (game.turn, game.active, game.control_points) == (3, P1, (0, 0))
    assert game.remaining(P1, table.now) == pre.remaining(P1, table.now)


def test_undo_proposed_after_ten_seconds_is_refused() -> None:
    table = table_at(2, P2)
    table.tap(score=scoring())
    with pytest.raises(RuleError):
        table.try_do(P1, c.ProposeUndo(), after=UNDO_WINDOW_MS + 1)
    table.do(P1, c.ProposeUndo(), after=UNDO_WINDOW_MS)  # the last allowed moment


def test_undo_accepted_ten_seconds_after_the_request_showed_is_refused() -> None:
    table = table_at(2, P2)
    table.tap(score=scoring())
    table.do(P2, c.ProposeUndo(), after=1_000)
    table.do(P1, c.UndoSeen(), after=1_000)
    with pytest.raises(RuleError, match="lapsed"):
        table.try_do(P1, c.AnswerUndo(accept=True), after=UNDO_WINDOW_MS)
    table.do(P1, c.AnswerUndo(accept=True), after=UNDO_WINDOW_MS - 1)  # its last moment


def test_undo_accepted_at_ten_seconds_from_the_tap_holds() -> None:
    table = table_at(2, P2)
    pre = table.game
    table.tap(score=scoring())
    table.do(P2, c.ProposeUndo(), after=4_000)
    game = table.do(P1, c.AnswerUndo(accept=True), after=UNDO_WINDOW_MS - 4_000)
    assert (game.turn, game.active) == (pre.turn, pre.active)


def test_proposer_cannot_accept_their_own_undo() -> None:
    table = table_at(2, P1)
    table.tap(kill_box=False)
    table.do(P1, c.ProposeUndo())
    with pytest.raises(NotYourSeat):
        table.try_do(P1, c.AnswerUndo(accept=True))
    with pytest.raises(NotYourSeat):
        table.try_do(EO, c.AnswerUndo(accept=True))


def test_declining_an_undo_clears_it_and_the_tap_stands() -> None:
    table = table_at(2, P1)
    tapped = table.tap(kill_box=False)
    table.do(P1, c.ProposeUndo())
    game = table.do(P2, c.AnswerUndo(accept=False))
    assert game.undo is None
    assert game == replace(
        tapped, undo=None, undo_outcome=UndoOutcome(P1, UndoEnd.DECLINED, table.now)
    )
    with pytest.raises(RuleError):
        table.try_do(P1, c.ProposeUndo())
    with pytest.raises(RuleError):
        table.try_do(P2, c.AnswerUndo(accept=True))


def test_no_undo_without_a_tap_or_proposal() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(RuleError):
        table.try_do(P1, c.ProposeUndo())
    table.tap()
    with pytest.raises(RuleError):
        table.try_do(P1, c.AnswerUndo(accept=True))


def test_switch_or_pause_clears_the_undo() -> None:
    table = table_at(2, P1)
    table.tap(kill_box=False)
    assert table.do(P2, c.SwitchClock(to=P1)).undo is None
    table = table_at(2, P1)
    table.tap(kill_box=False)
    assert table.do(EO, c.PauseClock()).undo is None


def test_undo_brings_back_a_flag_that_happened_meanwhile() -> None:
    """P1 tapped with 3 s left; undone 8 s later, P1's clock ran out 3 s after the tap."""
    table = table_at(4, P1, player_clock_ms=30 * MINUTE)
    left = table.game.remaining(P1, table.now)
    table.tap(score=scoring(), after=left - 3_000)
    table.do(P2, c.ProposeUndo(), after=4_000)
    game = table.do(P1, c.AnswerUndo(accept=True), after=4_000)
    assert game.flagged is P1
    assert game.phase is Phase.CLOCK_OUT
    assert game.clock.since_ms == table.now - 5_000
    assert game.remaining(P1, table.now) == 0


@pytest.mark.parametrize("phase_turn", [None, (1, P1), (3, P2)])
def test_stale_tap_is_refused_and_changes_nothing(phase_turn: tuple[int, Side] | None) -> None:
    if phase_turn is None:
        table = Table.new()
        table.start()
    else:
        table = table_at(*phase_turn)
    before = table.game
    snapshot = replace(before)
    stale = before.active.other
    for by in Side:
        with pytest.raises(StaleCommand):
            table.try_do(by, c.PassTurn(expect=stale))
    assert table.game is before
    assert table.game == snapshot


def test_double_tap_passes_the_clock_only_once() -> None:
    table = table_at(1, P1)
    game = table.do(P1, c.PassTurn(expect=P1))
    with pytest.raises(StaleCommand):
        apply(game, P1, c.PassTurn(expect=P1), table.now + 150)
    assert game.active is P2 and game.clock.running is P2


# --- EO clock adjustment ---------------------------------------------------------


def test_eo_adjusts_a_clock() -> None:
    table = table_at(2, P1)
    game = table.do(EO, c.AdjustClock(side=P2, remaining_ms=5 * MINUTE))
    assert game.remaining(P2, table.now + MINUTE) == 5 * MINUTE
    with pytest.raises(NotYourSeat):
        table.try_do(P1, c.AdjustClock(side=P1, remaining_ms=99 * MINUTE))
    with pytest.raises(BadInput):
        table.try_do(EO, c.AdjustClock(side=P1, remaining_ms=-1))
    game = table.do(EO, c.AdjustClock(side=P1, remaining_ms=0))
    # DC7: P1's turn 2 is before scoring starts, so the clock out is a loss at once.
    assert game.phase is Phase.OVER and game.flagged is P1
    assert game.ending is not None and game.ending.winner is P2
    assert game.clock.since_ms == table.now


def test_eo_adjust_is_bounded_by_the_player_clock__DC5() -> None:
    table = table_at(2, P1, player_clock_ms=60 * MINUTE)
    game = table.do(EO, c.AdjustClock(side=P2, remaining_ms=60 * MINUTE))
    assert game.remaining(P2, table.now) == 60 * MINUTE
    with pytest.raises(BadInput) as refused:
        table.try_do(EO, c.AdjustClock(side=P1, remaining_ms=119 * MINUTE))
    assert "0:00 to 60:00" in refused.value.message
    assert table.game.remaining(P1, table.now) < 60 * MINUTE  # nothing changed


# --- the EO's result ------------------------------------------------------------------


def test_the_eo_result_ends_a_game_in_play_and_stands_confirmed() -> None:
    table = table_at(3, P2)
    record = c.RecordResult(winner=P2, control_points=(1, 4), army_points_destroyed=(10, 40))
    with pytest.raises(NotYourSeat):
        table.try_do(P2, record)
    with pytest.raises(BadInput):
        table.try_do(EO, replace(record, control_points=(-1, 4)))
    game = table.do(EO, record)
    assert game.phase is Phase.OVER and game.clock.running is None
    assert game.ending is not None and game.ending.method is Method.EO
    assert game.confirmed == (True, True)
    assert game.result() == Result(P2, Method.EO, (1, 4), (10, 40), ("", ""))


def test_the_eo_corrects_a_confirmed_or_disputed_result() -> None:
    table = table_at(3, P1)
    table.do(P1, c.Concede())
    table.do(P2, c.ReportGame(army_points_destroyed=20))
    table.do(P1, c.DisputeResult(reason="I never conceded"))
    assert table.game.disputed is not None
    game = table.do(EO, c.RecordResult(None, (3, 3), (20, 20)))
    assert game.disputed is None and game.ending is not None
    assert game.ending.method is Method.CONCESSION  # how the game ended stays in the record
    result = game.result()
    assert result is not None and (result.winner, result.method) == (None, Method.EO)


# --- DC8 the round's end ----------------------------------------------------------


def test_round_end_never_ties_a_game_whose_clock_ran_out__DC8() -> None:
    """A game in clock out is not unfinished: the round's end cannot turn it into a tie."""
    table = flagged_in_own_turn(4, P1, cp=(2, 0))
    assert table.game.phase is Phase.CLOCK_OUT
    for actor in (SYSTEM, EO):
        with pytest.raises(RuleError):
            table.try_do(actor, c.CallTie())
    game = table.do(P1, c.AcceptClockLoss())
    assert game.ending is not None and (game.ending.method, game.ending.winner) == (
        Method.CLOCK,
        P2,
    )


def test_round_end_on_a_due_flag_decides_the_clock_loss_first__DC8() -> None:
    """The flag fell before the round's end call arrived: DC7 decides, the call is refused."""
    table = table_at(2, P1, player_clock_ms=30 * MINUTE)
    with pytest.raises(RuleError):
        table.try_do(SYSTEM, c.CallTie(), after=table.game.remaining(P1, table.now) + 1)
    game = table.do(SYSTEM, c.FlagCheck(), after=table.game.remaining(P1, table.now) + 1)
    assert game.ending is not None and game.ending.method is Method.CLOCK
