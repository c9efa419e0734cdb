"""Iron Gauntlet 2014, rule by rule, played through the domain
(shared/seeds/iron-gauntlet-2014.txt)."""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.formats import get_format
from app.domain.game import Method, Phase
from app.domain.rulebook import RoundEndCall
from app.domain.rulesets.ig2014 import this_cycle
from app.domain.status import LIVE, TableStatus, table_status
from app.domain.tournament import bye_award, round_end_call

from .helpers import EO, MINUTE, P1, P2, SYSTEM, Table

IG = get_format("ig2014")


def ig(scenario: str, *, clock: int = 60 * MINUTE) -> Table:
    return Table.new(scenario, format_id="ig2014", player_clock_ms=clock, army_points=50)


def sheet(
    control: dict[str, Side] | None = None,
    dominate: dict[str, Side] | None = None,
    destroyed: frozenset[str] = frozenset(),
    removed: frozenset[str] = frozenset(),
) -> c.Scoring:
    return c.Scoring(
        control=MappingProxyType(dict(control or {})),
        dominate=MappingProxyType(dict(dominate or {})),
        destroyed=destroyed,
        removed=removed,
    )


def scored_at_p2_turn_2(scenario: str, scoring: c.Scoring) -> Table:
    table = ig(scenario)
    table.play_to(2, P2)
    table.tap(score=scoring)
    return table


# -- DC2, DC3: the clock -----------------------------------------------------------------


@pytest.mark.parametrize(("points", "minutes"), [(35, 42), (50, 60), (75, 72)])
def test_player_clock_by_points__DC2(points: int, minutes: int) -> None:
    assert IG.player_clock_ms(points) == minutes * MINUTE
    with pytest.raises(BadInput, match="no clock for 100 points"):
        IG.player_clock_ms(100)


def test_pre_deployment_runs_on_the_clock_before_deployment__DC3() -> None:
    table = ig("outflank")
    assert table.start().phase is Phase.PRE_DEPLOYMENT
    # A table in pre-deployment is deploying for the EO, not finished.
    assert table_status(table.game) is TableStatus.DEPLOYING
    table.wait(5 * MINUTE)
    game = table.tap()
    assert (game.phase, game.active) == (Phase.PRE_DEPLOYMENT, P2)
    assert game.remaining(P1, table.now) < 55 * MINUTE  # P1's pre-deployment was on the clock
    phases = [table.tap().phase for _ in range(5)]
    assert phases == [
        Phase.DEPLOYMENT,
        Phase.DEPLOYMENT,
        Phase.ADVANCE_DEPLOYMENT,
        Phase.ADVANCE_DEPLOYMENT,
        Phase.TURN,
    ]
    assert (table.game.turn, table.game.active) == (1, P1)


# -- DC5: players never pause ------------------------------------------------------------


def test_a_pause_reported_is_a_warning_and_the_second_loses__DC5() -> None:
    table = ig("outflank")
    table.play_to(1, P2)
    reported = table.do(P1, c.ReportPause())
    assert reported.pause_reported is P2
    with pytest.raises(NotYourSeat):
        table.do(P1, c.WarnForPausing(side=P2))
    warned = table.do(EO, c.WarnForPausing(side=P2))
    assert (warned.pause_warnings, warned.pause_reported, warned.phase) == (
        (0, 1),
        None,
        Phase.TURN,
    )
    lost = table.do(EO, c.WarnForPausing(side=P2))
    assert lost.phase is Phase.OVER
    assert lost.ending is not None
    assert (lost.ending.method, lost.ending.winner) == (Method.PAUSING, P1)


# -- DC7: a clock out is a loss, scored as an assassination ------------------------------


def test_clock_out_loses_with_no_scenario_claim__DC7() -> None:
    table = ig("outflank", clock=20 * MINUTE)
    table.play_to(3, P1)
    left = table.game.remaining(P1, table.now)
    game = table.do(SYSTEM, c.FlagCheck(), after=left + 1)
    assert game.phase is Phase.OVER  # no claim is waited for
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (Method.CLOCK, P2)
    assert game.casters == (False, True)
    assert game.final_scoring_due  # scored with current table conditions
    assert game.control_points == (0, 0)


# -- DC8: the round's end ----------------------------------------------------------------


