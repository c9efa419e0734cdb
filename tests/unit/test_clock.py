"""The Deathclock itself: remaining time derived from `since_ms`, never ticked."""

from __future__ import annotations

import pytest

from app.domain.clock import Clock, Side

P1, P2 = Side.P1, Side.P2
HOUR = 3_600_000


def running(side: Side, *, at: int = 1_000, each: int = HOUR) -> Clock:
    return Clock.start_with(each, 0).run(side, at)


def test_start_with_gives_both_sides_the_same_time_and_runs_nothing() -> None:
    clock = Clock.start_with(HOUR, 5_000)
    assert clock.remaining_ms == (HOUR, HOUR)
    assert clock.running is None
    assert clock.since_ms == 5_000
    assert clock.used_ms == (0, 0)
    assert clock.idle_ms == 0
    assert clock.flag_at() is None


def test_remaining_of_the_running_side_is_derived_from_since() -> None:
    clock = running(P1, at=1_000)
    assert clock.remaining(P1, 1_000) == HOUR
    assert clock.remaining(P1, 1_250) == HOUR - 250
    assert clock.remaining(P1, 61_000) == HOUR - 60_000
    # the same object answers for any moment: nothing is stored by asking
    assert clock.remaining(P1, 1_250) == HOUR - 250


def test_remaining_of_the_waiting_side_does_not_move() -> None:
    clock = running(P1)
    assert clock.remaining(P2, 10 * HOUR) == HOUR


def test_remaining_never_goes_below_zero() -> None:
    clock = running(P2, at=0, each=5_000)
    assert clock.remaining(P2, 5_000) == 0
    assert clock.remaining(P2, 99_999) == 0


def test_remaining_before_since_is_the_stored_value() -> None:
    clock = running(P1, at=10_000)
    assert clock.remaining(P1, 9_000) == HOUR


def test_settle_books_elapsed_time_to_the_running_side() -> None:
    clock = running(P1, at=1_000).settle(4_500)
    assert clock.remaining_ms == (HOUR - 3_500, HOUR)
    assert clock.used_ms == (3_500, 0)
    assert clock.since_ms == 4_500
    assert clock.running is P1
    assert clock.idle_ms == 1_000  # the second before P1 started


def test_settle_with_no_side_running_books_idle_time() -> None:
    clock = Clock.start_with(HOUR, 0).settle(7_000)
    assert clock.idle_ms == 7_000
    assert clock.remaining_ms == (HOUR, HOUR)
    assert clock.used_ms == (0, 0)
    assert clock.since_ms == 7_000


def test_settle_caps_the_running_side_at_zero_and_books_the_rest_as_idle() -> None:
    clock = running(P2, at=0, each=5_000).settle(8_000)
    assert clock.remaining_ms == (5_000, 0)
    assert clock.used_ms == (0, 5_000)
    assert clock.idle_ms == 3_000


def test_settle_does_not_change_what_remaining_answers() -> None:
    clock = running(P1, at=1_000)
    settled = clock.settle(30_000)
    for now in (30_000, 45_000, 2 * HOUR):
        for side in Side:
            assert settled.remaining(side, now) == clock.remaining(side, now)


def test_settle_refuses_time_going_backwards() -> None:
    clock = running(P1, at=10_000)
    with pytest.raises(ValueError):
        clock.settle(9_999)


def test_run_settles_then_switches_the_running_side() -> None:
    clock = running(P1, at=0).run(P2, 10_000)
    assert clock.running is P2
    assert clock.remaining_ms == (HOUR - 10_000, HOUR)
    assert clock.since_ms == 10_000
    assert clock.remaining(P1, 20_000) == HOUR - 10_000
    assert clock.remaining(P2, 20_000) == HOUR - 10_000


def test_run_none_stops_both_clocks() -> None:
    clock = running(P1, at=0).run(None, 10_000)
    assert clock.running is None
    assert clock.flag_at() is None
    assert clock.remaining(P1, 99_000) == HOUR - 10_000
    assert clock.settle(99_000).idle_ms == 89_000


def test_used_plus_remaining_is_the_player_clock() -> None:
    clock = running(P1, at=0)
    for at, side in ((3_000, P2), (8_000, P1), (9_500, None), (12_000, P2), (20_000, P1)):
        clock = clock.run(side, at)
        for s in Side:
            assert clock.used_ms[s] + clock.remaining_ms[s] == HOUR
    assert clock.used_ms == (3_000 + 1_500, 5_000 + 8_000)
    assert clock.idle_ms == 2_500
    assert sum(clock.used_ms) + clock.idle_ms == 20_000


def test_adjust_sets_a_side_after_settling() -> None:
    clock = running(P1, at=0).adjust(P1, 5 * 60_000, 30_000)
    assert clock.remaining_ms == (5 * 60_000, HOUR)
    assert clock.used_ms == (30_000, 0)
    assert clock.since_ms == 30_000
    assert clock.running is P1
    assert clock.remaining(P1, 90_000) == 4 * 60_000


def test_adjust_the_waiting_side() -> None:
    clock = running(P1, at=0).adjust(P2, 123, 1_000)
    assert clock.remaining_ms == (HOUR - 1_000, 123)
    assert clock.running is P1


def test_adjust_refuses_negative_time() -> None:
    with pytest.raises(ValueError):
        running(P1).adjust(P2, -1, 2_000)


def test_flag_at_is_since_plus_remaining_of_the_running_side() -> None:
    clock = running(P1, at=1_000, each=60_000)
    assert clock.flag_at() == 61_000
    later = clock.run(P2, 21_000).run(P1, 31_000)
    assert later.flag_at() == 31_000 + 40_000
    assert later.remaining(P1, 71_000) == 0
    assert later.remaining(P1, 70_999) == 1


def test_flag_at_of_a_waiting_or_stopped_clock_is_none() -> None:
    assert Clock.start_with(HOUR, 0).flag_at() is None
    assert running(P1).run(None, 5_000).flag_at() is None


def test_clock_is_immutable() -> None:
    clock = running(P1)
    with pytest.raises(AttributeError):
        clock.running = P2  # type: ignore[misc]
    clock.run(P2, 5_000)
    assert clock.running is P1


def test_side_helpers() -> None:
    assert P1.other is P2
    assert P2.other is P1
    assert (P1.label, P2.label) == ("P1", "P2")
    assert Side.parse("p1") is P1
    assert Side.parse("P2") is P2
    assert Side.parse(1) is P2
    with pytest.raises(ValueError):
        Side.parse("p3")
