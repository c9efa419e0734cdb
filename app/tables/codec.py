"""Commands to and from their JSON form: the wire and the table log speak the same."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput

MAX_INT = 10**9


def _side(value: object, field: str) -> Side:
    if isinstance(value, bool):
        raise BadInput(f"{field} must be 'p1' or 'p2'")
    try:
        return Side.parse(value)
    except ValueError:
        raise BadInput(f"{field} must be 'p1' or 'p2'") from None


def _bool(raw: Mapping[str, Any], field: str, default: bool | None = None) -> bool:
    value = raw.get(field, default)
    if not isinstance(value, bool):
        raise BadInput(f"{field} must be true or false")
    return value


def _int(raw: Mapping[str, Any], field: str, *, optional: bool = False) -> int | None:
    value = raw.get(field)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{field} must be a whole number")
    if not -MAX_INT <= value <= MAX_INT:
        raise BadInput(f"{field} is out of range")
    return value


def _str(raw: Mapping[str, Any], field: str, default: str = "") -> str:
    value = raw.get(field, default)
    if not isinstance(value, str):
        raise BadInput(f"{field} must be text")
    try:
        value.encode()
    except UnicodeEncodeError:  # a lone surrogate: JSON can say it, nothing can store it
        raise BadInput(f"{field} must be text (it has a broken character)") from None
    return value


def scoring_from_wire(raw: object) -> c.Scoring:
    if not isinstance(raw, Mapping):
        raise BadInput("scoring must be an object with 'control' and 'destroyed'")
    control_raw = raw.get("control", {})
    destroyed_raw = raw.get("destroyed", [])
    if not isinstance(control_raw, Mapping) or len(control_raw) > 64:
        raise BadInput("scoring.control must map element ids to 'p1' or 'p2'")
    if not isinstance(destroyed_raw, list) or len(destroyed_raw) > 8:
        raise BadInput("scoring.destroyed must be a list of objective ids")
    control: dict[str, Side] = {}
    for element_id, side in control_raw.items():
        if not isinstance(element_id, str):
            raise BadInput("element ids are text")
        control[element_id] = _side(side, f"scoring.control[{element_id!r}]")
    destroyed = set()
    for objective_id in destroyed_raw:
        if not isinstance(objective_id, str):
            raise BadInput("objective ids are text")
        if objective_id in destroyed:
            raise BadInput(f"objective {objective_id!r} is listed twice")
        destroyed.add(objective_id)
    return c.Scoring(control=MappingProxyType(control), destroyed=frozenset(destroyed))


def scoring_to_wire(scoring: c.Scoring) -> dict[str, Any]:
    return {
        "control": {k: v.name.lower() for k, v in sorted(scoring.control.items())},
        "destroyed": sorted(scoring.destroyed),
    }


def _pair(raw: Mapping[str, Any], key: str) -> tuple[int, int]:
    value = raw.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise BadInput(f"{key} must be two whole numbers, [P1, P2]")
    return (value[0], value[1])


def command_from_wire(raw: Mapping[str, Any]) -> c.Command:
    """Parse a command dict (the `c` field names it) or raise BadInput."""
    name = raw.get("c")
    if not isinstance(name, str):
        raise BadInput("a command needs 'c', its name")
    match name:
        case "start":
            return c.StartClock()
        case "pass_turn":
            turn_end = None
            if "kill_box" in raw or "scoring" in raw:
                kill_box = raw.get("kill_box")
                if kill_box is not None and not isinstance(kill_box, bool):
                    raise BadInput("kill_box must be true or false")
                scoring = raw.get("scoring")
                turn_end = c.TurnEnd(
                    kill_box=kill_box,
                    scoring=None if scoring is None else scoring_from_wire(scoring),
                )
            return c.PassTurn(expect=_side(raw.get("expect"), "expect"), turn_end=turn_end)
        case "switch":
            return c.SwitchClock(to=_side(raw.get("to"), "to"))
        case "propose_undo":
            return c.ProposeUndo()
        case "answer_undo":
            return c.AnswerUndo(accept=_bool(raw, "accept"))
        case "caster_destroyed":
            return c.CasterDestroyed(both=_bool(raw, "both", False))
        case "concede":
            return c.Concede()
        case "claim_scenario":
            return c.ClaimScenario(scoring=scoring_from_wire(raw.get("scoring")))
        case "answer_claim":
            return c.AnswerClaim(agree=_bool(raw, "agree"))
        case "accept_clock_loss":
            return c.AcceptClockLoss()
        case "final_scoring":
            return c.FinalScoring(scoring=scoring_from_wire(raw.get("scoring")))
        case "report":
            apd = _int(raw, "army_points_destroyed")
            assert apd is not None
            return c.ReportGame(
                army_points_destroyed=apd,
                scenario_presence=_int(raw, "scenario_presence", optional=True),
                list_played=_str(raw, "list_played"),
            )
        case "confirm":
            return c.ConfirmResult()
        case "dispute":
            return c.DisputeResult(reason=_str(raw, "reason"))
        case "call_tie":
            return c.CallTie()
        case "record_result":
            winner = raw.get("winner")
            return c.RecordResult(
                winner=None if winner is None else _side(winner, "winner"),
                control_points=_pair(raw, "control_points"),
                army_points_destroyed=_pair(raw, "army_points_destroyed"),
            )
        case "pause":
            return c.PauseClock()
        case "resume":
            return c.ResumeClock()
        case "adjust_clock":
            remaining = _int(raw, "remaining_ms")
            assert remaining is not None
            return c.AdjustClock(side=_side(raw.get("side"), "side"), remaining_ms=remaining)
        case "flag":
            return c.FlagCheck()
    raise BadInput(f"unknown command {name!r}")


_SIDE_NAMES = {Side.P1: "p1", Side.P2: "p2"}


def _side_name(side: Side) -> str:
    return _SIDE_NAMES[side]


def command_to_wire(command: c.Command) -> dict[str, Any]:
    match command:
        case c.StartClock():
            return {"c": "start"}
        case c.PassTurn(expect=expect, turn_end=turn_end):
            out: dict[str, Any] = {"c": "pass_turn", "expect": _side_name(expect)}
            if turn_end is not None:
                out["kill_box"] = turn_end.kill_box
                out["scoring"] = (
                    None if turn_end.scoring is None else scoring_to_wire(turn_end.scoring)
                )
            return out
        case c.SwitchClock(to=to):
            return {"c": "switch", "to": _side_name(to)}
        case c.ProposeUndo():
            return {"c": "propose_undo"}
        case c.AnswerUndo(accept=accept):
            return {"c": "answer_undo", "accept": accept}
        case c.CasterDestroyed(both=both):
            return {"c": "caster_destroyed", "both": both}
        case c.Concede():
            return {"c": "concede"}
        case c.ClaimScenario(scoring=scoring):
            return {"c": "claim_scenario", "scoring": scoring_to_wire(scoring)}
        case c.AnswerClaim(agree=agree):
            return {"c": "answer_claim", "agree": agree}
        case c.AcceptClockLoss():
            return {"c": "accept_clock_loss"}
        case c.FinalScoring(scoring=scoring):
            return {"c": "final_scoring", "scoring": scoring_to_wire(scoring)}
        case c.ReportGame():
            return {
                "c": "report",
                "army_points_destroyed": command.army_points_destroyed,
                "scenario_presence": command.scenario_presence,
                "list_played": command.list_played,
            }
        case c.ConfirmResult():
            return {"c": "confirm"}
        case c.DisputeResult(reason=reason):
            return {"c": "dispute", "reason": reason}
        case c.CallTie():
            return {"c": "call_tie"}
        case c.RecordResult(winner=winner):
            return {
                "c": "record_result",
                "winner": None if winner is None else _side_name(winner),
                "control_points": list(command.control_points),
                "army_points_destroyed": list(command.army_points_destroyed),
            }
        case c.PauseClock():
            return {"c": "pause"}
        case c.ResumeClock():
            return {"c": "resume"}
        case c.AdjustClock(side=side, remaining_ms=remaining):
            return {"c": "adjust_clock", "side": _side_name(side), "remaining_ms": remaining}
        case c.FlagCheck():
            return {"c": "flag"}
    raise BadInput(f"unknown command {type(command).__name__}")


def actor_to_wire(actor: c.Actor) -> str:
    return _side_name(actor) if isinstance(actor, Side) else actor.value


def actor_from_wire(value: str) -> c.Actor:
    if value in ("p1", "p2"):
        return Side.parse(value)
    return c.Role(value)
