"""Who may send each command, walked command by command and sender by sender: the
player whose turn it is passes the clock and answers its own turn-end questions, the
other player interrupts, agrees, reports or concedes, the EO judges, the server rolls
and calls time, and a watcher changes nothing.

Each case is a state in which the command is legal for its rightful sender; every other
sender is refused there with NotYourSeat, in plain words, and the game is unchanged
(games are immutable: a refusal returns nothing)."""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import pytest

from app.domain import commands as c
from app.domain import variants, who_may_act
from app.domain.clock import Side
from app.domain.errors import NotYourSeat, RuleError
from app.domain.frozen import replace
from app.domain.game import Game, Phase, Setup, new_game
from app.domain.runewars import commands as rc
from app.domain.runewars import engine as rw
from app.domain.runewars import who_may_act as rw_who
from app.domain.runewars.state import Phase as RwPhase
from app.domain.runewars.state import RwGame, TableSetup
from tests.unit.helpers import EO, MINUTE, P1, P2, SYSTEM, Table, scoring

WATCHER = c.Role.WATCHER


class Who(Enum):
    ACTIVE = "the active seat"  # the side whose turn (or deployment step) it is
    OTHER = "the other seat"
    EO = "the EO"
    SYSTEM = "the server"
    WATCHER = "a watcher"


EVERYONE = tuple(Who)
SEATS = (Who.ACTIVE, Who.OTHER)
JUDGES = (Who.EO, Who.SYSTEM)
#: Words a refusal never uses: a rule's id, or P1/P2 for "you" or "your opponent".
NOT_PLAIN = re.compile(r"\((DC|TS|RP|ST)\d|\bP[12]\b")


def actor(who: Who, active: Side) -> c.Actor:
    return {
        Who.ACTIVE: active,
        Who.OTHER: active.other,
        Who.EO: EO,
        Who.SYSTEM: SYSTEM,
        Who.WATCHER: WATCHER,
    }[who]


@dataclass(frozen=True)
class Case:
    """In the state `table()` builds, `command` is accepted from `allowed` only."""

    name: str
    table: Callable[[], Table]
    command: Callable[[Game], c.Command]
    allowed: tuple[Who, ...]


def walk(case: Case) -> None:
    for who in EVERYONE:
        table = case.table()
        game = table.game
        command = case.command(game)
        sender = actor(who, game.active)
        if who in case.allowed:
            table.do(sender, command)  # legal for its rightful sender
            continue
        with pytest.raises(NotYourSeat) as refused:
            table.try_do(sender, command)
        words = refused.value.message
        assert not NOT_PLAIN.search(words), f"{case.name} from {who.value}: {words!r}"
        assert table.game is game


# -- the states -------------------------------------------------------------------------


def sr(scenario: str = "king-of-the-hill", *chosen: str) -> Table:
    setup = Setup("sr2019", scenario, 60 * MINUTE, 75, variants=chosen)
    return Table(new_game(setup, 0), 0)


def ig(scenario: str = "outflank") -> Table:
    return Table.new(scenario, format_id="ig2014", army_points=50)


def started(table: Table) -> Table:
    table.start()
    return table


def taps(table: Table, n: int) -> Table:
    for _ in range(n):
        table.tap()
    return table


def at(turn: int, side: Side, table: Callable[[], Table] = sr) -> Callable[[], Table]:
    def build() -> Table:
        built = table()
        built.play_to(turn, side)
        return built

    return build


def interrupted() -> Table:
    table = at(3, P2)()
    table.do(P2, c.SwitchClock(to=P1))
    return table


def tapped() -> Table:
    """P1 has just ended turn 3: P2 runs, and the tap can still be undone."""
    table = at(3, P1)()
    table.tap()
    return table


def undo_asked() -> Table:
    table = tapped()
    table.do(P1, c.ProposeUndo())  # the other seat asks; the active one answers
    return table


def clock_out() -> Table:
    """P1's clock ran out in their own turn 4, with scoring under way."""
    table = at(4, P1, lambda: Table.new(player_clock_ms=30 * MINUTE))()
    table.game = replace(table.game, control_points=(2, 0))
    table.do(SYSTEM, c.FlagCheck(), after=table.game.remaining(P1, table.now) + 1)
    assert table.game.phase is Phase.CLOCK_OUT and table.game.flagged is P1
    return table


