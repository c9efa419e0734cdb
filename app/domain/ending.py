"""How a game ends and is settled (TS6-TS9, DC7): assassination, concession,
clock-out claims, reports and confirmation."""

from __future__ import annotations

import unicodedata

from app.domain import commands as c
from app.domain.clock import put
from app.domain.clock_out import lose_on_time
from app.domain.errors import BadInput, NotYourSeat, RuleError
from app.domain.frozen import replace
from app.domain.result import Report, compute_result, settled
from app.domain.state import (
    Game,
    Method,
    Phase,
    earned,
    end_by_victory_conditions,
    end_game,
    in_play,
    score,
    seat_of,
)
from app.domain.turns import check_answers, turn_end_points


def caster_destroyed(game: Game, actor: c.Actor, cmd: c.CasterDestroyed, now_ms: int) -> Game:
    seat = seat_of(actor)
    in_play(game)
    if game.phase is not Phase.TURN:
        raise RuleError("casters can only be destroyed once the turns have begun")
    if not game.setup.rules.assassination:  # No Assassination Victory: play goes on
        lost = (False, False) if cmd.both else put(game.casters, seat, False)
        return replace(game, casters=lost)
    if cmd.both:
        # TS6: "victory is determined using tiebreakers"; No Tiebreakers has none: a tie.
        method = Method.TIEBREAKER if game.setup.rules.tiebreakers else Method.ASSASSINATION
        return replace(end_game(game, method, None, now_ms), casters=(False, False))
    ended = end_game(game, Method.ASSASSINATION, seat.other, now_ms)
    return replace(
        ended, casters=put(game.casters, seat, False), final_scoring_due=game.scoring_due_at_mark
    )


def concede(game: Game, actor: c.Actor, now_ms: int) -> Game:
    seat = seat_of(actor)
    if game.phase is Phase.OVER:
        raise RuleError("the game is over")
    return end_game(replace(game, flagged=None), Method.CONCESSION, seat.other, now_ms)


def claim(game: Game, actor: c.Actor, cmd: c.ClaimScenario) -> Game:
    seat = seat_of(actor)
    if game.phase is not Phase.CLOCK_OUT or game.flagged is None:
        raise RuleError("only the player whose clock ran out in their own turn can claim")
    if game.flagged is not seat:
        raise NotYourSeat("your opponent's clock ran out, not yours: only they may claim")
    if game.claim is not None:
        raise RuleError("a claim is already waiting for the opponent")
    if not game.scoring_due_at_mark:
        start = game.scoring_from
        since = f"starts at the end of {game.turn_words(start)}"
        if not game.scenario.scored:
            since = "is none: the scenario is won by assassination only"
        raise RuleError(f"scenario scoring {since}: the clock loss stands")
    cp, _ = score(game, cmd.scoring)
    if game.scenario_winner(cp, cmd.scoring) is not seat:
        if game.scenario.condition is not None:
            raise RuleError(
                f"that scoring does not win {game.scenario.name} for {game.names[seat]} "
                f"({game.scenario.victory_words}): the clock loss stands"
            )
        lead = cp[seat] - cp[seat.other]
        raise RuleError(
            f"that scoring gives {game.names[seat]} a lead of {lead} CP, not "
            f"{game.format.victory_lead}: no scenario victory; the clock loss stands"
        )
    return replace(game, claim=cmd.scoring)


def answer_claim(game: Game, actor: c.Actor, cmd: c.AnswerClaim, now_ms: int) -> Game:
    seat = seat_of(actor)
    flagged = game.flagged
    if game.phase is not Phase.CLOCK_OUT or game.claim is None or flagged is None:
        raise RuleError("there is no claim to answer")
    if seat is flagged:
        raise NotYourSeat("the opponent answers the claim")
    if not cmd.agree:
        return lose_on_time(game, flagged, game.clock.since_ms)
    cp, destroyed = score(game, game.claim)
    cp = game.format.cap_cp(game.format, cp)
    tally = earned(game, game.claim)
    scored = replace(game, control_points=cp, objectives_destroyed=destroyed, earned=tally)
    return end_game(scored, Method.SCENARIO, flagged, now_ms)


def accept_clock_loss(game: Game, actor: c.Actor, now_ms: int) -> Game:
    seat = seat_of(actor)
    if game.phase is not Phase.CLOCK_OUT or game.flagged is None:
        raise RuleError("only the player whose clock ran out can accept the loss")
    if game.flagged is not seat:
        raise NotYourSeat(
            "your opponent's clock ran out, not yours: only they may accept the loss on time"
        )
    return lose_on_time(game, seat, game.clock.since_ms)


