"""Runewars table commands to and from their JSON form (the wire and the table log)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.domain.clock import Side
from app.domain.errors import BadInput, Unsupported
from app.domain.runewars import commands as rc
from app.domain.runewars.absent import ABSENT_COMMANDS

MAX_POINTS = 1000
#: A command the server does not know: the page that sent it is out of date.
UNKNOWN = "a Runewars table does not know what this page asked for — reload the page"

#: Each field in the words of the person who fills it in (never its wire name).
_WORDS = {
    "first": "The first player",
    "side": "The army destroyed",
    "conceded": "The player who conceded",
    "expect": "The game round",
    "minutes": "The minutes added",
    "destroyed": "Army value destroyed",
    "objectives": "Objective points",
    "hits": "Hits",
}


def _seat(value: object, field: str) -> Side:
    if value == "p1":
        return Side.P1
    if value == "p2":
        return Side.P2
    raise BadInput(f"{_WORDS[field]} must be one of the two players")


def _count(raw: Mapping[str, Any], field: str) -> int:
    value = raw.get(field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{_WORDS[field]} must be a whole number")
    if not 0 <= value <= MAX_POINTS:
        raise BadInput(f"{_WORDS[field]} must be between 0 and {MAX_POINTS}")
    return value


def _destroyed(raw: Mapping[str, Any]) -> rc.ArmyDestroyed:
    side = raw.get("side")
    if side == "both":
        return rc.ArmyDestroyed(None)
    if side not in ("p1", "p2"):
        raise BadInput("the army destroyed must be one player's or both")
    return rc.ArmyDestroyed(_seat(side, "side"))


def _hits(raw: Mapping[str, Any]) -> rc.FinalFlurry:
    hits = raw.get("hits")
    if not isinstance(hits, list) or len(hits) != 2:
        raise BadInput("the Final Flurry's hits must be given for each of the two players")
    return rc.FinalFlurry((_count({"hits": hits[0]}, "hits"), _count({"hits": hits[1]}, "hits")))


MOST_REASON = 300
ENTRIES = "the result needs each player's score: army value destroyed and objective points"


def _reason(raw: Mapping[str, Any]) -> str:
    reason = raw.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MOST_REASON:
        raise BadInput(f"the reason is text of {MOST_REASON} characters at most")
    return reason


def _entry(value: object) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise BadInput(ENTRIES)
    return (
        _count({"destroyed": value[0]}, "destroyed"),
        _count({"objectives": value[1]}, "objectives"),
    )


def judge_from_wire(raw: Mapping[str, Any]) -> rc.JudgeScores:
    """The organiser's result for a Runewars table: `entries` ([P1's, P2's], each [army
    value destroyed, objective points]), `flurry` (hits, on equal scores), `conceded`
    ('p1', 'p2' or null) and `reason`."""
    entries = raw.get("entries")
    if not isinstance(entries, list) or len(entries) != 2:
        raise BadInput(ENTRIES)
    flurry = raw.get("flurry")
    hits = None if flurry is None else _hits({"hits": flurry}).hits
    conceded = raw.get("conceded")
    return rc.JudgeScores(
        (_entry(entries[0]), _entry(entries[1])),
        hits,
        None if conceded is None else _seat(conceded, "conceded"),
        _reason(raw),
    )


def _judged(cmd: rc.JudgeScores) -> dict[str, Any]:
    return {
        "entries": [list(cmd.entries[0]), list(cmd.entries[1])],
        "flurry": None if cmd.flurry is None else list(cmd.flurry),
        "conceded": None if cmd.conceded is None else _side_name(cmd.conceded),
        "reason": cmd.reason,
    }


def _side_name(side: Side | None) -> str:
    return "both" if side is None else ("p1" if side is Side.P1 else "p2")


Reader = Callable[[Mapping[str, Any]], Any]
Writer = Callable[[Any], dict[str, Any]]

_KINDS: tuple[tuple[str, type, Reader, Writer], ...] = (
    (
        "choose_first",
        rc.ChooseFirstPlayer,
        lambda raw: rc.ChooseFirstPlayer(_seat(raw.get("first"), "first")),
        lambda cmd: {"first": _side_name(cmd.first)},
    ),
    (
        "choose_area",
        rc.ChooseArea,
        lambda raw: rc.ChooseArea(str(raw.get("area", ""))[:16]),
        lambda cmd: {"area": cmd.area},
    ),
    ("start_round", rc.StartRound, lambda _raw: rc.StartRound(), lambda _cmd: {}),
    (
        "end_game_round",
        rc.EndGameRound,
        lambda raw: rc.EndGameRound(_count(raw, "expect")),
        lambda cmd: {"expect": cmd.expect},
    ),
    ("call_time", rc.CallTime, lambda _raw: rc.CallTime(), lambda _cmd: {}),
    (
        "extend_time",
        rc.ExtendTime,
        lambda raw: rc.ExtendTime(_count(raw, "minutes"), _reason(raw)),
        lambda cmd: {"minutes": cmd.minutes, "reason": cmd.reason},
    ),
    ("army_destroyed", rc.ArmyDestroyed, _destroyed, lambda cmd: {"side": _side_name(cmd.side)}),
    ("concede", rc.Concede, lambda _raw: rc.Concede(), lambda _cmd: {}),
    (
        "enter_score",
        rc.EnterScore,
        lambda raw: rc.EnterScore(_count(raw, "destroyed"), _count(raw, "objectives")),
        lambda cmd: {"destroyed": cmd.destroyed, "objectives": cmd.objectives},
    ),
    ("final_flurry", rc.FinalFlurry, _hits, lambda cmd: {"hits": list(cmd.hits)}),
    (
        "flurry_hits",
        rc.FlurryHits,
        lambda raw: rc.FlurryHits(_count(raw, "hits")),
        lambda cmd: {"hits": cmd.hits},
    ),
    ("confirm", rc.ConfirmResult, lambda _raw: rc.ConfirmResult(), lambda _cmd: {}),
    (
        "dispute",
        rc.DisputeResult,
        lambda raw: rc.DisputeResult(_reason(raw)),
        lambda cmd: {"reason": cmd.reason},
    ),
    (
        "step_back",
        rc.StepBack,
        lambda raw: rc.StepBack(_count(raw, "expect")),
        lambda cmd: {"expect": cmd.expect},
    ),
    ("keep_round", rc.KeepRound, lambda _raw: rc.KeepRound(), lambda _cmd: {}),
    ("judge_scores", rc.JudgeScores, judge_from_wire, _judged),
)
_BY_NAME = {name: (kind, read) for name, kind, read, _ in _KINDS}
_BY_TYPE = {kind: (name, write) for name, kind, _, write in _KINDS}


def command_from_wire(raw: Mapping[str, Any]) -> Any:
    """Parse a Runewars command dict (the `c` field names it) or raise BadInput."""
    name = raw.get("c")
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        absent = ABSENT_COMMANDS.get(name) if isinstance(name, str) else None
        if absent is not None:  # another game's command: say why this table has none
            raise Unsupported(absent)
        raise BadInput(UNKNOWN)
    return found[1](raw)


def command_to_wire(command: Any) -> dict[str, Any]:
    found = _BY_TYPE.get(type(command))
    if found is None:
        raise BadInput(UNKNOWN)
    return {"c": found[0], **found[1](command)}
