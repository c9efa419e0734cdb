"""One game at a table: phases, turns, scoring, kill box, victory and result.

`apply(game, actor, command, now_ms)` returns the next game or raises a RuleError;
a game is immutable, so a rejected command changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from app.domain import commands as c
from app.domain.clock import Clock, Side
from app.domain.errors import BadInput, NotYourSeat, RuleError, StaleCommand
from app.domain.formats import Format, TurnMark, get_format
from app.domain.scenarios import ElementKind, Scenario

UNDO_WINDOW_MS = 10_000


class Phase(StrEnum):
    READY = "ready"
    DEPLOYMENT = "deployment"
    ADVANCE_DEPLOYMENT = "advance_deployment"
    TURN = "turn"
    CLOCK_OUT = "clock_out"
    OVER = "over"


class Method(StrEnum):
    SCENARIO = "scenario"
    ASSASSINATION = "assassination"
    CLOCK = "clock"
    CONCESSION = "concession"
    TIEBREAKER = "tiebreaker"
    TIME = "time"
    EO = "eo"  # entered or corrected by the EO


@dataclass(frozen=True, slots=True)
class Setup:
    format_id: str
    scenario_id: str
    player_clock_ms: int
    army_points: int
    names: tuple[str, str] = ("Player 1", "Player 2")
    # Looked up once: every turn end and every view asks for them several times.
    _format: Format | None = field(default=None, init=False, repr=False, compare=False)
    _scenario: Scenario | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def format(self) -> Format:
        if self._format is None:
            object.__setattr__(self, "_format", get_format(self.format_id))
        assert self._format is not None
        return self._format

    @property
    def scenario(self) -> Scenario:
        if self._scenario is None:
            object.__setattr__(self, "_scenario", self.format.scenario(self.scenario_id))
        assert self._scenario is not None
        return self._scenario


@dataclass(frozen=True, slots=True)
class Ending:
    """How the game ended; `winner` is None until tiebreakers decide it."""

    method: Method
    winner: Side | None
    at_ms: int


@dataclass(frozen=True, slots=True)
class Report:
    army_points_destroyed: int
    scenario_presence: int | None
    list_played: str


@dataclass(frozen=True, slots=True)
class Result:
    """TS9: the game's result as both players confirm it."""

    winner: Side | None
    method: Method
    control_points: tuple[int, int]
    army_points_destroyed: tuple[int, int]
    lists: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Undo:
    tap_at_ms: int
    before: Game
    proposed_by: Side | None = None
    proposed_at_ms: int = 0


@dataclass(frozen=True, slots=True)
class Game:
    setup: Setup
    clock: Clock
    phase: Phase = Phase.READY
    active: Side = Side.P1
    turn: int = 0
    interrupted: bool = False
    paused: bool = False
    paused_side: Side | None = None
    paused_by_eo: bool = False
    control_points: tuple[int, int] = (0, 0)
    objectives_destroyed: frozenset[str] = frozenset()
    casters: tuple[bool, bool] = (True, True)
    flagged: Side | None = None
    claim: c.Scoring | None = None
    ending: Ending | None = None
    final_scoring_due: bool = False
    reports: tuple[Report | None, Report | None] = (None, None)
    confirmed: tuple[bool, bool] = (False, False)
    disputed: str | None = None
    undo: Undo | None = None
    recorded: Result | None = None  # the EO's result, which stands over the players'

    @property
    def format(self) -> Format:
        return self.setup.format

    @property
    def scenario(self) -> Scenario:
        return self.setup.scenario

    @property
    def mark(self) -> TurnMark:
        return TurnMark(self.turn, self.active)

    def remaining(self, side: Side, now_ms: int) -> int:
        return self.clock.remaining(side, now_ms)

    @property
    def kill_box_due(self) -> bool:
        """TS3: asked at the end of each turn from P1's turn 2."""
        return (
            self.phase is Phase.TURN
            and self.scenario.kill_box
            and self.format.kill_box_from.reached_by(self.turn, self.active)
        )

    @property
    def scoring_due_at_mark(self) -> bool:
        """Whether the end of the current turn is one that is scored."""
        return self.turn > 0 and self.format.scoring_from.reached_by(self.turn, self.active)

    @property
    def scoring_due(self) -> bool:
        """TS2: scoring at the end of each turn from the end of P2's turn 2."""
        return self.phase is Phase.TURN and self.scoring_due_at_mark

    @property
    def last_turn(self) -> bool:
        return self.phase is Phase.TURN and self.mark == self.format.last_turn

    def result(self) -> Result | None:
        return compute_result(self)


