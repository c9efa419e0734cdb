"""Who may send each command to a Runewars table: one table, held by the server for every
command before the rules ask whether it fits the table's state (TS11, DC11).

The player with the lower army total names the first player, the second player takes a
deployment area, the first player keeps the round counter; each player reports their own
army destroyed (or both armies together), enters their own score and Final Flurry hits,
confirms or disputes the result and concedes for themselves; either player starts the
round timer, asks to step the round counter back (the other agrees by asking too) or
turns such a request down. The organiser may step in for any of these but what a player
says for themselves, and alone enters both Final Flurry hits or enters or corrects a
result; the organiser or the round timer calls time; a watcher only reads.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from app.domain.clock import Side
from app.domain.commands import WATCHING, Actor, Role
from app.domain.errors import NotYourSeat
from app.domain.runewars import commands as rc
from app.domain.runewars.state import RwGame


class Who(Enum):
    CHOOSER = "the player who names the first player, or the organiser"
    SECOND = "the second player, or the organiser"
    FIRST = "the first player, or the organiser"
    OWN_ARMY = "the player whose army it is (either, for both together), or the organiser"
    PLAYERS = "either player, or the organiser"
    SEATS = "either player, each for themselves"
    JUDGES = "the organiser, or the round timer"
    EO = "the organiser"


#: Each command: who may send it, and what it does in a refusal's words.
WHO: dict[type, tuple[Who, str]] = {
    rc.ChooseFirstPlayer: (Who.CHOOSER, "choose the first player"),
    rc.ChooseArea: (Who.SECOND, "choose the deployment area"),
    rc.StartRound: (Who.PLAYERS, "start the round timer"),
    rc.EndGameRound: (Who.FIRST, "turn the round counter"),
    rc.CallTime: (Who.JUDGES, "call time"),
    rc.ExtendTime: (Who.EO, "give a table more time"),
    rc.ArmyDestroyed: (Who.OWN_ARMY, "report an army destroyed"),
    rc.Concede: (Who.SEATS, "concede their game"),
    rc.EnterScore: (Who.SEATS, "enter their own score"),
    rc.FinalFlurry: (Who.EO, "enter both players' Final Flurry hits"),
    rc.FlurryHits: (Who.SEATS, "enter their own Final Flurry hits"),
    rc.ConfirmResult: (Who.SEATS, "confirm the result"),
    rc.DisputeResult: (Who.SEATS, "dispute the result"),
    rc.StepBack: (Who.PLAYERS, "step the round counter back"),
    rc.KeepRound: (Who.PLAYERS, "keep the round counter as it is"),
    rc.JudgeScores: (Who.EO, "enter or correct a table's result"),
}

#: What a seat told no is told, by who may send the command instead.
_NOT_YOURS = {
    Who.CHOOSER: "that is the other player's choice: they choose the first player",
    Who.SECOND: "that is the other player's choice: the second player chooses the deployment area",
    Who.FIRST: "the other player is the first player: only they turn the round counter",
    Who.OWN_ARMY: "each player reports their own army destroyed (or both together)",
    Who.JUDGES: "only the organiser or the round timer calls time",
    Who.EO: "only the organiser enters or corrects a table's result",
}

#: A seat refused a command only the organiser sends, by what the command does.
_EO_ONLY = {
    rc.FinalFlurry: "each player enters their own Final Flurry hits",
    rc.ExtendTime: "only the organiser gives a table more time",
}


def check(game: RwGame, actor: Actor, command: Any) -> None:
    """Refuse `command` if `actor` may not send it (NotYourSeat, in plain words)."""
    found = WHO.get(type(command))
    if found is None:
        return  # not a command of this game: `apply` says so
    who, does = found
    if actor is Role.WATCHER:
        raise NotYourSeat(WATCHING)
    if isinstance(actor, Side):
        seats = _seats(game, who, command)
        if None not in seats and actor not in seats:
            raise NotYourSeat(_EO_ONLY.get(type(command), _NOT_YOURS[who]))
        return
    if who is Who.SEATS:
        raise NotYourSeat(f"only a player may {does}")
    if actor is Role.SYSTEM and who is Who.EO:
        raise NotYourSeat(f"only the organiser may {does}")
    if actor is Role.SYSTEM and who is not Who.JUDGES:
        raise NotYourSeat(f"only a player or the organiser may {does}")


def _seats(game: RwGame, who: Who, command: Any) -> tuple[Side | None, ...]:
    """The seats that may send it (None among them: not settled yet, so the rule says
    it is not the time)."""
    match who:
        case Who.CHOOSER:
            return (game.chooser,)
        case Who.SECOND:
            return (game.second,)
        case Who.FIRST:
            return (game.first,)
        case Who.OWN_ARMY:
            side: Side | None = command.side
            return (Side.P1, Side.P2) if side is None else (side,)
        case Who.PLAYERS | Who.SEATS:
            return (Side.P1, Side.P2)
    return ()