FIVE_AHEAD = scoring({"rect-1": P1, "rect-2": P1, "circle-1": P1})


def claimed() -> Table:
    table = clock_out()
    table.do(P1, c.ClaimScenario(FIVE_AHEAD))
    return table


def assassinated() -> Table:
    table = at(3, P1)()
    table.do(P2, c.CasterDestroyed())
    assert table.game.final_scoring_due
    return table


def over() -> Table:
    table = at(2, P1)()
    table.do(P2, c.Concede())
    return table


def reported() -> Table:
    table = over()
    table.do(P1, c.ReportGame(army_points_destroyed=40))
    table.do(P2, c.ReportGame(army_points_destroyed=10))
    return table


def paused() -> Table:
    table = at(2, P1)()
    table.do(EO, c.PauseClock())
    return table


def roll_due() -> Table:
    """Incursion (IG2014): a flag is removed at random at the end of P2's turn 1."""
    table = at(1, P2, lambda: ig("incursion"))()
    table.tap()
    assert table.game.roll_due
    return table


def pregame(step: str) -> Callable[[], Table]:
    def build() -> Table:
        table = Table.new()
        table.do(EO, c.OpenPregame())
        moves: list[tuple[Side, c.Command]] = [
            (P1, c.ChooseList("Haley")),
            (P2, c.ChooseList("Kreoss")),
            (P1, c.ChooseObjective("Armory")),
            (P2, c.ChooseObjective("Armory")),
            (P1, c.StartingRoll(6)),  # the first seat wins the roll
            (P2, c.StartingRoll(1)),
            (P1, c.ChooseOrder(first=True)),
        ]
        for seat, move in moves:
            pre = table.game.pregame
            if pre is not None and pre.step.value == step:
                break
            table.do(seat, move)
        return table

    return build


def specialists_due() -> Table:
    """IG2014: each player's specialists after the lists are revealed."""
    table = Table.new("destruction", format_id="ig2014", army_points=75)
    armies = (("Kreoss 1 (75)\nSpecialists:\nChoir (4)",), ("Haley 2 (75)",))
    table.do(EO, c.OpenPregame(armies=armies, specialists=True))
    table.do(P1, c.ChooseList("Kreoss 1 (75)"))
    table.do(P2, c.ChooseList("Haley 2 (75)"))
    return table


def classic(*chosen: str) -> Callable[[], Table]:
    return at(1, P1, lambda: sr("king-of-the-hill", variants.CLASSIC, *chosen))


def timer_running() -> Table:
    table = classic()()
    table.do(P1, c.StartTurnTimer())
    return table


def extension_due() -> Table:
    table = timer_running()
    table.do(P1, c.TakeExtension())
    table.wait(10 * MINUTE)
    return table


def no_assassination() -> Table:
    return at(3, P1, lambda: sr("king-of-the-hill", variants.NO_ASSASSINATION))()


# -- the commands ------------------------------------------------------------------------


def tap(
    kill_box: bool | None = None, score: c.Scoring | None = None
) -> Callable[[Game], c.Command]:
    """A tap naming the side that runs (a tap from the other seat is the cheat)."""

    def command(game: Game) -> c.Command:
        turn_end = None
        if game.phase is Phase.TURN:
            turn_end = c.TurnEnd(kill_box=kill_box, scoring=score)
        return c.PassTurn(expect=game.active, turn_end=turn_end)

    return command


def same(command: c.Command) -> Callable[[Game], c.Command]:
    return lambda _game: command


def switch_to_other(game: Game) -> c.Command:
    return c.SwitchClock(to=game.active.other)


def switch_back(game: Game) -> c.Command:
    return c.SwitchClock(to=game.active)


def record(_game: Game) -> c.Command:
    return c.RecordResult(winner=P1, control_points=(3, 0), army_points_destroyed=(38, 0))


# -- the pre-game ------------------------------------------------------------------------

