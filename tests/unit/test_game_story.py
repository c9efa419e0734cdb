"""The story of a finished game (`app.domain.game_story`), for every format's scenarios:
each player's clock time per turn, the CP after each turn, and what decided it."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from app.domain import commands as c
from app.domain.errors import RuleError
from app.domain.formats import get_format
from app.domain.game import Method, Phase, apply
from app.domain.game_story import Step, Story, game_story

from .helpers import MINUTE, P1, P2, SYSTEM, Table

FORMATS = ("sr2019", "masters2019", "champions2019", "ig2014", "legacy")
SCENARIOS = [(f, s.id) for f in FORMATS for s in get_format(f).scenarios]
POINTS = {"sr2019": 75, "masters2019": 75, "champions2019": 75, "ig2014": 50, "legacy": 50}


class Played(Table):
    """A table that keeps the game after each command, and the turn end it recorded."""

    steps: list[Step]

    def do(self, actor: c.Actor, command: c.Command, *, after: int = 1_000) -> object:
        if not hasattr(self, "steps"):
            self.steps = [Step(self.game)]
        self.now += after
        self.game = apply(self.game, actor, command, self.now)
        end = command.turn_end if isinstance(command, c.PassTurn) else None
        self.steps.append(Step(self.game, end))
        return self.game

    def story(self) -> Story:
        return game_story(self.steps)


def new(format_id: str, scenario_id: str, clock_ms: int = 60 * MINUTE) -> Played:
    table = Played.new(
        scenario_id,
        format_id=format_id,
        army_points=POINTS[format_id],
        player_clock_ms=clock_ms,
    )
    table.steps = [Step(table.game)]
    return table


def deploy(table: Played) -> int:
    """Start and deploy: each deployment step takes its player `k` minutes (P1 1, P2 2);
    the steps each player deployed in (a scenario may leave out advance deployment)."""
    table.start()
    taps = 0
    while table.game.phase is not Phase.TURN:
        taps += 1
        table.tap(after=(1 if table.game.active is P1 else 2) * MINUTE)
    return taps // 2


def play_turns(table: Played, turns: int) -> None:
    """Quiet turns: P1's turn takes 3 minutes, P2's 4, until P1's turn `turns + 1`."""
    while table.game.phase is Phase.TURN and table.game.turn <= turns:
        table.tap(after=(3 if table.game.active is P1 else 4) * MINUTE)


@pytest.mark.parametrize(("format_id", "scenario_id"), SCENARIOS)
def test_a_conceded_game_tells_each_turns_clock_time_and_cp(
    format_id: str, scenario_id: str
) -> None:
    table = new(format_id, scenario_id)
    steps = deploy(table)
    play_turns(table, 2)
    table.do(P2, c.Concede(), after=MINUTE)
    story = table.story()
    assert story.names == table.game.names
    assert [t.turn for t in story.turns] == [0, 1, 2, 3]
    deployed = story.turns[0].clock_ms
    assert deployed[0] == steps * MINUTE
    assert deployed[1] == steps * 2 * MINUTE
    assert [t.clock_ms for t in story.turns[1:3]] == [(3 * MINUTE, 4 * MINUTE)] * 2
    assert story.turns[3].clock_ms == (MINUTE, 0)  # P1's turn 3 until P2 conceded
    assert story.turns[0].control_points == (0, 0)
    assert story.decided is not None
    assert (story.decided.method, story.decided.winner) == (Method.CONCESSION, P1)
    assert (story.decided.turn, story.decided.side) == (3, P1)
    assert not story.decided.kill_box


KILL_BOX = [(f, s) for f, s in SCENARIOS if get_format(f).scenario(s).kill_box]


@pytest.mark.parametrize(("format_id", "scenario_id"), KILL_BOX)
def test_a_kill_box_win_is_marked_at_its_turn(format_id: str, scenario_id: str) -> None:
    table = new(format_id, scenario_id)
    deploy(table)
    while table.game.phase is Phase.TURN:
        due = table.game.kill_box_due and table.game.active is P2
        table.tap(kill_box=True if due else None, after=MINUTE)
    story = table.story()
    decided = story.decided
    assert decided is not None
    assert (decided.method, decided.winner, decided.kill_box) == (Method.SCENARIO, P1, True)
    assert decided.side is P2 and decided.turn == story.turns[-1].turn
    last = story.turns[-1].control_points
    assert last == table.game.control_points and last[0] > last[1]
    cps = [t.control_points[0] for t in story.turns]
    assert cps == sorted(cps)  # P1's CP only grows, turn by turn


