"""The legacy scenario pack (shared/seeds/legacy-scenarios.txt), scenario by scenario,
played through the domain to its victory condition (TS10)."""

from __future__ import annotations

import ast
from pathlib import Path
from types import MappingProxyType

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.formats import FORMATS, get_format
from app.domain.game import Game, Method, Phase

from .helpers import MINUTE, P1, P2, SYSTEM, Table

LEGACY = get_format("legacy")


def legacy(scenario: str, *, clock: int = 60 * MINUTE) -> Table:
    return Table.new(scenario, format_id="legacy", player_clock_ms=clock, army_points=75)


def held(**control: Side) -> c.Scoring:
    """A sheet: who controls (holds) which element; ids with '_' for '-'."""
    return c.Scoring(control=MappingProxyType({k.replace("_", "-"): v for k, v in control.items()}))


def won(game: Game, winner: Side, method: Method = Method.SCENARIO) -> None:
    assert game.phase is Phase.OVER
    assert game.ending is not None
    assert (game.ending.method, game.ending.winner) == (method, winner)


def test_the_pack_has_sixteen_scenarios_without_kill_box_or_turn_limit__TS10() -> None:
    assert [s.roll for s in LEGACY.scenarios] == list(range(1, 17))
    assert len({s.id for s in LEGACY.scenarios}) == 16
    assert LEGACY.last_turn is None
    assert not any(s.kill_box for s in LEGACY.scenarios)
    assert all(s.victory_words for s in LEGACY.scenarios)
    assert all("warcasters/warlocks in play" in s.victory_words for s in LEGACY.scenarios)


def test_no_module_outside_the_rulesets_compares_a_scenario_id__TS10() -> None:
    """The engine asks the scenario's hooks; it never branches on which scenario it is."""
    app = Path(__file__).resolve().parents[2] / "app"
    rulesets = app / "domain" / "rulesets"
    ids = {s.id for f in FORMATS.values() for s in f.scenarios}
    found = []
    for path in app.rglob("*.py"):
        if rulesets in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare | ast.Match):
                named = [
                    n for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value in ids
                ]
                found += [f"{path.name}:{node.lineno}" for _ in named[:1]]
    assert found == []


# -- won by assassination only ----------------------------------------------------------


@pytest.mark.parametrize("scenario", ["bodyguard", "scattered-lines", "daybreak", "nightfall"])
def test_assassination_only_scenarios_are_never_scored__TS10(scenario: str) -> None:
    table = legacy(scenario)
    for turn in range(1, 10):
        table.play_to(turn, P2)
        assert not table.game.scoring_due and not table.game.kill_box_due
    with pytest.raises(BadInput, match="won by assassination only: nothing is scored"):
        table.tap(score=held())
    game = table.do(P2, c.CasterDestroyed())
    won(game, P1, Method.ASSASSINATION)
    assert not game.final_scoring_due  # nothing on the table to score


def test_bodyguard_is_won_by_assassination__TS10_bodyguard() -> None:
    table = legacy("bodyguard")
    table.play_to(12, P1)  # no turn limit
    won(table.do(P1, c.CasterDestroyed()), P2, Method.ASSASSINATION)


def test_scattered_lines_is_won_by_assassination__TS10_scattered_lines() -> None:
    table = legacy("scattered-lines")
    table.play_to(2, P2)
    won(table.do(P1, c.CasterDestroyed()), P2, Method.ASSASSINATION)


def test_daybreak_line_of_sight_grows_each_round__TS10_daybreak() -> None:
    table = legacy("daybreak")
    assert table.game.round_notes == ('Round 1: 6" LOS',)  # before the first turn
    seen = []
    for turn in range(1, 7):
        seen.append(table.play_to(turn, P1).round_notes)
        assert table.play_to(turn, P2).round_notes == seen[-1]  # the same for the round
    assert seen == [
        ('Round 1: 6" LOS',),
        ('Round 2: 8" LOS',),
        ('Round 3: 10" LOS',),
        ('Round 4: 12" LOS',),
        ("Round 5: normal LOS",),
        ("Round 6: normal LOS",),
    ]
    won(table.do(P2, c.CasterDestroyed()), P1, Method.ASSASSINATION)


def test_nightfall_line_of_sight_shrinks_each_round__TS10_nightfall() -> None:
    table = legacy("nightfall")
    seen = [table.play_to(turn, P2).round_notes[0] for turn in range(1, 7)]
    assert seen == [
        "Round 1: normal LOS",
        'Round 2: 12" LOS',
        'Round 3: 10" LOS',
        'Round 4: 8" LOS',
        'Round 5: 6" LOS',
        'Round 6: 6" LOS',
    ]
    won(table.do(P1, c.CasterDestroyed()), P2, Method.ASSASSINATION)