PREGAME = [
    Case("open the pre-game", sr, same(c.OpenPregame()), JUDGES),
    Case("choose a list", pregame("lists"), same(c.ChooseList("Haley")), SEATS),
    Case("choose specialists", specialists_due, same(c.ChooseSpecialists()), SEATS),
    Case("choose an objective", pregame("objectives"), same(c.ChooseObjective("Armory")), SEATS),
    Case("the starting roll", pregame("roll"), same(c.StartingRoll(4)), SEATS),
    Case("first or second", pregame("order"), same(c.ChooseOrder(first=True)), (Who.ACTIVE,)),
    Case("the table edge", pregame("edge"), same(c.ChooseEdge(swap=False)), (Who.OTHER,)),
]


# -- DC3: the deployment taps -----------------------------------------------------------

DEPLOYMENT = [
    Case("P1's deployment", lambda: started(sr()), tap(), (Who.ACTIVE,)),
    Case("P2's deployment", lambda: taps(started(sr()), 1), tap(), (Who.ACTIVE,)),
    Case("P1's advance deployment", lambda: taps(started(sr()), 2), tap(), (Who.ACTIVE,)),
    Case("P2's advance deployment", lambda: taps(started(sr()), 3), tap(), (Who.ACTIVE,)),
    Case("IG2014 P1's pre-deployment", lambda: started(ig()), tap(), (Who.ACTIVE,)),
    Case("IG2014 P2's pre-deployment", lambda: taps(started(ig()), 1), tap(), (Who.ACTIVE,)),
    Case("IG2014 P2's advance deployment", lambda: taps(started(ig()), 5), tap(), (Who.ACTIVE,)),
    Case("the clock's start", sr, same(c.StartClock()), (Who.ACTIVE, Who.EO)),
]


@pytest.mark.parametrize("case", DEPLOYMENT + PREGAME, ids=lambda case: case.name)
def test_each_settles_the_pregame_and_only_the_deploying_player_taps__DC3(case: Case) -> None:
    walk(case)


# -- TS1-TS5: turns, the kill box and scoring ------------------------------------------

TURNS = [
    Case("P1's turn 1", at(1, P1), tap(), (Who.ACTIVE,)),
    Case("P2's turn 1", at(1, P2), tap(), (Who.ACTIVE,)),
    Case("P1's turn 2, kill box yes", at(2, P1), tap(kill_box=True), (Who.ACTIVE,)),
    Case("P1's turn 2, kill box no", at(2, P1), tap(kill_box=False), (Who.ACTIVE,)),
    Case(
        "P2's turn 2, scored",
        at(2, P2),
        tap(kill_box=False, score=scoring({"rect-1": P2})),
        (Who.ACTIVE,),
    ),
    Case(
        "P1's turn 3, scored and kill box",
        at(3, P1),
        tap(kill_box=True, score=scoring({"rect-1": P2, "rect-2": P2})),
        (Who.ACTIVE,),
    ),
    Case(
        "IG2014 P2's turn 3, scored",
        at(3, P2, ig),
        tap(kill_box=False, score=scoring({"circle-1": P2})),
        (Who.ACTIVE,),
    ),
]


@pytest.mark.parametrize("case", TURNS, ids=lambda case: case.name)
def test_only_the_active_player_ends_the_turn_and_answers_its_questions__TS1_TS2_TS3(
    case: Case,
) -> None:
    walk(case)


# -- DC6: interrupts ---------------------------------------------------------------------

INTERRUPTS = [
    Case("switch to the opponent", at(2, P1), switch_to_other, (Who.ACTIVE,)),
    Case("switch back", interrupted, switch_back, SEATS),
    Case("tap during an interrupt", interrupted, tap(kill_box=False), ()),
]


@pytest.mark.parametrize("case", INTERRUPTS, ids=lambda case: case.name)
def test_interrupt_to_the_opponent_by_the_active_player_back_by_either__DC6(case: Case) -> None:
    if not case.allowed:  # nobody ends a turn while the opponent's clock runs for them
        table = case.table()
        with pytest.raises(RuleError, match="switch back"):
            table.try_do(table.game.active, case.command(table.game))
        with pytest.raises(NotYourSeat, match="only they may end their turn"):
            table.try_do(table.game.active.other, case.command(table.game))
        return
    walk(case)


# -- undo, the game's end and the result (TS6-TS9, DC7) -----------------------------------

