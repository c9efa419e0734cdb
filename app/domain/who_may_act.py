"""Who may send each command to a WARMACHINE & HORDES table: one table, held by the
server for every command before the rules ask whether it fits the game's state.

The player whose turn it is passes the clock and answers its own turn-end questions (the
kill box, the scoring); the other player switches an interrupt back, agrees, reports or
concedes, each player for themselves; the EO judges; the server rolls its dice and
decides what time decided; a watcher only reads. Where the game's state names one of the
two players (who asked for the undo, whose clock ran out, who won the starting roll, who
goes second, a switch to the opponent), the rule of that command checks which.
"""

from __future__ import annotations

from enum import Enum

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import NotYourSeat
from app.domain.state import Game, Phase


class Who(Enum):
    ACTIVE = "the player whose turn (or deployment step) it is"
    OTHER = "the player whose turn it is not"
    SEATS = "either player, each for themselves"
    FIRST = "the player who goes first, or the EO"
    EO = "the EO"
    JUDGES = "the EO, or the server at the round's end"
    SERVER = "the server"
    ANYONE = "the players, the EO or the server (it only decides what time decided)"


#: Each command: who may send it, and what it does in a refusal's words ({step}: "turn"
#: or "deployment", whichever the table is at).
WHO: dict[type, tuple[Who, str]] = {
    c.StartClock: (Who.FIRST, "start the clock"),
    c.PassTurn: (Who.ACTIVE, "end their {step}"),
    c.SwitchClock: (Who.SEATS, "switch the clock for an interrupt"),
    c.ProposeUndo: (Who.SEATS, "ask to undo a tap"),
    c.UndoSeen: (Who.SEATS, "report an undo request shown"),
    c.AnswerUndo: (Who.SEATS, "answer an undo"),
    c.CasterDestroyed: (Who.SEATS, "report their caster destroyed"),
    c.Concede: (Who.SEATS, "concede"),
    c.ClaimScenario: (Who.SEATS, "claim a scenario victory"),
    c.AnswerClaim: (Who.SEATS, "answer a claim"),
    c.AcceptClockLoss: (Who.SEATS, "accept the loss on time"),
    c.FinalScoring: (Who.SEATS, "score the final state"),
    c.ReportGame: (Who.SEATS, "report the game"),
    c.ConfirmResult: (Who.SEATS, "confirm the result"),
    c.DisputeResult: (Who.SEATS, "dispute the result"),
    c.ReportPause: (Who.SEATS, "report a pause"),
    c.NoModelsLeft: (Who.SEATS, "report that they have no models left"),
    c.ChooseList: (Who.SEATS, "choose a list"),
    c.ChooseSpecialists: (Who.SEATS, "choose their specialists"),
    c.ChooseObjective: (Who.SEATS, "choose an objective"),
    c.StartingRoll: (Who.SEATS, "roll for who goes first"),
    c.ChooseOrder: (Who.SEATS, "choose to go first or second"),
    c.ChooseEdge: (Who.SEATS, "choose the table edge"),
    c.StartTurnTimer: (Who.ACTIVE, "start the turn timer"),
    c.StopTurnTimer: (Who.ACTIVE, "stop the turn timer"),
    c.TakeExtension: (Who.ACTIVE, "take a turn extension"),
    c.StartExtension: (Who.OTHER, "start the turn extension"),
    c.PauseClock: (Who.EO, "pause the clock: players cannot pause it"),
    c.ResumeClock: (Who.EO, "resume the clock"),
    c.AdjustClock: (Who.EO, "set a player's clock"),
    c.RecordResult: (Who.EO, "enter or correct a result"),
    c.WarnForPausing: (Who.EO, "warn a player for pausing"),
    c.CallTie: (Who.JUDGES, "declare a game a tie at the round's end"),
    c.DiceDown: (Who.JUDGES, "call dice down at the round time"),
    c.OfferLists: (Who.JUDGES, "name the lists a player may play"),
    c.OpenPregame: (Who.JUDGES, "open the pre-game"),
    c.ScenarioRoll: (Who.SERVER, "roll the scenario's dice"),
    c.FlagCheck: (Who.ANYONE, "check the clocks"),
}

_PLAYING = (Phase.PRE_DEPLOYMENT, Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT, Phase.TURN)

#: Who may send what, beside the players.
_OFFICIALS = {
    Who.FIRST: (c.Role.EO,),
    Who.EO: (c.Role.EO,),
    Who.JUDGES: (c.Role.EO, c.Role.SYSTEM),
    Who.SERVER: (c.Role.SYSTEM,),
    Who.ANYONE: (c.Role.EO, c.Role.SYSTEM),
}


def check(game: Game, actor: c.Actor, command: object) -> None:
    """Refuse `command` if `actor` may not send it (NotYourSeat, in plain words)."""
    found = WHO.get(type(command))
    if found is None:
        return  # not a command of this game: `apply` says so
    who, does = found
    does = does.format(step=_step(game))
    if actor is c.Role.WATCHER:
        raise NotYourSeat(c.WATCHING)
    if isinstance(actor, Side):
        _check_seat(game, actor, who, does, command)
    elif who in (Who.ACTIVE, Who.OTHER, Who.SEATS):
        raise NotYourSeat(f"only a player at the table may {does}")
    elif actor not in _OFFICIALS[who]:
        official = "the server" if who is Who.SERVER else "the EO"
        raise NotYourSeat(f"only {official} may {does}")


def _check_seat(game: Game, seat: Side, who: Who, does: str, command: object) -> None:
    if who is Who.SEATS or who is Who.ANYONE:
        return
    if who is Who.FIRST:
        if seat is not Side.P1:
            raise NotYourSeat(f"only the player who goes first may {does}")
        return
    if who not in (Who.ACTIVE, Who.OTHER):
        official = "the server" if who is Who.SERVER else "the EO"
        raise NotYourSeat(f"only {official} may {does}")
    if game.phase not in _PLAYING:
        return  # nobody's turn: the rule says why not now
    if isinstance(command, c.PassTurn) and command.expect is not game.active:
        return  # a tap on a clock that no longer runs: the rule refuses it as stale
    step = _step(game)
    if who is Who.ACTIVE and seat is not game.active:
        raise NotYourSeat(f"it is your opponent's {step}: only they may {does}")
    if who is Who.OTHER and seat is game.active:
        raise NotYourSeat(f"it is your {step}: only your opponent may {does}")


def _step(game: Game) -> str:
    if game.phase is Phase.PRE_DEPLOYMENT:
        return "pre-deployment"
    if game.phase in (Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT):
        return "deployment"
    return "turn"