def new_game(setup: Setup, now_ms: int) -> Game:
    setup.format.scenario(setup.scenario_id)
    if setup.player_clock_ms <= 0:
        raise BadInput("the player clock must be longer than zero")
    return Game(setup=setup, clock=Clock.start_with(setup.player_clock_ms, now_ms))


def slot(game: Game) -> str:
    """Where the game stands, in the players' words: "P2's turn 3"."""
    who = game.active.label
    match game.phase:
        case Phase.READY:
            return "before the clock started"
        case Phase.DEPLOYMENT:
            return f"{who}'s deployment"
        case Phase.ADVANCE_DEPLOYMENT:
            return f"{who}'s advance deployment"
        case Phase.TURN | Phase.CLOCK_OUT:
            return f"{who}'s turn {game.turn}"
    return "after the game"


# --- the clock out (DC7) ------------------------------------------------------


def decide_flag(game: Game, now_ms: int) -> Game:
    """If the running side reached zero by `now_ms`, flag it at that exact moment."""
    flag_at = game.clock.flag_at()
    if flag_at is None or flag_at > now_ms or game.ending is not None:
        return game
    side = game.clock.running
    assert side is not None
    stopped = replace(game, clock=game.clock.run(None, flag_at), flagged=side, undo=None)
    if claim_possible(stopped, side):
        return replace(stopped, phase=Phase.CLOCK_OUT)
    return _lose_on_time(stopped, side, flag_at)


def claim_possible(game: Game, side: Side) -> bool:
    """DC7: only a clock out in `side`'s own turn (not during an interrupt), once
    scenario scoring has started, can still be a scenario win; any other clock out
    is lost at once, with nobody waiting on the player who ran out."""
    return (
        game.format.clock_out_claim
        and game.phase is Phase.TURN
        and side is game.active
        and not game.interrupted
        and game.scoring_due_at_mark
    )


def _lose_on_time(game: Game, side: Side, at_ms: int) -> Game:
    """DC7: the caster is destroyed; scored as an assassination for the opponent."""
    casters = list(game.casters)
    casters[side] = False
    scoring_started = game.phase in (Phase.TURN, Phase.CLOCK_OUT) and game.scoring_due_at_mark
    return replace(
        _end(game, Method.CLOCK, side.other, at_ms),
        casters=(casters[0], casters[1]),
        final_scoring_due=scoring_started,
    )


# --- helpers ------------------------------------------------------------------


def _end(game: Game, method: Method, winner: Side | None, at_ms: int) -> Game:
    return replace(
        game,
        phase=Phase.OVER,
        clock=game.clock.run(None, max(at_ms, game.clock.since_ms)),
        interrupted=False,
        paused=False,
        paused_side=None,
        claim=None,
        ending=Ending(method=method, winner=winner, at_ms=at_ms),
    )


def _seat(actor: c.Actor) -> Side:
    if not isinstance(actor, Side):
        raise NotYourSeat("only a player at the table can do that")
    return actor


def _eo(actor: c.Actor) -> None:
    if actor is not c.Role.EO:
        raise NotYourSeat("only the EO can do that (DC5: players cannot pause the clock)")


