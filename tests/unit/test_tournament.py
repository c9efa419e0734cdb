"""Rounds (RP1), byes (RP3), scenarios (RP4), drops and rejoins (RP7), and the
round's clock (DC4, DC8)."""

from __future__ import annotations

import random

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.formats import get_format
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, record_sheet, standings
from app.domain.tournament import (
    RoundEndCall,
    RoundPlan,
    bye_award,
    cut_to_top,
    event_decided,
    event_over,
    expected_end_ms,
    late_rejoin_losses,
    next_round_allowed,
    pick_scenario,
    round_count,
    round_end_call,
)

from .test_standings import history

MINUTE = 60_000
SCENARIOS = [s.id for s in get_format("sr2019").scenarios]

# --- RP1 rounds ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds"),
    [
        (2, 3),
        (8, 3),
        (9, 4),
        (16, 4),
        (17, 5),
        (32, 5),
        (33, 6),
        (64, 6),
        (65, 7),
        (128, 7),
        (129, 8),  # past the table: one more round per doubling
        (256, 8),
        (257, 9),
    ],
)
def test_round_count_by_players__RP1(players: int, rounds: int) -> None:
    assert round_count(players) == rounds


@pytest.mark.parametrize("players", [-1, 0, 1])
def test_round_count_needs_two_players__RP1(players: int) -> None:
    with pytest.raises(BadInput, match="at least 2 players"):
        round_count(players)


def test_event_decided_when_one_player_leads_alone__RP1() -> None:
    assert event_decided(history("A>B C>D", "A>C B>D"))  # A 2, B 1, C 1, D 0
    assert not event_decided(history("A>B C>D"))  # A and C on 1


def test_a_dropped_player_still_counts_for_the_lead__RP1() -> None:
    # C (2 TP) dropped after round 2: A's 3 TP lead alone; B's 2 TP share C's.
    assert event_decided(history("A>B C>D", "A>E C>F", "A>D B>F", dropped="C", also="EF"))
    assert not event_decided(history("A>B C>D", "A>E C>F", "B>A E>D", dropped="C"))


def test_event_over_after_the_planned_rounds__RP1() -> None:
    # Five players, three rounds (8 or fewer); A, C and E still level on 2 TP.
    players = history("A>B C>D E+", "A>C E>B D+", "A=D C>E B+")
    assert not event_decided(players)
    assert not event_over(players, 2, RoundPlan())
    assert event_over(players, 3, RoundPlan())
    assert not next_round_allowed(players, 3, RoundPlan())


def test_event_ends_early_once_one_player_leads_alone__RP1() -> None:
    players = history("A>B C>D", "A>C B>D")  # 4 players: 3 rounds planned
    assert event_over(players, 2, RoundPlan())
    assert not next_round_allowed(players, 2, RoundPlan())


def test_nothing_is_over_before_the_first_round__RP1() -> None:
    assert not event_over([PlayerRecord("a", "Ada")], 0, RoundPlan())
    assert next_round_allowed(history("A=B"), 0, RoundPlan())


def test_fixed_round_event_plays_at_most_x_rounds__RP1() -> None:
    players = history("A=B C=D", "A=C B=D")  # everyone still on 0 TP
    assert event_over(players, 2, RoundPlan(rounds=2))
    assert not event_over(players, 2, RoundPlan())  # 3 rounds by the table
    assert event_over(history("A>B C=D"), 1, RoundPlan(rounds=5))  # decided early


def test_next_round_needs_two_players__RP7() -> None:
    players = history("A=B C=D", dropped="BCD")
    assert not next_round_allowed(players, 1, RoundPlan())


@pytest.mark.parametrize(("rounds", "cut"), [(0, None), (None, 1)])
def test_round_plan_limits__RP1(rounds: int | None, cut: int | None) -> None:
    with pytest.raises(BadInput):
        RoundPlan(rounds=rounds, cut_to_top=cut)


# --- RP1 Cut to Top [X] -----------------------------------------------------------

#: Eight players after two rounds: A and E undefeated (2 TP); C, G, D, H on 1 TP;
#: B and F on 0. SoS: C 1+2 and G 1+2 (each lost to an undefeated player), D 1+0, H 1+0.
EIGHT = history("A>B C>D E>F G>H", "A>C E>G B<D F<H")