def test_round_end_over_five_minutes_is_a_draw_even_after_an_eo_pause__DC8() -> None:
    over = (4 * MINUTE, 2 * MINUTE)
    assert round_end_call(over, True, rules=IG) is RoundEndCall.TIE
    assert round_end_call(over, False, rules=IG) is RoundEndCall.TIE
    assert round_end_call((3 * MINUTE, 2 * MINUTE), True, rules=IG) is RoundEndCall.PLAY_ON
    table = ig("outflank")
    table.play_to(3, P2)
    game = table.do(SYSTEM, c.CallTie())
    table.do(P1, c.ReportGame(army_points_destroyed=10))
    game = table.do(P2, c.ReportGame(army_points_destroyed=10))
    assert game.ending is not None and game.ending.method is Method.TIME
    result = game.result()
    assert result is not None and result.winner is None
    assert IG.tie_word == "Draw"


# -- TS2: control 1, dominate 2 ----------------------------------------------------------


def test_dominate_scores_two_and_control_one__TS2() -> None:
    table = scored_at_p2_turn_2(
        "outflank", sheet(dominate={"circle-1": P2}, control={"circle-2": P1})
    )
    assert table.game.control_points == (1, 2)


def test_a_caster_dominates_one_element_and_not_also_controls_it__TS2() -> None:
    table = ig("outflank")
    table.play_to(2, P2)
    with pytest.raises(BadInput, match="one element only"):
        table.tap(score=sheet(dominate={"circle-1": P2, "circle-2": P2}))
    with pytest.raises(BadInput, match="not also controlled"):
        table.tap(score=sheet(dominate={"circle-1": P2}, control={"circle-1": P1}))
    both = table.tap(score=sheet(dominate={"circle-1": P2, "circle-2": P1}))
    assert both.control_points == (2, 2)


def test_steamroller_sheet_without_domination_still_scores__TS2() -> None:
    table = scored_at_p2_turn_2("outflank", sheet(control={"circle-1": P1, "circle-2": P1}))
    assert table.game.control_points == (2, 0)


# -- TS3: kill box -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "kill_box"),
    [
        ("destruction", True),
        ("balance-of-power", False),
        ("close-quarters", True),
        ("incursion", False),
        ("outflank", False),
        ("fire-support", True),
    ],
)
def test_kill_box_only_where_the_scenario_says_yes__TS3(scenario: str, kill_box: bool) -> None:
    table = ig(scenario)
    table.play_to(2, P1)
    assert table.game.kill_box_due is kill_box
    if kill_box:
        assert table.tap(kill_box=True).control_points == (0, 2)
    else:
        with pytest.raises(BadInput, match="has no kill box"):
            table.tap(kill_box=True)
    assert '14" of any table edge' in IG.kill_box.question


# -- TS5: victory, and no more CP than needed --------------------------------------------


def test_at_least_five_and_more_than_the_opponent_wins_at_once__TS5() -> None:
    assert IG.scenario_winner((5, 4)) is P1
    assert IG.scenario_winner((4, 0)) is None
    assert IG.scenario_winner((5, 5)) is None
    assert IG.scenario_winner((5, 6)) is P2
    table = ig("outflank")
    table.play_to(2, P2)
    table.tap(score=sheet(dominate={"circle-1": P2}, control={"circle-2": P2}))  # 0-3
    table.tap(score=sheet(dominate={"circle-1": P1}))  # P1's turn 3: 2-3
    game = table.tap(score=sheet(dominate={"circle-1": P2}, control={"circle-2": P2}))
    assert game.phase is Phase.OVER
    assert game.ending is not None and (game.ending.method, game.ending.winner) == (
        Method.SCENARIO,
        P2,
    )
    assert game.control_points == (2, 5)  # 6 scored, 5 needed: 5 recorded


def test_no_turn_limit__TS5() -> None:
    table = ig("outflank")
    table.play_to(8, P2)
    assert table.tap(score=sheet()).phase is Phase.TURN


# -- each scenario's own table -----------------------------------------------------------


def test_destruction_enemy_objective_only_for_the_attacker__TS5() -> None:
    table = scored_at_p2_turn_2(
        "destruction",
        sheet(destroyed=frozenset({"objective-p1"}), removed=frozenset({"objective-p2"})),
    )
    assert table.game.control_points == (0, 1)  # P2 destroyed P1's; P2's own fell: nothing
    assert table.game.objectives_destroyed == {"objective-p1", "objective-p2"}
    with pytest.raises(RuleError, match="already scored"):
        table.tap(score=sheet(destroyed=frozenset({"objective-p1"})))