ENDINGS = [
    Case("propose an undo", tapped, same(c.ProposeUndo()), SEATS),
    Case("report the undo request shown", undo_asked, same(c.UndoSeen()), (Who.ACTIVE,)),
    Case("answer the undo", undo_asked, same(c.AnswerUndo(accept=True)), (Who.ACTIVE,)),
    Case("caster destroyed", at(3, P1), same(c.CasterDestroyed()), SEATS),
    Case("both casters destroyed", at(3, P1), same(c.CasterDestroyed(both=True)), SEATS),
    Case("concede in a turn", at(2, P1), same(c.Concede()), SEATS),
    Case("concede in deployment", lambda: started(sr()), same(c.Concede()), SEATS),
    Case("claim at a clock out", clock_out, same(c.ClaimScenario(FIVE_AHEAD)), (Who.ACTIVE,)),
    Case("answer a claim", claimed, same(c.AnswerClaim(agree=True)), (Who.OTHER,)),
    Case("accept the loss on time", clock_out, same(c.AcceptClockLoss()), (Who.ACTIVE,)),
    Case("final scoring", assassinated, same(c.FinalScoring(scoring())), SEATS),
    Case("report", over, same(c.ReportGame(army_points_destroyed=12)), SEATS),
    Case("confirm", reported, same(c.ConfirmResult()), SEATS),
    Case("dispute", reported, same(c.DisputeResult("wrong")), SEATS),
]


@pytest.mark.parametrize("case", ENDINGS, ids=lambda case: case.name)
def test_each_player_ends_reports_and_agrees_for_themselves__TS6_TS8_TS9_DC7(case: Case) -> None:
    walk(case)


# -- DC5, DC8, TS9: the EO; the server's dice and flag ------------------------------------

OFFICIALS = [
    Case("pause", at(2, P1), same(c.PauseClock()), (Who.EO,)),
    Case("resume", paused, same(c.ResumeClock()), (Who.EO,)),
    Case("adjust a clock", at(2, P1), same(c.AdjustClock(P2, 10 * MINUTE)), (Who.EO,)),
    Case("tie at the round's end", at(2, P1), same(c.CallTie()), JUDGES),
    Case("record a result", at(2, P1), record, (Who.EO,)),
    Case("correct a result", reported, record, (Who.EO,)),
    Case("offer lists", sr, same(c.OfferLists(p1=("Haley",))), JUDGES),
    Case("report a pause (IG2014)", at(1, P2, ig), same(c.ReportPause()), SEATS),
    Case("warn for pausing (IG2014)", at(1, P2, ig), same(c.WarnForPausing(P2)), (Who.EO,)),
    Case("the scenario's roll", roll_due, same(c.ScenarioRoll(1)), (Who.SYSTEM,)),
    Case("a flag check", at(2, P1), same(c.FlagCheck()), (*SEATS, *JUDGES)),
]


@pytest.mark.parametrize("case", OFFICIALS, ids=lambda case: case.name)
def test_the_eo_judges_and_the_server_rolls__DC5_DC8_TS5_TS9(case: Case) -> None:
    walk(case)


# -- DC10: Classic Turn Timing, dice down; No Assassination Victory ------------------------

CLASSIC = [
    Case("start the turn timer", classic(), same(c.StartTurnTimer()), (Who.ACTIVE,)),
    Case("stop the turn timer", timer_running, same(c.StopTurnTimer()), (Who.ACTIVE,)),
    Case("take the extension", timer_running, same(c.TakeExtension()), (Who.ACTIVE,)),
    Case("start the extension", extension_due, same(c.StartExtension()), (Who.OTHER,)),
    Case("dice down", classic(), same(c.DiceDown()), JUDGES),
    Case("no models left", no_assassination, same(c.NoModelsLeft()), SEATS),
]


@pytest.mark.parametrize("case", CLASSIC, ids=lambda case: case.name)
def test_the_turn_timer_is_the_active_players_and_dice_down_the_eos__DC10(case: Case) -> None:
    walk(case)


def test_one_table_names_who_sends_every_command_and_each_is_walked__DC3_DC6_DC10() -> None:
    assert set(who_may_act.WHO) == set(typing.get_args(c.Command))
    walked: set[type] = set()
    for case in (*DEPLOYMENT, *TURNS, *INTERRUPTS, *ENDINGS, *OFFICIALS, *PREGAME, *CLASSIC):
        table = case.table()
        walked.add(type(case.command(table.game)))
    assert walked == set(typing.get_args(c.Command))


