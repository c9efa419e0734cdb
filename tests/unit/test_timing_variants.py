"""SR2019's event variants at the table: Classic Turn Timing and its sub-variants
(DC10), No Assassination Victory and No Tiebreakers."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain import variants
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.game import Method, Phase, Setup, apply, new_game
from app.domain.turn_timing import TimingPolicy
from app.tables.flag_timer import flag_bound
from app.tables.warmachine import codec
from app.tables.warmachine.view import game_view, table_info, table_summary
from tests.unit.helpers import EO, MINUTE, P1, P2, SYSTEM, Table, scoring

CLASSIC = variants.CLASSIC


def classic(*chosen: str, points: int = 75, at: int = 0) -> Table:
    setup = Setup(
        format_id="sr2019",
        scenario_id="king-of-the-hill",
        player_clock_ms=60 * MINUTE,
        army_points=points,
        variants=chosen,
    )
    return Table(new_game(setup, at), at)


def to_turn(table: Table, turn: int, side: object) -> Table:
    table.play_to(turn, side)  # type: ignore[arg-type]
    return table


# -- the table of times and the sub-variants ------------------------------------


@pytest.mark.parametrize(
    ("points", "round_min", "turn_min", "ext_min"),
    [(0, 30, 3, 0), (25, 50, 5, 0), (50, 70, 7, 5), (75, 100, 10, 5), (100, 120, 12, 5),
     (150, 150, 15, 5), (200, 200, 20, 5)],
)  # fmt: skip
def test_round_turn_and_extension_by_point_size__DC10(
    points: int, round_min: int, turn_min: int, ext_min: int
) -> None:
    timing = TimingPolicy().timing(points)
    assert (timing.round_ms, timing.turn_ms, timing.extension_ms) == (
        round_min * MINUTE,
        turn_min * MINUTE,
        ext_min * MINUTE,
    )


@pytest.mark.parametrize(
    ("variant", "points", "row_of"),
    [("classic_casual", 75, 100), ("classic_relaxed", 75, 150), ("classic_hardcore", 75, 50),
     ("classic_frenzy", 75, 25), ("classic_frenzy", 100, 50)],
)  # fmt: skip
def test_casual_relaxed_hardcore_frenzy_move_the_size__DC10(
    variant: str, points: int, row_of: int
) -> None:
    game = classic(variant, points=points).game
    expected = TimingPolicy().timing(row_of)
    assert game.timer is not None
    assert game.timer.timing.round_ms == expected.round_ms
    assert game.timer.timing.turn_ms == expected.turn_ms


def test_extensions_only_from_fifty_points_and_not_with_no_extensions__DC10() -> None:
    assert classic(CLASSIC, points=25).game.timer.timing.extension_ms == 0  # type: ignore[union-attr]
    # Casual: "Use the round time, turn time, and extension length of an event one point
    # size higher": at 25 points, 50's 5-minute extension; Hardcore at 50, 25's none.
    assert classic("classic_casual", points=25).game.timer.timing.extension_ms == 5 * MINUTE  # type: ignore[union-attr]
    assert classic("classic_hardcore", points=50).game.timer.timing.extension_ms == 0  # type: ignore[union-attr]
    assert classic("classic_relaxed", points=0).game.timer.timing.extension_ms == 5 * MINUTE  # type: ignore[union-attr]
    assert classic(CLASSIC, points=50).game.timer.timing.extension_ms == 5 * MINUTE  # type: ignore[union-attr]
    no_ext = classic("classic_no_extensions", points=75).game.timer
    assert no_ext is not None and no_ext.timing.extension_ms == 0
    assert no_ext.timing.turn_ms == 10 * MINUTE  # No Extensions is still Classic timing


def test_no_size_beyond_the_table_is_refused__DC10() -> None:
    with pytest.raises(BadInput, match="no point size 1 higher than 200"):
        classic("classic_casual", points=200)
    with pytest.raises(BadInput, match="2 lower than 25"):
        classic("classic_frenzy", points=25)


def test_variant_choices_are_checked__DC10() -> None:
    with pytest.raises(BadInput, match="not several"):
        variants.parse(["classic_casual", "classic_frenzy"], variants.ALL, "SR2019")
    with pytest.raises(BadInput, match="No Tiebreakers needs Classic Turn Timing"):
        variants.parse(["no_tiebreakers"], variants.ALL, "SR2019")
    with pytest.raises(BadInput, match="No Tiebreakers needs Classic Turn Timing"):
        variants.parse(["no_tiebreakers", "no_time_limits"], variants.ALL, "SR2019")
    with pytest.raises(BadInput, match="Masters 2019 has no variant classic_turn_timing"):
        new_game(Setup("masters2019", "king-of-the-hill", 60 * MINUTE, 75, variants=(CLASSIC,)), 0)
    assert variants.parse([], variants.ALL, "SR2019") == variants.BASELINE
    with pytest.raises(BadInput, match="Basic or Advanced Painting Required"):
        variants.parse(["painting_basic", "painting_advanced"], variants.ALL, "SR2019")
    # List and painting flags are announced; they change nothing at the table.
    flags = variants.parse(["battlegroup_only", "specialists"], variants.ALL, "SR2019")
    assert flags == variants.BASELINE
    assert variants.names(["specialists", "battlegroup_only", CLASSIC]) == [
        "Battlegroup Only",
        "Specialists",
        "Classic Turn Timing",
    ]


def test_a_deathclock_game_has_no_turn_timer__DC10() -> None:
    table = classic()
    assert table.game.timer is None
    table.start()
    with pytest.raises(RuleError, match="no turn timer"):
        table.try_do(P1, c.StartTurnTimer())


# -- the turn timer ------------------------------------------------------------------


def test_no_chess_clock_runs_out_under_classic_timing__DC10() -> None:
    table = classic(CLASSIC)
    table.start()
    # Far past the player clock of 60 minutes, but inside the 100-minute round.
    game = table.do(P1, c.FlagCheck(), after=90 * MINUTE)
    assert game.phase is Phase.DEPLOYMENT and game.ending is None


def test_round_clock_starts_with_the_game__DC10() -> None:
    table = classic(CLASSIC)
    table.start(after=5_000)
    timer = table.game.timer
    assert timer is not None and timer.round_end_ms == 5_000 + 100 * MINUTE
    assert timer.round_left(table.now + MINUTE) == 99 * MINUTE


def test_active_player_starts_and_stops_the_turn_timer__DC10() -> None:
    table = to_turn(classic(CLASSIC), 1, P1)
    timer = table.game.timer
    assert timer is not None and not timer.running and timer.left(table.now) == 10 * MINUTE
    # The time begins only once continuous effects are resolved: when P1 starts it.
    table.wait(30_000)
    with pytest.raises(NotYourSeat, match="your opponent's turn: only they may start"):
        table.try_do(P2, c.StartTurnTimer())
    table.do(P1, c.StartTurnTimer())
    game = table.do(P1, c.StopTurnTimer(), after=2 * MINUTE)  # the opponent rolls
    assert game.timer is not None and game.timer.left(table.now + MINUTE) == 8 * MINUTE
    game = table.do(P1, c.StartTurnTimer(), after=MINUTE)
    assert game.timer is not None and game.timer.left(table.now + MINUTE) == 7 * MINUTE
    with pytest.raises(NotYourSeat):
        table.try_do(P2, c.StopTurnTimer())


def test_the_eos_pause_holds_the_turn_timer__DC10_DC5() -> None:
    table = to_turn(classic(CLASSIC), 1, P1)
    table.do(P1, c.StartTurnTimer())
    table.do(EO, c.PauseClock(), after=MINUTE)
    table.do(EO, c.ResumeClock(), after=5 * MINUTE)
    timer = table.game.timer
    assert timer is not None and timer.running
    assert timer.left(table.now + MINUTE) == 8 * MINUTE  # the 5 paused minutes not counted


def test_each_turn_has_its_full_turn_time__DC10() -> None:
    table = to_turn(classic(CLASSIC), 1, P1)
    table.do(P1, c.StartTurnTimer())
    table.wait(4 * MINUTE)
    game = table.tap()
    assert game.active is P2 and game.timer is not None
    assert not game.timer.running and game.timer.left(table.now) == 10 * MINUTE


def test_turn_time_up_cannot_be_restarted__DC10() -> None:
    table = to_turn(classic(CLASSIC), 1, P1)
    table.do(P1, c.StartTurnTimer())
    table.do(P1, c.StopTurnTimer(), after=10 * MINUTE)
    with pytest.raises(RuleError, match="turn time is up"):
        table.try_do(P1, c.StartTurnTimer())


def test_one_extension_a_game_started_by_the_opponent__DC10() -> None:
    table = to_turn(classic(CLASSIC), 1, P1)
    table.do(P1, c.StartTurnTimer())
    with pytest.raises(NotYourSeat):
        table.try_do(P2, c.TakeExtension())
    table.do(P1, c.TakeExtension())
    with pytest.raises(RuleError, match="once the turn time has run out"):
        table.try_do(P2, c.StartExtension())
    table.wait(10 * MINUTE)
    with pytest.raises(NotYourSeat, match="only your opponent may start the turn extension"):
        table.try_do(P1, c.StartExtension())
    with pytest.raises(RuleError, match="the opponent starts the turn extension"):
        table.try_do(P1, c.StartTurnTimer())
    game = table.do(P2, c.StartExtension())
    assert game.timer is not None and game.timer.in_extension
    assert game.timer.left(table.now + MINUTE) == 4 * MINUTE
    table.tap(after=2 * MINUTE)
    table.tap()  # P2's turn 1 goes by; P1's turn 2
    with pytest.raises(RuleError, match="already taken the one turn extension"):
        table.try_do(P1, c.TakeExtension())


def test_no_extensions_variant_refuses_them__DC10() -> None:
    table = to_turn(classic("classic_no_extensions"), 1, P1)
    with pytest.raises(RuleError, match="no turn extensions"):
        table.try_do(P1, c.TakeExtension())


def test_an_extension_never_runs_past_the_round_time__DC10() -> None:
    table = classic(CLASSIC)
    table.start()
    table.tap(after=MINUTE)
    table.tap(after=MINUTE)
    table.tap(after=MINUTE)
    table.tap(after=MINUTE)  # P1's turn 1 at 4 minutes (and 1 s)
    table.wait(84 * MINUTE)  # 12 minutes of the round left
    table.do(P1, c.StartTurnTimer())
    table.do(P1, c.TakeExtension())
    table.wait(10 * MINUTE)
    game = table.do(P2, c.StartExtension())
    timer = game.timer
    assert timer is not None
    round_left = timer.round_left(table.now)
    assert round_left is not None and round_left < 5 * MINUTE
    assert timer.left(table.now) == round_left


# -- dice down -------------------------------------------------------------------


def test_eo_calls_dice_down_and_a_last_scoring_follows__DC10() -> None:
    table = to_turn(classic(CLASSIC), 3, P1)
    with pytest.raises(NotYourSeat, match="only the EO may call dice down"):
        table.try_do(P1, c.DiceDown())
    game = table.do(EO, c.DiceDown())
    assert game.phase is Phase.OVER and game.final_scoring_due
    assert game.ending is not None and game.ending.winner is None
    assert game.timer is not None and game.timer.called and not game.timer.running
    game = table.do(P1, c.FinalScoring(scoring({"rect-1": P1}), kill_box=False))
    assert game.control_points == (1, 0) and not game.final_scoring_due
    table.do(P1, c.ReportGame(army_points_destroyed=20, scenario_presence=None, list_played="A"))
    table.do(P2, c.ReportGame(army_points_destroyed=30, scenario_presence=None, list_played="B"))
    result = table.game.result()
    # "If a game does not have a clear winner after dice down, refer to 'Victory
    # Conditions'": the player with the most CP wins via scenario victory (TS4).
    assert result is not None and result.winner is P1 and result.method is Method.SCENARIO


def test_dice_down_at_the_round_clocks_end__DC10() -> None:
    table = to_turn(classic(CLASSIC), 2, P2)
    timer = table.game.timer
    assert timer is not None
    end = timer.round_end_ms
    assert flag_bound(table.game) == end  # the server's timer is armed for it
    game = apply(table.game, SYSTEM, c.FlagCheck(), end + 3_000)
    assert game.phase is Phase.OVER and game.ending is not None
    assert game.ending.at_ms == end and game.final_scoring_due


def test_a_scenario_victory_in_the_last_scoring_wins__DC10() -> None:
    table = to_turn(classic(CLASSIC), 3, P2)
    table.do(EO, c.DiceDown())
    control = {"rect-1": P2, "rect-2": P2, "circle-1": P2, "flag-1": P2}
    game = table.do(P2, c.FinalScoring(scoring(control, {"objective-p1"}), kill_box=False))
    assert game.ending is not None
    assert game.ending.winner is P2 and game.ending.method is Method.SCENARIO


def test_dice_down_before_scoring_starts_has_no_last_scoring__DC10() -> None:
    table = to_turn(classic(CLASSIC), 1, P2)
    game = table.do(EO, c.DiceDown())
    assert game.phase is Phase.OVER and not game.final_scoring_due


def test_no_time_limits_has_no_round_clock_nor_dice_down__DC10() -> None:
    table = to_turn(classic("no_time_limits"), 1, P1)
    timer = table.game.timer
    assert timer is not None and not timer.limited and timer.round_left(table.now) is None
    with pytest.raises(RuleError, match="no time limits"):
        table.try_do(EO, c.DiceDown())
    assert apply(table.game, SYSTEM, c.FlagCheck(), table.now + 600 * MINUTE).ending is None


# -- victory variants ------------------------------------------------------------


def test_no_tiebreakers_makes_time_out_a_tie__no_tiebreakers() -> None:
    table = to_turn(classic(CLASSIC, variants.NO_TIEBREAKERS), 3, P1)
    table.do(EO, c.DiceDown())
    table.do(P1, c.FinalScoring(scoring({"rect-1": P1}), kill_box=False))
    table.do(P1, c.ReportGame(army_points_destroyed=20, scenario_presence=None, list_played="A"))
    table.do(P2, c.ReportGame(army_points_destroyed=30, scenario_presence=None, list_played="B"))
    result = table.game.result()
    assert result is not None and result.winner is None and result.method is Method.TIME


def test_no_assassination_victory_plays_on__no_assassination() -> None:
    table = to_turn(classic(variants.NO_ASSASSINATION), 3, P1)
    game = table.do(P1, c.CasterDestroyed())
    assert game.phase is Phase.TURN and game.ending is None and game.casters == (False, True)
    game = table.tap()
    assert game.active is P2
    game = table.do(P1, c.NoModelsLeft())
    assert game.ending is not None
    assert game.ending.winner is P2 and game.ending.method is Method.DESTRUCTION
    assert game.final_scoring_due


def test_no_models_left_needs_the_variant__no_assassination() -> None:
    table = to_turn(classic(), 3, P1)
    with pytest.raises(RuleError, match="assassination victory"):
        table.try_do(P1, c.NoModelsLeft())


# -- what the phones see ---------------------------------------------------------


def test_views_and_wire_carry_the_timer__DC10() -> None:
    table = to_turn(classic(CLASSIC), 1, P1)
    table.do(P1, c.StartTurnTimer())
    view = game_view(table.game, table.now + MINUTE)
    assert view["timer"]["left_ms"] == 9 * MINUTE and view["timer"]["running"]
    assert view["timer"]["extension_ms"] == 5 * MINUTE
    summary = table_summary("t", 1, table.game, "playing", table.now)
    assert summary["timer"]["round_left_ms"] is not None
    info = table_info("t", table.game)
    assert info["variants"]["names"] == ["Classic Turn Timing"]
    for name in ("start_timer", "stop_timer", "take_extension", "start_extension", "dice_down",
                 "no_models_left"):  # fmt: skip
        cmd = codec.command_from_wire({"c": name})
        assert codec.command_to_wire(cmd) == {"c": name}
    assert game_view(classic().game, 0)["timer"] is None


def test_snapshot_reads_a_classic_game_back__DC10() -> None:
    from app.tables import snapshot

    table = to_turn(classic(CLASSIC, variants.NO_TIEBREAKERS), 1, P1)
    table.do(P1, c.StartTurnTimer())
    table.do(P1, c.TakeExtension())
    assert snapshot.read(snapshot.write(table.game)) == table.game


def test_a_phone_may_queue_its_timer_commands_offline_but_not_dice_down__DC10() -> None:
    from app.domain.merge import check_offline

    for command in (c.StartTurnTimer(), c.StopTurnTimer(), c.TakeExtension(), c.StartExtension()):
        check_offline(command)
    check_offline(c.NoModelsLeft())
    with pytest.raises(NotYourSeat, match="only the EO"):
        check_offline(c.DiceDown())


def test_the_round_clocks_end_stops_a_running_turn_timer__DC10() -> None:
    from app.domain.game import decide_time

    table = to_turn(classic(CLASSIC), 2, P2)
    table.do(P2, c.StartTurnTimer())
    timer = table.game.timer
    assert timer is not None
    decided = decide_time(table.game, timer.round_end_ms + 5_000)
    assert decided.timer is not None and decided.timer.called and not decided.timer.running
    assert decided.ending is not None and decided.ending.at_ms == timer.round_end_ms