def _playing(game: Game) -> None:
    if game.phase in (Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT, Phase.TURN):
        if game.paused:
            raise RuleError("the EO has paused this table; wait for the EO to resume")
        return
    if game.phase is Phase.READY:
        raise RuleError("the clock has not started yet: P1 starts it to begin deployment")
    if game.phase is Phase.CLOCK_OUT:
        raise RuleError(f"{game.flagged.label if game.flagged is not None else 'A'} clock ran out")
    raise RuleError("the game is over")


def score(game: Game, scoring: c.Scoring) -> tuple[tuple[int, int], frozenset[str]]:
    """CP each side gains from a scoring sheet, and the objectives now destroyed."""
    gained = [0, 0]
    scenario = game.scenario
    for element_id, side in scoring.control.items():
        element = scenario.element(element_id)
        if element is None or element.kind is ElementKind.OBJECTIVE:
            raise BadInput(f"{scenario.name} has no zone or flag {element_id!r}")
        gained[side] += element.control_cp
    destroyed = set(game.objectives_destroyed)
    for objective_id in sorted(scoring.destroyed):
        element = scenario.element(objective_id)
        if element is None or element.kind is not ElementKind.OBJECTIVE:
            raise BadInput(f"{scenario.name} has no objective {objective_id!r}")
        if objective_id in destroyed:
            raise RuleError(f"{element.name} was already scored (once per objective)")
        owner = Side.P1 if objective_id.endswith("p1") else Side.P2
        gained[owner.other] += element.control_cp
        destroyed.add(objective_id)
    return (game.control_points[0] + gained[0], game.control_points[1] + gained[1]), frozenset(
        destroyed
    )


# --- commands -----------------------------------------------------------------


def _start(game: Game, actor: c.Actor, now_ms: int) -> Game:
    if game.phase is not Phase.READY:
        raise RuleError("the clock is already started")
    if actor is not Side.P1 and actor is not c.Role.EO:
        raise NotYourSeat("P1 starts the clock and deploys first (DC3)")
    return replace(
        game, phase=Phase.DEPLOYMENT, active=Side.P1, clock=game.clock.run(Side.P1, now_ms)
    )


def _pass_turn(game: Game, actor: c.Actor, cmd: c.PassTurn, now_ms: int) -> Game:
    _seat(actor)
    _playing(game)
    if game.interrupted:
        raise RuleError(
            f"{game.active.other.label}'s clock runs for an interrupt: switch back first"
        )
    if cmd.expect is not game.active:
        raise StaleCommand(
            f"{game.active.label}'s clock is running, not {cmd.expect.label}'s: tap ignored"
        )
    before = game if game.undo is None else replace(game, undo=None)
    undo = Undo(tap_at_ms=now_ms, before=before)
    if game.phase is Phase.TURN:
        return _end_turn(game, cmd.turn_end, now_ms, undo)
    if cmd.turn_end is not None and (
        cmd.turn_end.kill_box is not None or cmd.turn_end.scoring is not None
    ):
        raise BadInput("nothing is scored during deployment")
    phase: Phase = game.phase
    turn = game.turn
    if game.active is Side.P1:
        nxt = Side.P2
    elif game.phase is Phase.DEPLOYMENT:
        phase, nxt = Phase.ADVANCE_DEPLOYMENT, Side.P1
    else:
        phase, nxt, turn = Phase.TURN, Side.P1, 1
    clock = game.clock.run(nxt, now_ms)
    return replace(game, phase=phase, active=nxt, turn=turn, clock=clock, undo=undo)