def test_the_cheat_passes_nothing_and_scores_nothing__DC3_TS3() -> None:
    """The seat whose clock does not run names the running side and answers its kill box."""
    table = at(2, P1)()
    before = table.game
    cheat = c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=True))
    with pytest.raises(NotYourSeat, match="your opponent's turn: only they may end their turn"):
        table.try_do(P2, cheat)
    game = table.do(P1, c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=False)))
    assert before.control_points == game.control_points == (0, 0) and game.active is P2
    # P1's double tap is stale, not a cheat (an offline merge drops it as a press on a
    # clock no longer running).
    with pytest.raises(RuleError) as refused:
        table.try_do(P1, c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=False)))
    assert refused.value.code == "stale"


# -- Runewars (TS11, DC11) ---------------------------------------------------------------


def rw_table() -> RwGame:
    """Ann (P1, the lower army) chooses the first player."""
    setup = TableSetup(("Ann", "Bob"), (180, 200), "Battle Lines", "Bounty")
    return rw.new_game(setup, random.Random(1))


def rw_at(phase: RwPhase, first: Side = P1) -> Callable[[], RwGame]:
    def build() -> RwGame:
        game = rw_table()
        steps: list[tuple[c.Actor, Any]] = [
            (P1, rc.ChooseFirstPlayer(first)),
            (first.other, rc.ChooseArea("red")),
            (EO, rc.StartRound()),
            (first, rc.EndGameRound(1)),
            (P1, rc.ArmyDestroyed(None)),
            (P1, rc.EnterScore(100, 0)),
            (P2, rc.EnterScore(100, 0)),
            (P1, rc.FlurryHits(3)),
            (P2, rc.FlurryHits(1)),
        ]
        for sender, step in steps:
            if game.phase is phase:
                break
            game = rw.apply(game, sender, step, 0)
        assert game.phase is phase
        return game

    return build


def rw_round_2() -> RwGame:
    return rw.apply(rw_at(RwPhase.PLAYING)(), P1, rc.EndGameRound(1), 0)


def rw_asked_back() -> RwGame:
    """Ann asked to step the round counter back to game round 1."""
    return rw.apply(rw_round_2(), P1, rc.StepBack(2), 0)


@dataclass(frozen=True)
class RwCase:
    """In the state `game()` builds, `command` is accepted from the `allowed` actors."""

    name: str
    game: Callable[[], RwGame]
    command: Any
    allowed: tuple[c.Actor, ...]


RW_EVERYONE: tuple[c.Actor, ...] = (P1, P2, EO, SYSTEM, WATCHER)
RW_CASES = [
    RwCase("choose the first player", rw_table, rc.ChooseFirstPlayer(P2), (P1, EO)),
    RwCase("choose the area", rw_at(RwPhase.AREA), rc.ChooseArea("blue"), (P2, EO)),
    RwCase(
        "choose the area, P2 first",
        rw_at(RwPhase.AREA, first=P2),
        rc.ChooseArea("blue"),
        (P1, EO),
    ),
    RwCase("start the round", rw_at(RwPhase.READY), rc.StartRound(), (P1, P2, EO)),
    RwCase("turn the counter", rw_at(RwPhase.PLAYING), rc.EndGameRound(1), (P1, EO)),
    RwCase(
        "turn the counter, P2 first",
        rw_at(RwPhase.PLAYING, first=P2),
        rc.EndGameRound(1),
        (P2, EO),
    ),
    RwCase("call time", rw_at(RwPhase.PLAYING), rc.CallTime(), (EO, SYSTEM)),
    RwCase("more time", rw_at(RwPhase.PLAYING), rc.ExtendTime(5, "a lost die"), (EO,)),
    RwCase("own army destroyed", rw_at(RwPhase.PLAYING), rc.ArmyDestroyed(P1), (P1, EO)),
    RwCase("both armies destroyed", rw_at(RwPhase.PLAYING), rc.ArmyDestroyed(None), (P1, P2, EO)),
    RwCase("concede", rw_at(RwPhase.PLAYING), rc.Concede(), (P1, P2)),
    RwCase("enter a score", rw_at(RwPhase.SCORING), rc.EnterScore(80, 10), (P1, P2)),
    RwCase("final flurry", rw_at(RwPhase.FINAL_FLURRY), rc.FinalFlurry((3, 1)), (EO,)),
    RwCase("own flurry hits", rw_at(RwPhase.FINAL_FLURRY), rc.FlurryHits(3), (P1, P2)),
    RwCase("confirm", rw_at(RwPhase.OVER), rc.ConfirmResult(), (P1, P2)),
    RwCase("dispute", rw_at(RwPhase.OVER), rc.DisputeResult("no"), (P1, P2)),
    RwCase("step back", rw_round_2, rc.StepBack(2), (P1, P2, EO)),
    RwCase("keep the round", rw_asked_back, rc.KeepRound(), (P1, P2, EO)),
    RwCase(
        "judge the scores",
        rw_at(RwPhase.SCORING),
        rc.JudgeScores(((80, 10), (60, 0))),
        (EO,),
    ),
]