# -- won by Control Points --------------------------------------------------------------


def test_capture_the_flag_two_cp_for_the_enemy_flag_from_p2_turn_3__TS10_capture_the_flag() -> None:
    table = legacy("capture-the-flag")
    table.play_to(3, P1)
    assert not table.game.scoring_due  # P1's turn 3 is not scored yet
    table.play_to(3, P2)
    with pytest.raises(BadInput, match="scored only by Player 1"):
        table.tap(score=held(flag_p2=P2))  # his own flag
    assert table.tap(score=held(flag_p1=P2)).control_points == (0, 1)
    assert table.tap(score=held(flag_p2=P1)).control_points == (1, 1)
    game = table.tap(score=held(flag_p1=P2))
    won(game, P2)
    assert game.control_points == (1, 2)


def test_command_positions_three_cp_at_the_end_of_his_turn__TS10_command_positions() -> None:
    table = legacy("command-positions")
    table.play_to(3, P2)
    with pytest.raises(BadInput, match="only the player ending the turn"):
        table.tap(score=held(zone_left=P1))
    assert table.tap(score=held(zone_left=P2, zone_right=P2)).control_points == (0, 2)
    assert table.tap(score=held(zone_left=P1)).control_points == (1, 2)
    won(table.tap(score=held(zone_right=P2)), P2)


def test_unlikely_alliance_three_cp_from_p2_turn_3__TS10_unlikely_alliance() -> None:
    table = legacy("unlikely-alliance")
    table.play_to(3, P2)
    table.tap(score=held(zone_left=P2))
    table.tap(score=held(zone_left=P1, zone_right=P1))
    table.tap(score=held())
    game = table.tap(score=held(zone_right=P1))
    won(game, P1)
    assert game.control_points == (3, 1)


def test_gauntlet_scores_only_on_the_opponents_side_edge_2_centre_1__TS10_gauntlet() -> None:
    table = legacy("gauntlet")
    table.play_to(3, P2)
    with pytest.raises(BadInput, match="scored only by Player 2"):
        table.tap(score=held(gauntlet_p1_edge=P1))  # on his own side
    game = table.tap(score=held(gauntlet_p2_centre=P1, gauntlet_p1_centre=P2))
    assert game.control_points == (1, 1)  # either player scores at any turn's end
    game = table.tap(score=held(gauntlet_p1_edge=P2))
    won(game, P2)
    assert game.control_points == (1, 3)


def test_frontline_foray_five_cp_at_most_two_per_line_section__TS10_frontline_foray() -> None:
    table = legacy("frontline-foray")
    table.play_to(1, P2)
    assert not table.game.scoring_due
    table.play_to(2, P1)  # "starting on the second round"
    assert table.tap(score=held(line_1=P1, line_2=P1)).control_points == (2, 0)
    table.tap(score=held(line_3=P2))
    assert table.tap(score=held(line_1=P1, line_2=P1)).control_points == (4, 1)
    table.tap(score=held())
    game = table.tap(score=held(line_1=P1, line_2=P1))  # both sections spent
    assert game.control_points == (4, 1)
    assert game.earned["line-1"] == (2, 0)
    first, second = game.names  # the notes name the players
    assert (
        f'Line Section 1 (12" of the centerline): {first} 2 CP, {second} 0 CP (at most 2 each)'
        in game.round_notes
    )
    table.tap(score=held())
    won(table.tap(score=held(line_1=P1, line_4=P1)), P1)
    assert table.game.control_points == (5, 1)


# -- won by ending a turn in control ----------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "element"),
    [
        ("engines-of-destruction", "centre-zone"),
        ("fine-line", "line"),
        ("power-play", "centre-zone"),
        ("no-mans-land", "no-mans-land"),
    ],
)
def test_ending_a_turn_in_control_wins_from_round_3__TS10(scenario: str, element: str) -> None:
    table = legacy(scenario)
    assert [e.control_cp for e in table.game.scenario.elements] == [0]  # worth no CP
    table.play_to(2, P2)
    assert not table.game.scoring_due
    table.play_to(3, P1)
    control = c.Scoring(control=MappingProxyType({element: P2}))
    game = table.tap(score=control)  # P2 controls it as P1 ends his turn: no win
    assert game.phase is Phase.TURN and game.control_points == (0, 0)
    won(table.tap(score=control), P2)


def test_engines_of_destruction_centre_zone__TS10_engines_of_destruction() -> None:
    table = legacy("engines-of-destruction")
    table.play_to(3, P1)
    won(table.tap(score=held(centre_zone=P1)), P1)


def test_fine_line_the_line__TS10_fine_line() -> None:
    table = legacy("fine-line")
    table.play_to(4, P2)
    table.tap(score=held())
    won(table.tap(score=held(line=P1)), P1)