def _end_turn(game: Game, turn_end: c.TurnEnd | None, now_ms: int, undo: Undo) -> Game:
    """The end of the active player's turn (TS1–TS4); `undo` takes the tap back."""
    turn_end = turn_end or c.TurnEnd()
    who = game.active
    kill_box_due, scoring_due = game.kill_box_due, game.scoring_due
    if kill_box_due and turn_end.kill_box is None:
        raise BadInput(f"kill box: was {who.label}'s caster within 12\" of their table edge?")
    if not kill_box_due and turn_end.kill_box:
        raise BadInput("the kill box is checked from the end of P1's turn 2")
    if scoring_due and turn_end.scoring is None:
        raise BadInput(f"score the end of {who.label}'s turn {game.turn} first")
    if not scoring_due and turn_end.scoring is not None:
        raise BadInput("scoring starts at the end of P2's turn 2")
    cp, destroyed = game.control_points, game.objectives_destroyed
    if turn_end.scoring is not None:
        cp, destroyed = score(game, turn_end.scoring)
    if turn_end.kill_box:
        gained = list(cp)
        gained[who.other] += game.format.kill_box_cp
        cp = (gained[0], gained[1])
    winner = game.format.scenario_winner(cp)
    if winner is not None or game.last_turn:
        scored = replace(game, control_points=cp, objectives_destroyed=destroyed, undo=undo)
        if winner is not None:
            return _end(scored, Method.SCENARIO, winner, now_ms)
        leader = None if cp[0] == cp[1] else Side.P1 if cp[0] > cp[1] else Side.P2
        method = Method.SCENARIO if leader is not None else Method.TIEBREAKER
        return _end(scored, method, leader, now_ms)
    nxt = who.other
    return replace(
        game,
        control_points=cp,
        objectives_destroyed=destroyed,
        active=nxt,
        turn=game.turn + 1 if nxt is Side.P1 else game.turn,
        clock=game.clock.run(nxt, now_ms),
        undo=undo,
    )


def _switch(game: Game, actor: c.Actor, cmd: c.SwitchClock, now_ms: int) -> Game:
    seat = _seat(actor)
    _playing(game)
    if game.phase is not Phase.TURN:
        raise RuleError("the clock is switched for interrupts only during a turn (DC6)")
    inactive = game.active.other
    if cmd.to is inactive:
        if game.interrupted:
            raise StaleCommand(f"{inactive.label}'s clock already runs for the interrupt")
        if seat is not game.active:
            raise NotYourSeat("only the active player switches the clock to the opponent (DC6)")
        return replace(game, interrupted=True, clock=game.clock.run(inactive, now_ms), undo=None)
    if not game.interrupted:
        raise StaleCommand(f"{game.active.label}'s clock is already running")
    return replace(game, interrupted=False, clock=game.clock.run(game.active, now_ms), undo=None)


def _propose_undo(game: Game, actor: c.Actor, now_ms: int) -> Game:
    seat = _seat(actor)
    undo = game.undo
    if undo is None:
        raise RuleError("there is no tap to undo")
    if now_ms - undo.tap_at_ms > UNDO_WINDOW_MS:
        raise RuleError("a tap can only be undone within 10 seconds")
    return replace(game, undo=replace(undo, proposed_by=seat, proposed_at_ms=now_ms))


def _answer_undo(game: Game, actor: c.Actor, cmd: c.AnswerUndo, now_ms: int) -> Game:
    seat = _seat(actor)
    undo = game.undo
    if undo is None or undo.proposed_by is None:
        raise RuleError("no undo has been proposed")
    if seat is undo.proposed_by:
        raise NotYourSeat("the other player must agree to the undo")
    if not cmd.accept:
        return replace(game, undo=None)
    if now_ms - undo.tap_at_ms > UNDO_WINDOW_MS:
        raise RuleError("too late: a tap can only be undone within 10 seconds")
    return decide_flag(undo.before, now_ms)


def _caster_destroyed(game: Game, actor: c.Actor, cmd: c.CasterDestroyed, now_ms: int) -> Game:
    seat = _seat(actor)
    _playing(game)
    if game.phase is not Phase.TURN:
        raise RuleError("casters can only be destroyed once the turns have begun")
    if cmd.both:
        return replace(_end(game, Method.TIEBREAKER, None, now_ms), casters=(False, False))
    casters = list(game.casters)
    casters[seat] = False
    ended = _end(game, Method.ASSASSINATION, seat.other, now_ms)
    return replace(
        ended, casters=(casters[0], casters[1]), final_scoring_due=game.scoring_due_at_mark
    )


