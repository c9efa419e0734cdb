"""The ruleset seam: every format is data plus a few hooks, and the engine's common
path never names a format. Each hook is proved against its document."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.formats import FORMATS, get_format
from app.domain.game import Method, Phase
from app.domain.rulebook import RoundEndCall, Ruleset, Tiebreaker
from app.domain.tournament import bye_award, eo_pause_plays_on, round_end_call

from .helpers import EO, MINUTE, P1, P2, Table, scoring

APP = Path(__file__).resolve().parents[2] / "app"
#: Where a format may be named: its own module and the registry.
RULESET_HOMES = {APP / "domain" / "formats.py", *(APP / "domain" / "rulesets").glob("*.py")}
FORMAT_IDS = {*FORMATS, "ig2014", "legacy", "runewars2017"}


def _format_comparisons(path: Path) -> list[str]:
    """Each comparison in `path` against a format id, or of a format's id."""
    found: list[str] = []
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        operands: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.Match):
            operands = [node.subject]
        for operand in operands:
            named_id = isinstance(operand, ast.Constant) and operand.value in FORMAT_IDS
            format_attr = isinstance(operand, ast.Attribute) and operand.attr == "format_id"
            if named_id or format_attr:
                found.append(f"{path.name}:{node.lineno}")
                break
    return found


def test_no_module_on_the_common_path_compares_a_format_id() -> None:
    common = [p for p in APP.rglob("*.py") if p not in RULESET_HOMES]
    assert len(common) > 40
    found = [hit for path in common for hit in _format_comparisons(path)]
    assert found == []


def test_the_scan_catches_a_format_branch(tmp_path: Path) -> None:
    branch = tmp_path / "engine.py"
    branch.write_text(
        'def f(game):\n    if game.setup.format_id == "sr2019":\n        return 1\n'
        '    return 2 if "ig2014" != game.x else 3\n'
    )
    assert len(_format_comparisons(branch)) == 2


@pytest.mark.parametrize("format_id", sorted(FORMATS))
def test_every_format_is_a_ruleset_of_the_same_kind(format_id: str) -> None:
    rules = get_format(format_id)
    assert isinstance(rules, Ruleset)
    assert rules.id == format_id
    for hook in (rules.victory, rules.score, rules.round_end, rules.concession, rules.bye):
        assert callable(hook)
    assert rules.deployment[0] in {p.value for p in Phase}


# -- Steamroller 2019 and its kin: each hook against the document ----------------------


@pytest.mark.parametrize("format_id", ["sr2019", "masters2019", "champions2019"])
def test_victory_hook_is_a_lead_of_five__TS4(format_id: str) -> None:
    rules = get_format(format_id)
    assert rules.scenario_winner((5, 0)) is P1
    assert rules.scenario_winner((6, 2)) is None
    assert rules.scenario_winner((3, 8)) is P2


def test_scoring_hook_counts_control_and_refuses_domination__TS2() -> None:
    table = Table.new("king-of-the-hill")
    table.play_to(2, P2)
    sheet = scoring({"rect-1": P2, "flag-1": P2}, {"objective-p1"})
    assert table.tap(score=sheet).control_points == (0, 3)
    dominated = c.Scoring(dominate={"rect-2": P1})
    with pytest.raises(BadInput, match="nothing is dominated"):
        table.tap(score=dominated)


def test_kill_box_hook_starts_at_p1_turn_2_in_every_scenario__TS3() -> None:
    rules = get_format("sr2019")
    for scenario in rules.scenarios:
        assert not rules.kill_box.due(scenario, 1, P2)
        assert rules.kill_box.due(scenario, 2, P1)
    assert '12"' in rules.kill_box.question


def test_round_end_hook_keeps_the_eo_pause_exception__DC8() -> None:
    rules = get_format("sr2019")
    over = (4 * MINUTE, 2 * MINUTE)
    assert round_end_call(over, False, rules=rules) is RoundEndCall.TIE
    assert round_end_call(over, True, rules=rules) is RoundEndCall.PLAY_ON
    assert round_end_call((3 * MINUTE, 2 * MINUTE), False, rules=rules) is RoundEndCall.PLAY_ON
    assert round_end_call(over, False, clock_ran_out=True, rules=rules) is RoundEndCall.CLOCK_OUT


def test_the_phones_are_told_whether_an_eo_pause_plays_on_as_the_round_end_decides__DC8() -> None:
    # The table page asks before the EO's first pause where this is true (eo-pause.js).
    for format_id in FORMATS:
        rules = get_format(format_id)
        paused = round_end_call((6 * MINUTE, 6 * MINUTE), True, rules=rules)
        assert eo_pause_plays_on(rules) is (paused is RoundEndCall.PLAY_ON), format_id
    assert eo_pause_plays_on(get_format("sr2019"))
    assert eo_pause_plays_on(get_format("champions2019"))
    assert not eo_pause_plays_on(get_format("ig2014"))  # its round's end knows no pause


def test_clock_out_hook_allows_a_scenario_claim__DC7() -> None:
    assert all(get_format(f).clock_out_claim for f in ("sr2019", "masters2019", "champions2019"))