def control_all(table: Played) -> c.Scoring:
    """P1 holds every zone and flag P1 may score."""
    held = {
        e.id: P1
        for e in table.game.scenario.elements
        if e.kind.value in ("zone", "flag") and e.owner is not P1
    }
    return c.Scoring(control=MappingProxyType(held))


SCORED = [(f, s) for f, s in SCENARIOS if get_format(f).scenario(s).scored]


@pytest.mark.parametrize(("format_id", "scenario_id"), SCORED)
def test_a_scenario_win_at_a_scoring_is_marked_at_its_turn(
    format_id: str, scenario_id: str
) -> None:
    table = new(format_id, scenario_id)
    deploy(table)
    while table.game.phase is Phase.TURN and table.game.turn < 12:
        end_by_p1 = table.game.scoring_due and table.game.active is P1
        try:
            table.tap(score=control_all(table) if end_by_p1 else None, after=MINUTE)
        except RuleError:
            pytest.skip(f"{scenario_id}: P1 cannot hold every element at once")
    story = table.story()
    decided = story.decided
    assert decided is not None and decided.method in (Method.SCENARIO, Method.TIEBREAKER)
    if decided.method is Method.SCENARIO:
        assert decided.winner is P1 and decided.scoring and not decided.kill_box
    assert decided.turn == story.turns[-1].turn == table.game.turn
    assert story.turns[-1].control_points == table.game.control_points


@pytest.mark.parametrize("format_id", FORMATS)
def test_a_clock_loss_is_marked_in_the_turn_the_clock_ran_out(format_id: str) -> None:
    scenario_id = get_format(format_id).scenarios[0].id
    table = new(format_id, scenario_id, clock_ms=30 * MINUTE)
    deploy(table)
    play_turns(table, 1)
    left = table.game.remaining(P1, table.now)
    table.do(SYSTEM, c.FlagCheck(), after=left + 5_000)
    if table.game.phase is Phase.CLOCK_OUT:  # the flagged player may still claim
        table.do(P1, c.AcceptClockLoss())
    story = table.story()
    decided = story.decided
    assert decided is not None
    assert (decided.method, decided.winner, decided.turn, decided.side) == (
        Method.CLOCK,
        P2,
        2,
        P1,
    )
    used = sum(t.clock_ms[0] for t in story.turns)
    assert used == 30 * MINUTE  # all of P1's clock, in deployment and turns 1 and 2


@pytest.mark.parametrize("format_id", FORMATS)
def test_an_assassination_is_marked_in_its_turn(format_id: str) -> None:
    scenario_id = get_format(format_id).scenarios[-1].id
    table = new(format_id, scenario_id)
    deploy(table)
    play_turns(table, 1)
    table.tap(after=MINUTE)  # P1's turn 2 ends: P2's turn 2
    table.do(P1, c.CasterDestroyed(), after=30_000)  # in P2's turn
    story = table.story()
    decided = story.decided
    assert decided is not None
    assert (decided.method, decided.winner, decided.turn, decided.side) == (
        Method.ASSASSINATION,
        P2,
        2,
        P2,
    )
    assert story.turns[-1].clock_ms == (MINUTE, 30_000)


def test_an_interrupt_is_the_interrupting_players_time_in_the_turn() -> None:
    table = new("sr2019", "king-of-the-hill")
    deploy(table)
    table.do(P1, c.SwitchClock(to=P2), after=MINUTE)
    table.do(P2, c.SwitchClock(to=P1), after=20_000)
    table.do(P2, c.Concede(), after=MINUTE)
    story = table.story()
    assert story.turns[1].clock_ms == (2 * MINUTE, 20_000)


def test_a_game_without_an_ending_has_no_decided_moment() -> None:
    table = new("sr2019", "king-of-the-hill")
    deploy(table)
    story = table.story()
    assert story.decided is None
    assert [t.turn for t in story.turns] == [0]


def test_a_story_needs_the_game_as_it_started() -> None:
    with pytest.raises(ValueError):
        game_story([])