def test_cut_applies_once_undefeated_are_x_or_fewer__RP1() -> None:
    keep = cut_to_top(EIGHT, 4)
    assert keep is not None
    assert keep[:2] == ["A", "E"]
    assert set(keep[2:]) == {"C", "G"}  # 1 TP and the better SoS (3 against 1)
    assert keep == [s.player_id for s in standings(EIGHT)][:4]


def test_no_cut_while_more_than_x_are_undefeated__RP1() -> None:
    assert cut_to_top(EIGHT, 2) == ["A", "E"]
    assert cut_to_top(history("A>B C>D E>F G>H"), 2) is None  # four undefeated


def test_a_tie_is_not_a_defeat_for_the_cut__RP1() -> None:
    players = history("A>B C=D E>F G>H")
    assert cut_to_top(players, 4) is None  # A, C, D, E, G: five undefeated
    assert cut_to_top(players, 5) is not None


def test_cut_keeps_players_still_in_the_event__RP1() -> None:
    dropped_e = history("A>B C>D E>F G>H", "A>C E>G B<D F<H", dropped="E")
    keep = cut_to_top(dropped_e, 2)
    assert keep is not None and "E" not in keep and keep[0] == "A"
    assert cut_to_top(history("A>B C>D"), 4) is None  # nobody would be cut


def test_cut_needs_a_top_of_two__RP1() -> None:
    with pytest.raises(BadInput):
        cut_to_top(EIGHT, 1)


# --- RP3 bye ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "apd"), [(0, 0), (25, 13), (35, 18), (50, 25), (75, 38), (100, 50), (150, 75)]
)
def test_bye_award_is_a_win_three_cp_and_half_the_points__RP3(points: int, apd: int) -> None:
    assert bye_award(points) == (1, 3, apd)


def test_bye_award_needs_a_point_size__RP3() -> None:
    with pytest.raises(BadInput):
        bye_award(-1)


# --- RP4 scenarios ------------------------------------------------------------


def test_eo_chooses_an_unplayed_scenario__RP4() -> None:
    assert pick_scenario(SCENARIOS, ["bunkers"], random.Random(0), "recon-ii") == "recon-ii"


def test_eo_cannot_repeat_a_scenario__RP4() -> None:
    with pytest.raises(RuleError, match="not repeated"):
        pick_scenario(SCENARIOS, ["bunkers"], random.Random(0), "bunkers")


def test_eo_choice_must_be_a_scenario_of_the_format__RP4() -> None:
    with pytest.raises(BadInput, match="unknown scenario"):
        pick_scenario(SCENARIOS, [], random.Random(0), "steamroller-2018")


def test_d6_roll_covers_all_six__RP4() -> None:
    rolled = {pick_scenario(SCENARIOS, [], random.Random(seed)) for seed in range(60)}
    assert rolled == set(SCENARIOS)


def test_rolled_scenarios_never_repeat_and_run_out_after_six__RP4() -> None:
    rng = random.Random(4)
    used: list[str] = []
    for _ in range(6):
        used.append(pick_scenario(SCENARIOS, used, rng))
    assert sorted(used) == sorted(SCENARIOS)
    with pytest.raises(RuleError, match="every scenario"):
        pick_scenario(SCENARIOS, used, rng)


def test_only_a_seventh_round_may_repeat_and_only_by_eo_choice__RP4() -> None:
    assert pick_scenario(SCENARIOS, SCENARIOS, random.Random(0), "bunkers") == "bunkers"
    with pytest.raises(RuleError, match="not repeated"):
        pick_scenario(SCENARIOS, SCENARIOS[:5], random.Random(0), "bunkers")


def test_same_seed_same_scenario__RP4() -> None:
    used = ["king-of-the-hill", "anarchy"]
    picks = {pick_scenario(SCENARIOS, used, random.Random(9)) for _ in range(5)}
    assert len(picks) == 1


# --- RP7 late rejoin ----------------------------------------------------------


def test_late_player_gets_a_loss_for_each_missed_round__RP7() -> None:
    late = PlayerRecord("z", "Zoe")
    assert late_rejoin_losses(late, 2) == (
        RoundRecord(1, None, Outcome.LOSS, 0, 0),
        RoundRecord(2, None, Outcome.LOSS, 0, 0),
    )