def test_pause_policy_has_no_player_warnings__DC5() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(RuleError, match="no warnings for pausing"):
        table.do(EO, c.WarnForPausing(side=P1))
    with pytest.raises(RuleError, match="no warnings for pausing"):
        table.do(P2, c.ReportPause())


def test_concession_and_bye_hooks__TS8_RP3() -> None:
    rules = get_format("sr2019")
    assert rules.concession(rules, 1, 10, 75) == (3, 38)
    assert rules.concession(rules, 4, 50, 75) == (4, 50)
    assert bye_award(75, rules) == (1, 3, 38) == bye_award(75)


def test_tiebreakers_are_data_in_the_documents_order__TS7() -> None:
    assert get_format("sr2019").tiebreakers == (
        Tiebreaker.CASTERS,
        Tiebreaker.CONTROL_POINTS,
        Tiebreaker.APD_SUFFERED,
        Tiebreaker.COLLECTED,
    )
    assert get_format("sr2019").collected == "scenario presence"


def test_deployment_steps_run_on_the_clock__DC3() -> None:
    table = Table.new()
    assert table.start().phase is Phase.DEPLOYMENT
    assert table.tap().phase is Phase.DEPLOYMENT
    assert table.tap().phase is Phase.ADVANCE_DEPLOYMENT
    table.tap()
    assert (table.tap().phase, table.game.turn) == (Phase.TURN, 1)


def test_scenario_pick_hook_never_repeats__RP4() -> None:
    rules = get_format("sr2019")
    ids = [s.id for s in rules.scenarios]
    picked = [rules.pick_scenario(ids, ids[:5], random.Random(1))]
    assert picked == [ids[5]]
    with pytest.raises(RuleError):
        rules.pick_scenario(ids, ids, random.Random(1))


def test_the_server_alone_rolls_a_scenario_die() -> None:
    table = Table.new()
    table.start()
    with pytest.raises(Exception, match="only the server may roll"):
        table.do(P1, c.ScenarioRoll(value=1))
    with pytest.raises(RuleError, match="no roll is due"):
        table.do(c.Role.SYSTEM, c.ScenarioRoll(value=1))
    assert table.game.ending is None or table.game.ending.method is not Method.PAUSING


# -- a scenario's own rules override its ruleset's (the legacy pack's seam) -----------


def test_a_scenario_brings_its_own_scoring_start_victory_sheet_and_turn_end() -> None:
    from dataclasses import replace as changed

    from app.domain.game import Game, new_game
    from app.domain.state import Setup
    from app.domain.turn_mark import TurnMark

    def first_to_three(_rules: Ruleset, cp: tuple[int, int]) -> Side | None:
        return P1 if cp[0] >= 3 else P2 if cp[1] >= 3 else None

    def three_per_flag(game: Game, sheet: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
        cp = list(game.control_points)
        for side in sheet.control.values():
            cp[side] += 3
        return (cp[0], cp[1]), game.objectives_destroyed

    def note_the_turn(game: Game) -> Game:
        return changed(game, removed=game.removed | {f"turn-{game.turn}"})

    base = get_format("sr2019")
    own = changed(
        base.scenarios[0],
        scoring_from=TurnMark(1, P1),
        victory=first_to_three,
        score=three_per_flag,
        turn_end=note_the_turn,
    )
    rules = changed(base, scenarios=(own,))
    table = Table(new_game(Setup("sr2019", own.id, 60 * MINUTE, 75), 0))
    object.__setattr__(table.game.setup, "_format", rules)  # a ruleset the registry lacks
    table.play_to(1, P1)
    assert table.game.scoring_due  # from P1's turn 1, not P2's turn 2
    assert table.tap(score=scoring()).removed == {"turn-1"}  # the scenario's turn end
    game = table.tap(score=scoring({"flag-1": P2}))
    assert game.ending is not None
    # 3 CP: the scenario's own sheet and victory, not a lead of 5
    assert (game.ending.method, game.ending.winner) == (Method.SCENARIO, P2)


def test_the_wire_carries_dominate_removed_and_the_new_commands() -> None:
    from app.tables.warmachine.codec import command_from_wire, command_to_wire

    raw = {
        "c": "pass_turn",
        "expect": "p2",
        "kill_box": None,
        "scoring": {
            "control": {"flag-1": "p1"},
            "destroyed": ["objective-p1"],
            "dominate": {"zone": "p2"},
            "removed": ["objective-p2"],
        },
    }
    command = command_from_wire(raw)
    assert command_to_wire(command) == raw
    for wire in (
        {"c": "report_pause"},
        {"c": "warn_for_pausing", "side": "p1"},
        {"c": "scenario_roll", "value": 2},
    ):
        assert command_to_wire(command_from_wire(wire)) == wire
    both = {"c": "final_scoring", "scoring": {"control": {"z": "p1"}, "dominate": {"z": "p2"}}}
    with pytest.raises(BadInput, match="not also controlled"):
        command_from_wire(both)