@pytest.mark.parametrize("case", RW_CASES, ids=lambda case: case.name)
def test_runewars_the_first_player_keeps_the_counter_and_each_scores_for_themselves__TS11_DC11(
    case: RwCase,
) -> None:
    for sender in RW_EVERYONE:
        game = case.game()
        if sender in case.allowed:
            rw.apply(game, sender, case.command, 0)
            continue
        with pytest.raises(NotYourSeat) as refused:
            rw.apply(game, sender, case.command, 0)
        words = refused.value.message
        assert not NOT_PLAIN.search(words), f"{case.name} from {sender}: {words!r}"


def test_one_table_names_who_sends_every_runewars_command_and_each_is_walked__TS11() -> None:
    assert set(rw_who.WHO) == set(typing.get_args(rc.Command))
    assert {type(case.command) for case in RW_CASES} == set(typing.get_args(rc.Command))


# -- a watch link ----------------------------------------------------------------------


def test_a_watch_link_is_a_watcher_and_changes_nothing__DC3() -> None:
    """The room maps a watch link to the watcher, whom every engine refuses."""
    from app.tables.seats import actor_from_wire, actor_to_wire

    assert actor_from_wire(actor_to_wire(WATCHER)) is WATCHER
    table = at(2, P1)()
    with pytest.raises(NotYourSeat, match="watch"):
        table.try_do(WATCHER, c.PassTurn(expect=P1, turn_end=c.TurnEnd(kill_box=False)))
    with pytest.raises(NotYourSeat, match="watch"):
        rw.apply(rw_at(RwPhase.PLAYING)(), WATCHER, rc.EndGameRound(1), 0)


# -- a table's log is history ------------------------------------------------------------


def test_a_log_accepted_before_the_rule_still_replays__DC3_TS11() -> None:
    """Who may send a command is judged when it is accepted; a table's log written before
    this rule (P2 tapping for P1; a player reporting the opponent's army destroyed) still
    replays, so a restart does not lock the table."""
    from app.store.log_entry import LogEntry
    from app.tables.engines import engine_for
    from app.tables.replay import fold

    def log(*entries: tuple[str, str]) -> list[LogEntry]:
        return [
            LogEntry(n, n * 1_000, by, "d", n, command)
            for n, (by, command) in enumerate(entries, start=1)
        ]

    wm = log(("p1", '{"c":"start"}'), ("p2", '{"c":"pass_turn","expect":"p1"}'))
    game = fold(sr().game, wm, 0, engine_for("sr2019"))[-1]
    assert (game.phase, game.active) == (Phase.DEPLOYMENT, P2)
    with pytest.raises(NotYourSeat):
        table = Table(fold(sr().game, wm[:1], 0, engine_for("sr2019"))[-1], 1_000)
        table.try_do(P2, c.PassTurn(expect=P1))

    runewars = log(
        ("p1", '{"c":"choose_first","first":"p1"}'),
        ("p2", '{"c":"choose_area","area":"red"}'),
        ("eo", '{"c":"start_round"}'),
        ("p2", '{"c":"army_destroyed","side":"p1"}'),
    )
    played = fold(rw_table(), runewars, 0, engine_for("runewars2017"))[-1]
    assert played.phase is RwPhase.SCORING and played.destroyed == (True, False)
    with pytest.raises(NotYourSeat):
        rw.apply(rw_at(RwPhase.PLAYING)(), P2, rc.ArmyDestroyed(P1), 0)