def test_rejoining_player_keeps_played_rounds_and_loses_the_missed__RP7() -> None:
    (ann,) = [p for p in history("A>B C=D", "A>C B>D") if p.id == "A"]
    losses = late_rejoin_losses(ann, 4)  # dropped after round 2, back for round 5
    assert [(r.round, r.outcome) for r in losses] == [(3, Outcome.LOSS), (4, Outcome.LOSS)]
    back = PlayerRecord(ann.id, ann.name, rounds=ann.rounds + losses)
    assert back.tp == 2
    assert [row["result"] for row in record_sheet(back, [back])] == ["Win", "Win", "Loss", "Loss"]
    assert late_rejoin_losses(back, 4) == ()


def test_rounds_played_cannot_be_negative__RP7() -> None:
    with pytest.raises(BadInput):
        late_rejoin_losses(PlayerRecord("z", "Zoe"), -1)


# --- DC4 expected end ---------------------------------------------------------


def test_expected_end_is_deployment_start_plus_both_clocks__DC4() -> None:
    assert expected_end_ms(1_000, 60 * MINUTE) == 1_000 + 120 * MINUTE
    assert expected_end_ms(0, 20 * MINUTE) == 40 * MINUTE


def test_expected_end_needs_a_player_clock__DC4() -> None:
    with pytest.raises(BadInput):
        expected_end_ms(0, 0)


# --- DC8 at the round's end ---------------------------------------------------


@pytest.mark.parametrize(
    ("remaining", "paused", "call"),
    [
        ((0, 0), False, RoundEndCall.PLAY_ON),
        ((2 * MINUTE, 2 * MINUTE + 59_999), False, RoundEndCall.PLAY_ON),  # 4:59.999
        ((5 * MINUTE, 0), False, RoundEndCall.PLAY_ON),  # exactly 5:00: play on
        ((3 * MINUTE, 2 * MINUTE + 1), False, RoundEndCall.TIE),  # 5:00.001
        ((20 * MINUTE, 15 * MINUTE), False, RoundEndCall.TIE),
        ((20 * MINUTE, 15 * MINUTE), True, RoundEndCall.PLAY_ON),  # the EO paused it
        ((MINUTE, MINUTE), True, RoundEndCall.PLAY_ON),
    ],
)
def test_round_end_call__DC8(remaining: tuple[int, int], paused: bool, call: RoundEndCall) -> None:
    assert round_end_call(remaining, paused) is call


def test_round_end_call_rejects_negative_time__DC8() -> None:
    with pytest.raises(BadInput):
        round_end_call((-1, 0), False)


@pytest.mark.parametrize("paused", [False, True])
def test_a_game_whose_clock_ran_out_is_not_tied_at_round_end__DC8(paused: bool) -> None:
    """More than 5 minutes combined would be a tie, but a clock already ran out: DC7 decides."""
    call = round_end_call((0, 20 * MINUTE), paused, clock_ran_out=True)
    assert call is RoundEndCall.CLOCK_OUT


def test_cut_to_top_x_is_any_number_up_to_the_field__RP1() -> None:
    RoundPlan(cut_to_top=3).check_field(3)
    RoundPlan(cut_to_top=6).check_field(40)
    RoundPlan().check_field(2)
    with pytest.raises(RuleError):
        RoundPlan(cut_to_top=9).check_field(8)
    players = history("A>B C>D E>F G>H", "A>C E>G B>D F>H")  # A and E undefeated
    keep = cut_to_top(players, 3)
    assert keep is not None and len(keep) == 3 and keep[:2] == ["A", "E"]


def test_lists_are_counted_one_per_line_or_semicolon__lists() -> None:
    from app.domain.formats import get_format, split_lists

    assert split_lists("") == [] and split_lists(" ;\n ") == []
    assert split_lists("Haley 3; Stryker 1\nCaine 2") == ["Haley 3", "Stryker 1", "Caine 2"]
    dyad = get_format("masters2019").list_rule(2)
    dyad.check(2)
    with pytest.raises(BadInput, match="asks each player for 2"):
        dyad.check(1)
    champions = get_format("champions2019").list_rule(None)
    champions.check(1)
    champions.check(2)
    with pytest.raises(BadInput, match="1 or 2"):
        champions.check(3)
    with pytest.raises(BadInput, match="Dyad"):
        get_format("masters2019").list_rule(None)