def test_balance_of_power_friendly_flag_costs_the_opponent_a_point__TS5() -> None:
    table = scored_at_p2_turn_2("balance-of-power", sheet(dominate={"flag-p1": P2}))
    assert table.game.control_points == (0, 2)
    game = table.tap(score=sheet(dominate={"flag-p1": P1}, control={"zone": P2}))
    assert game.control_points == (0, 2)  # P2 loses 1 first, then controls the zone
    game = table.tap(score=sheet(dominate={"flag-p2": P2}))
    assert game.control_points == (0, 2)  # never below 0
    with pytest.raises(BadInput, match="only by dominating"):
        table.tap(score=sheet(control={"flag-p2": P2}))


def test_close_quarters_friendly_flag_dominate_one__TS5() -> None:
    table = scored_at_p2_turn_2("close-quarters", sheet(dominate={"flag-p2": P2}))
    assert table.game.control_points == (0, 1)
    game = table.tap(score=sheet(dominate={"flag-p2": P1}))
    assert game.control_points == (2, 1)
    game = table.tap(score=sheet(control={"flag-p1": P2}))
    assert game.control_points == (2, 2)


def test_incursion_removes_an_outer_flag_rolled_by_the_server__TS5() -> None:
    table = ig("incursion")
    table.play_to(1, P2)
    game = table.tap()
    assert game.roll_due == 2
    with pytest.raises(NotYourSeat):
        table.do(P1, c.ScenarioRoll(value=1))
    game = table.do(SYSTEM, c.ScenarioRoll(value=2))
    assert (game.roll_due, game.removed) == (0, {"flag-right"})
    table.play_to(2, P2)
    with pytest.raises(BadInput, match="removed from the table"):
        table.tap(score=sheet(control={"flag-right": P1}))
    game = table.tap(score=sheet(dominate={"flag-centre": P1}, control={"flag-left": P2}))
    assert game.control_points == (1, 1)  # the centre flag dominated is 1 CP
    game = table.tap(score=sheet(dominate={"flag-left": P1}))
    assert game.control_points == (3, 1)


def test_fire_support_flags_and_ammunition_caches__TS5() -> None:
    table = scored_at_p2_turn_2(
        "fire-support",
        sheet(
            dominate={"flag-1": P2}, control={"flag-2": P1}, destroyed=frozenset({"objective-p1"})
        ),
    )
    assert table.game.control_points == (1, 3)


# -- TS7: tiebreakers --------------------------------------------------------------------


def _tied() -> Table:
    """Both casters destroyed at once: tiebreakers decide (the document's only way
    to them, with no turn limit and a draw at the round's end)."""
    table = ig("outflank")
    table.play_to(3, P1)
    table.do(P1, c.CasterDestroyed(both=True))
    return table


def test_tiebreak_army_points_remaining_before_apd__TS7() -> None:
    table = _tied()
    table.do(P1, c.ReportGame(army_points_destroyed=30))
    game = table.do(P2, c.ReportGame(army_points_destroyed=10))
    assert game.result() is None  # army points remaining are needed first
    table.do(P1, c.ReportGame(army_points_destroyed=30, scenario_presence=20))
    game = table.do(P2, c.ReportGame(army_points_destroyed=10, scenario_presence=24))
    result = game.result()
    assert result is not None and result.winner is P2  # more remaining, despite APD


def test_tiebreak_apd_then_a_draw__TS7() -> None:
    table = _tied()
    table.do(P1, c.ReportGame(army_points_destroyed=30, scenario_presence=20))
    game = table.do(P2, c.ReportGame(army_points_destroyed=10, scenario_presence=20))
    result = game.result()
    assert result is not None and result.winner is P1  # P1 suffered fewer
    table.do(P1, c.ReportGame(army_points_destroyed=10, scenario_presence=20))
    game = table.do(P2, c.ReportGame(army_points_destroyed=10, scenario_presence=20))
    result = game.result()
    assert result is not None and result.winner is None  # equal on everything: a draw
    assert "doubled inside" in IG.collected


# -- TS8, RP3: concession and bye --------------------------------------------------------


def test_concession_gives_half_the_scenario_cp_and_assassination_apd__TS8() -> None:
    table = ig("outflank")
    table.play_to(2, P2)
    table.tap(score=sheet(control={"circle-1": P1}))
    table.do(P2, c.Concede())
    game = table.do(P1, c.ReportGame(army_points_destroyed=17))
    result = game.result()
    assert result is not None
    assert (result.winner, result.control_points, result.army_points_destroyed) == (
        P1,
        (3, 0),
        (17, 0),
    )


def test_bye_is_one_tp_half_the_scenario_cp_and_half_the_points__RP3() -> None:
    assert bye_award(50, IG) == (1, 3, 25)
    assert bye_award(35, IG) == (1, 3, 18)