def _concede(game: Game, actor: c.Actor, now_ms: int) -> Game:
    seat = _seat(actor)
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    return _end(replace(game, flagged=None), Method.CONCESSION, seat.other, now_ms)


def _claim(game: Game, actor: c.Actor, cmd: c.ClaimScenario) -> Game:
    seat = _seat(actor)
    if game.phase is not Phase.CLOCK_OUT or game.flagged is not seat:
        raise RuleError("only the player whose clock ran out in their own turn can claim")
    if game.claim is not None:
        raise RuleError("a claim is already waiting for the opponent")
    if not game.scoring_due_at_mark:
        raise RuleError("scenario scoring starts at the end of P2's turn 2: the clock loss stands")
    cp, _ = score(game, cmd.scoring)
    if game.format.scenario_winner(cp) is not seat:
        lead = cp[seat] - cp[seat.other]
        raise RuleError(
            f"that scoring gives {seat.label} a lead of {lead} CP, not "
            f"{game.format.victory_lead}: no scenario victory; the clock loss stands"
        )
    return replace(game, claim=cmd.scoring)


def _answer_claim(game: Game, actor: c.Actor, cmd: c.AnswerClaim, now_ms: int) -> Game:
    seat = _seat(actor)
    flagged = game.flagged
    if game.phase is not Phase.CLOCK_OUT or game.claim is None or flagged is None:
        raise RuleError("there is no claim to answer")
    if seat is flagged:
        raise NotYourSeat("the opponent answers the claim")
    if not cmd.agree:
        return _lose_on_time(game, flagged, game.clock.since_ms)
    cp, destroyed = score(game, game.claim)
    scored = replace(game, control_points=cp, objectives_destroyed=destroyed)
    return _end(scored, Method.SCENARIO, flagged, now_ms)


def _accept_clock_loss(game: Game, actor: c.Actor, now_ms: int) -> Game:
    seat = _seat(actor)
    if game.phase is not Phase.CLOCK_OUT or game.flagged is not seat:
        raise RuleError("only the player whose clock ran out can accept the loss")
    return _lose_on_time(game, seat, game.clock.since_ms)


def _final_scoring(game: Game, actor: c.Actor, cmd: c.FinalScoring) -> Game:
    _seat(actor)
    if not game.final_scoring_due:
        raise RuleError("no final scoring is due")
    cp, destroyed = score(game, cmd.scoring)
    return replace(game, control_points=cp, objectives_destroyed=destroyed, final_scoring_due=False)


def settled(game: Game) -> bool:
    """TS9: the result stands once both players confirmed it or the EO entered it."""
    return game.recorded is not None or all(game.confirmed)


def _unsettled(game: Game) -> None:
    if settled(game):
        raise RuleError("the result is settled (both players confirmed it); only the EO changes it")


def _report(game: Game, actor: c.Actor, cmd: c.ReportGame) -> Game:
    seat = _seat(actor)
    if game.phase is not Phase.OVER:
        raise RuleError("army points destroyed are entered when the game is over")
    _unsettled(game)
    if not 0 <= cmd.army_points_destroyed <= 10_000:
        raise BadInput("army points destroyed must be between 0 and 10000")
    if cmd.scenario_presence is not None and not 0 <= cmd.scenario_presence <= 10_000:
        raise BadInput("scenario presence must be between 0 and 10000")
    if len(cmd.list_played) > 200:
        raise BadInput("the list name is too long (200 characters at most)")
    reports = list(game.reports)
    reports[seat] = Report(cmd.army_points_destroyed, cmd.scenario_presence, cmd.list_played)
    return replace(game, reports=(reports[0], reports[1]), confirmed=(False, False), disputed=None)


def _confirm(game: Game, actor: c.Actor) -> Game:
    seat = _seat(actor)
    if compute_result(game) is None:
        raise RuleError("the result is not complete yet")
    if game.disputed is not None:
        raise RuleError("the result is disputed: the EO decides it")
    confirmed = list(game.confirmed)
    confirmed[seat] = True
    return replace(game, confirmed=(confirmed[0], confirmed[1]))