def final_scoring(game: Game, actor: c.Actor, cmd: c.FinalScoring) -> Game:
    """TS6, DC10: the last scoring of the final state; at dice down, the end of the turn
    it ended, answered as a tap answers it (`turns.check_answers`, `turns.turn_end_points`):
    the kill box of that turn's player, where it is asked, by that player only."""
    seat = seat_of(actor)
    if not game.final_due:
        raise RuleError("no final scoring is due")
    asked = game.final_kill_box
    if asked is not None and seat is not asked:
        name = game.names[asked]
        raise NotYourSeat(
            f"dice down ended {name}'s turn: only {name} answers its kill box and last scoring"
        )
    who = game.active if asked is None else asked
    turn_end = c.TurnEnd(kill_box=cmd.kill_box, scoring=cmd.scoring)
    check_answers(game, who, (asked is not None, game.final_scoring_due), turn_end, "the game")
    cp, destroyed, tally = turn_end_points(game, who, turn_end)
    winner = game.scenario_winner(cp)
    cp = game.format.cap_cp(game.format, cp)
    scored = replace(
        game,
        control_points=cp,
        objectives_destroyed=destroyed,
        earned=tally,
        final_scoring_due=False,
        final_kill_box=None,
    )
    ending = game.ending
    if ending is not None and ending.winner is None and winner is not None:
        # DC10: after dice down, a scenario victory in the last scoring is a clear winner.
        return replace(scored, ending=replace(ending, method=Method.SCENARIO, winner=winner))
    called = game.timer is not None and game.timer.called
    if ending is not None and ending.method is Method.TIEBREAKER and called:
        # DC10: "If a game does not have a clear winner after dice down, refer to
        # 'Victory Conditions' on the scenario sheet" (TS4).
        return end_by_victory_conditions(scored, ending.at_ms)
    return scored


def _unsettled(game: Game) -> None:
    if settled(game):
        raise RuleError("the result is settled (both players confirmed it); only the EO changes it")


def report(game: Game, actor: c.Actor, cmd: c.ReportGame) -> Game:
    seat = seat_of(actor)
    if game.phase is not Phase.OVER:
        raise RuleError("army points destroyed are entered when the game is over")
    _unsettled(game)
    if not 0 <= cmd.army_points_destroyed <= 10_000:
        raise BadInput("army points destroyed must be between 0 and 10000")
    if cmd.scenario_presence is not None and not 0 <= cmd.scenario_presence <= 10_000:
        raise BadInput("scenario presence must be between 0 and 10000")
    if len(cmd.list_played) > 200:
        raise BadInput("the list name is too long (200 characters at most)")
    # The event's choices are its players', in seat order: the side's seat, after the roll.
    choices = game.list_choices[seat if game.pregame is None else game.pregame.seat(seat)]
    if choices and cmd.list_played not in choices:
        raise BadInput(
            f"{game.names[seat]} plays one of these lists this game: {', '.join(choices)} "
            "(each list is played at least once in the event)"
        )
    report = Report(cmd.army_points_destroyed, cmd.scenario_presence, cmd.list_played)
    reports = put(game.reports, seat, report)
    return replace(game, reports=reports, confirmed=(False, False), disputed=None)


def confirm(game: Game, actor: c.Actor) -> Game:
    seat = seat_of(actor)
    if compute_result(game) is None:
        raise RuleError("the result is not complete yet")
    if game.disputed is not None:
        raise RuleError("the result is disputed: the EO decides it")
    return replace(game, confirmed=put(game.confirmed, seat, True))


def dispute(game: Game, actor: c.Actor, cmd: c.DisputeResult) -> Game:
    seat = seat_of(actor)
    if game.phase is not Phase.OVER:
        raise RuleError("a result can be disputed once the game is over")
    _unsettled(game)
    # A result to dispute: a player's report (after a concession, the winner's alone
    # makes the result). The EO's own result is settled above: only the EO changes it.
    if all(r is None for r in game.reports):
        raise RuleError(
            "nothing to dispute yet: a result can be disputed once a player has reported it"
        )
    reason = f"{seat.label}: {one_line(cmd.reason)[:300].rstrip() or 'disputes the result'}"
    # Both players may dispute: the EO sees each one's own (latest) reason.
    others = [r for r in (game.disputed or "").split("\n") if r and not r.startswith(seat.label)]
    return replace(game, disputed="\n".join([*others, reason]))


def one_line(text: str) -> str:
    """TS9: a player's reason as one line: each run of line breaks, tabs and other
    control characters (and Unicode's line and paragraph separators) is one space, so
    nothing a player writes starts a line of its own, which would read as the other
    player's; trimmed."""
    folded = "".join(" " if unicodedata.category(ch) in _BREAKS else ch for ch in text)
    return " ".join(part for part in folded.split(" ") if part)


_BREAKS = frozenset({"Cc", "Zl", "Zp"})  # control characters; line, paragraph separators