def test_power_play_centre_zone__TS10_power_play() -> None:
    table = legacy("power-play")
    table.play_to(3, P2)
    won(table.tap(score=held(centre_zone=P2)), P2)


def test_no_mans_land_from_p1_turn_3__TS10_no_mans_land() -> None:
    table = legacy("no-mans-land")
    table.play_to(3, P1)
    with pytest.raises(BadInput, match="nothing is dominated"):
        table.tap(score=c.Scoring(dominate=MappingProxyType({"no-mans-land": P1})))
    won(table.tap(score=held(no_mans_land=P1)), P1)


def test_transverse_assault_p1_north_south_p2_east_west__TS10_transverse_assault() -> None:
    table = legacy("transverse-assault")
    table.play_to(3, P1)
    east_west = held(point_east=P1, point_centre=P1, point_west=P1)
    game = table.tap(score=east_west)  # P2's line, not P1's
    assert game.phase is Phase.TURN
    north_south = held(point_north=P2, point_centre=P2, point_south=P2)
    assert table.tap(score=north_south).phase is Phase.TURN  # P1's line, not P2's
    table.tap(score=held(point_north=P1, point_centre=P1))  # two of three
    won(table.tap(score=held(point_east=P2, point_centre=P2, point_west=P2)), P2)


def test_transverse_assault_first_player_wins_north_to_south__TS10_transverse_assault() -> None:
    table = legacy("transverse-assault")
    table.play_to(3, P1)
    won(table.tap(score=held(point_north=P1, point_centre=P1, point_south=P1)), P1)


# -- won by controlling, at any turn's end ----------------------------------------------


def test_inner_turmoil_two_territories_from_p2_turn_3__TS10_inner_turmoil() -> None:
    table = legacy("inner-turmoil")
    table.play_to(3, P1)
    assert not table.game.scoring_due
    table.play_to(3, P2)
    assert table.tap(score=held(territory_1=P2, territory_2=P1)).phase is Phase.TURN
    # Controlled at the end of the opponent's turn counts too.
    won(table.tap(score=held(territory_3=P2, territory_4=P2)), P2)


def test_inner_turmoil_both_at_once_the_player_ending_the_turn__TS10_inner_turmoil() -> None:
    table = legacy("inner-turmoil")
    table.play_to(3, P2)
    both = held(territory_1=P1, territory_2=P1, territory_3=P2, territory_4=P2)
    won(table.tap(score=both), P2)


def test_workin_in_a_coal_mine_both_points_from_round_2__TS10_workin_in_a_coal_mine() -> None:
    table = legacy("workin-in-a-coal-mine")
    table.play_to(1, P2)
    assert not table.game.scoring_due
    table.play_to(2, P1)
    assert table.tap(score=held(mine_1=P1, mine_2=P2)).phase is Phase.TURN
    won(table.tap(score=held(mine_1=P1, mine_2=P1)), P1)  # at the end of P2's turn


# -- what every scenario shares -----------------------------------------------------------


def test_a_clock_out_claims_a_legacy_condition__TS10_DC7() -> None:
    table = legacy("power-play", clock=20 * MINUTE)
    table.play_to(3, P1)
    left = table.game.remaining(P1, table.now)
    game = table.do(SYSTEM, c.FlagCheck(), after=left + 1)
    assert game.phase is Phase.CLOCK_OUT
    with pytest.raises(RuleError, match="does not win Power Play"):
        table.do(P1, c.ClaimScenario(held(centre_zone=P2)))
    table.do(P1, c.ClaimScenario(held(centre_zone=P1)))
    won(table.do(P2, c.AnswerClaim(agree=True)), P1)


def test_an_assassination_ends_any_scenario_and_scores_its_final_state__TS10_TS6() -> None:
    table = legacy("frontline-foray")
    table.play_to(2, P1)
    table.tap(score=held(line_1=P1))
    game = table.do(P1, c.CasterDestroyed())
    won(game, P2, Method.ASSASSINATION)
    assert game.final_scoring_due
    with pytest.raises(BadInput, match="only the player ending the turn"):
        table.do(P2, c.FinalScoring(held(line_1=P1)))
    game = table.do(P2, c.FinalScoring(held(line_1=P2, line_2=P2)))
    assert game.control_points == (1, 2) and game.earned["line-1"] == (1, 1)


def test_a_clock_out_in_an_assassination_only_scenario_is_a_loss_at_once__TS10_DC7() -> None:
    table = legacy("nightfall", clock=20 * MINUTE)
    table.play_to(4, P2)
    left = table.game.remaining(P2, table.now)
    game = table.do(SYSTEM, c.FlagCheck(), after=left + 1)  # no claim to wait for
    won(game, P1, Method.CLOCK)
    with pytest.raises(RuleError):
        table.do(P2, c.ClaimScenario(held()))