def _dispute(game: Game, actor: c.Actor, cmd: c.DisputeResult) -> Game:
    seat = _seat(actor)
    if game.phase is not Phase.OVER:
        raise RuleError("a result can be disputed once the game is over")
    _unsettled(game)
    reason = cmd.reason.strip()[:300]
    return replace(game, disputed=f"{seat.label}: {reason or 'disputes the result'}")


def _call_tie(game: Game, actor: c.Actor, now_ms: int) -> Game:
    """DC8: declared a tie at the round's end time; CP stand as they are."""
    if not isinstance(actor, c.Role):
        raise NotYourSeat("only the EO declares a game a tie at the round's end")
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    if game.phase is Phase.CLOCK_OUT:
        raise RuleError(
            "a clock has run out: the game is not unfinished, DC7 decides it (not a tie)"
        )
    return _end(game, Method.TIME, None, now_ms)


def _record(game: Game, actor: c.Actor, command: c.RecordResult, now_ms: int) -> Game:
    """The EO's result ends a game still in play (its clock stops) and stands as confirmed."""
    _eo(actor)
    if any(not 0 <= v <= 10_000 for v in (*command.control_points, *command.army_points_destroyed)):
        raise BadInput("control points and army points are whole numbers from 0 to 10000")
    ended = game
    if game.phase is not Phase.OVER:
        ended = _end(game, Method.EO, command.winner, now_ms)
    lists = tuple(r.list_played if r else "" for r in game.reports)
    return replace(
        ended,
        recorded=Result(
            winner=command.winner,
            method=Method.EO,
            control_points=command.control_points,
            army_points_destroyed=command.army_points_destroyed,
            lists=(lists[0], lists[1]),
        ),
        final_scoring_due=False,
        confirmed=(True, True),
        disputed=None,
        claim=None,
        undo=None,
    )


def _pause(game: Game, actor: c.Actor, now_ms: int) -> Game:
    _eo(actor)
    _playing(game)
    return replace(
        game,
        paused=True,
        paused_by_eo=True,
        paused_side=game.clock.running,
        clock=game.clock.run(None, now_ms),
        undo=None,
    )


def _resume(game: Game, actor: c.Actor, now_ms: int) -> Game:
    _eo(actor)
    if not game.paused:
        raise RuleError("the clock is not paused")
    return replace(
        game, paused=False, paused_side=None, clock=game.clock.run(game.paused_side, now_ms)
    )


def _adjust(game: Game, actor: c.Actor, cmd: c.AdjustClock, now_ms: int) -> Game:
    _eo(actor)
    if game.phase in (Phase.OVER, Phase.CLOCK_OUT):
        raise RuleError("the game is over; correct the result instead")
    if not 0 <= cmd.remaining_ms <= 24 * 3_600_000:
        raise BadInput("remaining time must be between 0 and 24 hours")
    return replace(game, clock=game.clock.adjust(cmd.side, cmd.remaining_ms, now_ms), undo=None)