# -- RP4: scenario per round -------------------------------------------------------------


class Dice(random.Random):
    def __init__(self, rolls: list[int]) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        value = self.rolls.pop(0)
        assert a <= value <= b
        return value


IDS = [s.id for s in IG.scenarios]


def test_scenario_from_the_d3_row_and_d6_column__RP4() -> None:
    assert IDS == [
        "destruction",
        "balance-of-power",
        "close-quarters",
        "incursion",
        "outflank",
        "fire-support",
    ]
    assert IG.pick_scenario(IDS, [], Dice([1, 3])) == "destruction"
    assert IG.pick_scenario(IDS, [], Dice([2, 4])) == "incursion"
    assert IG.pick_scenario(IDS, [], Dice([3, 6])) == "fire-support"


def test_no_scenario_repeats_until_all_six_are_played__RP4() -> None:
    assert IG.pick_scenario(IDS, ["destruction"], Dice([1, 1, 1, 6])) == "balance-of-power"
    with pytest.raises(RuleError, match="until all six"):
        IG.pick_scenario(IDS, ["outflank"], random.Random(0), "outflank")
    assert this_cycle(IDS, IDS) == set()
    assert IG.pick_scenario(IDS, [*IDS], Dice([1, 1])) == "destruction"  # a new cycle
    rng = random.Random(4)
    used: list[str] = []
    for _ in range(6):
        used.append(IG.pick_scenario(IDS, used, rng))
    assert sorted(used) == sorted(IDS)


# -- lists, ST4 --------------------------------------------------------------------------


def test_two_lists_each_played_at_least_once() -> None:
    rule = IG.list_rule(None)
    assert (rule.fewest, rule.most) == (2, 2)
    with pytest.raises(BadInput):
        rule.check(1)
    lists = ["Kaelyssa", "Vyros"]
    assert rule.choices(lists, ["Kaelyssa", "Kaelyssa"], 2) == lists
    assert rule.choices(lists, ["Kaelyssa", "Kaelyssa", "Kaelyssa"], 1) == ["Vyros"]
    assert rule.choices(lists, [], 2) == lists
    assert rule.choices(lists, [], 1) == lists  # both unplayed, one game left: either


@pytest.mark.parametrize(
    ("rank", "points"), [(1, 10), (2, 8), (3, 6), (4, 4), (5, 2), (8, 2), (9, 1), (16, 1), (17, 0)]
)
def test_qualifier_points_for_the_final_standings__ST4(rank: int, points: int) -> None:
    assert IG.qualifier_points_for(rank) == points
    assert get_format("sr2019").qualifier_points_for(rank) is None


def test_the_lists_offered_for_a_game_are_the_only_ones_reported() -> None:
    table = ig("outflank")
    with pytest.raises(NotYourSeat):
        table.do(P1, c.OfferLists(p1=("Vyros",)))
    table.do(SYSTEM, c.OfferLists(p1=("Vyros",), p2=("Caine", "Stryker")))
    table.play_to(2, P1)
    table.do(P2, c.Concede())
    with pytest.raises(BadInput, match="Vyros"):
        table.do(P1, c.ReportGame(army_points_destroyed=10, list_played="Kaelyssa"))
    game = table.do(P1, c.ReportGame(army_points_destroyed=10, list_played="Vyros"))
    result = game.result()
    assert result is not None and result.lists == ("Vyros", "")


def test_an_ig_table_reads_back_from_its_snapshot() -> None:
    from app.tables.jsontext import dumps, loads
    from app.tables.snapshot import read, write

    table = ig("incursion")
    table.do(SYSTEM, c.OfferLists(p1=("Vyros", "Kaelyssa"), p2=("Caine",)))
    table.play_to(1, P2)
    table.tap()
    table.do(SYSTEM, c.ScenarioRoll(value=1))
    table.do(P2, c.ReportPause())
    table.do(EO, c.WarnForPausing(side=P1))
    game = table.game
    assert game.phase is Phase.TURN and game.removed == {"flag-left"}
    assert read(loads(dumps(write(game)))) == game


def test_every_phase_before_the_end_is_a_live_table_status__DC3() -> None:
    """However a format's game begins, a table whose game is not over is live."""
    table = ig("outflank")
    seen = {table.game.phase}
    assert table_status(table.game) in LIVE
    table.start()
    while table.game.phase is not Phase.TURN:
        seen.add(table.game.phase)
        assert table_status(table.game) in LIVE, table.game.phase
        table.tap()
    assert {Phase.READY, Phase.PRE_DEPLOYMENT, Phase.DEPLOYMENT} <= seen