def apply(game: Game, actor: c.Actor, command: c.Command, now_ms: int) -> Game:
    """Apply one command at server time `now_ms`; a due clock out is decided first."""
    if now_ms < game.clock.since_ms:
        now_ms = game.clock.since_ms
    game = decide_flag(game, now_ms)
    match command:
        case c.FlagCheck():
            return game
        case c.StartClock():
            return _start(game, actor, now_ms)
        case c.PassTurn():
            return _pass_turn(game, actor, command, now_ms)
        case c.SwitchClock():
            return _switch(game, actor, command, now_ms)
        case c.ProposeUndo():
            return _propose_undo(game, actor, now_ms)
        case c.AnswerUndo():
            return _answer_undo(game, actor, command, now_ms)
        case c.CasterDestroyed():
            return replace(_caster_destroyed(game, actor, command, now_ms), undo=None)
        case c.Concede():
            return replace(_concede(game, actor, now_ms), undo=None)
        case c.ClaimScenario():
            return _claim(game, actor, command)
        case c.AnswerClaim():
            return _answer_claim(game, actor, command, now_ms)
        case c.AcceptClockLoss():
            return _accept_clock_loss(game, actor, now_ms)
        case c.FinalScoring():
            return replace(_final_scoring(game, actor, command), undo=None)
        case c.ReportGame():
            return replace(_report(game, actor, command), undo=None)
        case c.ConfirmResult():
            return replace(_confirm(game, actor), undo=None)
        case c.DisputeResult():
            return replace(_dispute(game, actor, command), undo=None)
        case c.CallTie():
            return replace(_call_tie(game, actor, now_ms), undo=None)
        case c.RecordResult():
            return _record(game, actor, command, now_ms)
        case c.PauseClock():
            return _pause(game, actor, now_ms)
        case c.ResumeClock():
            return _resume(game, actor, now_ms)
        case c.AdjustClock():
            return decide_flag(_adjust(game, actor, command, now_ms), now_ms)
    raise BadInput(f"unknown command {type(command).__name__}")


# --- the result (TS4, TS6–TS9) -----------------------------------------------


def _tiebreak(
    game: Game, apd: tuple[int, int], presence: tuple[int | None, int | None]
) -> tuple[Side | None, bool]:
    """TS7: casters remaining, CP, fewer APD suffered, scenario presence.

    Returns (winner, decided); not decided while scenario presence is missing.
    """
    casters = (int(game.casters[0]), int(game.casters[1]))
    cp = game.control_points
    suffered = (apd[1], apd[0])
    for p1, p2 in (casters, cp, (-suffered[0], -suffered[1])):
        if p1 != p2:
            return (Side.P1 if p1 > p2 else Side.P2), True
    if presence[0] is None or presence[1] is None:
        return None, False
    if presence[0] != presence[1]:
        return (Side.P1 if presence[0] > presence[1] else Side.P2), True
    return None, True


def presence_needed(game: Game) -> bool:
    ending = game.ending
    if ending is None or ending.method is not Method.TIEBREAKER:
        return False
    r1, r2 = game.reports
    if r1 is None or r2 is None:
        return False
    _, decided = _tiebreak(game, (r1.army_points_destroyed, r2.army_points_destroyed), (None, None))
    return not decided


def reports_needed(game: Game) -> tuple[Side, ...]:
    ending = game.ending
    if ending is None or game.recorded is not None:
        return ()
    sides: tuple[Side, ...] = (Side.P1, Side.P2)
    if ending.method is Method.CONCESSION and ending.winner is not None:
        sides = (ending.winner,)
    return tuple(s for s in sides if game.reports[s] is None)


def compute_result(game: Game) -> Result | None:
    if game.recorded is not None:
        return game.recorded
    ending = game.ending
    if ending is None or game.final_scoring_due or reports_needed(game):
        return None
    apd = tuple(r.army_points_destroyed if r else 0 for r in game.reports)
    lists = tuple(r.list_played if r else "" for r in game.reports)
    cp = game.control_points
    winner = ending.winner
    if ending.method is Method.TIEBREAKER:
        presence = tuple(r.scenario_presence if r else None for r in game.reports)
        winner, decided = _tiebreak(game, (apd[0], apd[1]), (presence[0], presence[1]))
        if not decided:
            return None
    if ending.method is Method.CONCESSION and winner is not None:
        points = [0, 0]
        destroyed = [0, 0]
        points[winner] = max(cp[winner], game.format.concession_min_cp)
        destroyed[winner] = max(apd[winner], game.format.concession_apd(game.setup.army_points))
        cp = (points[0], points[1])
        apd = (destroyed[0], destroyed[1])
    return Result(
        winner=winner,
        method=ending.method,
        control_points=cp,
        army_points_destroyed=(apd[0], apd[1]),
        lists=(lists[0], lists[1]),
    )
