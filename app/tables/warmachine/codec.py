"""WARMACHINE commands to and from their JSON form: the wire and the table log speak the
same (each field read as `fields` says)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.method import Method
from app.domain.time_moved_rules import DisputeTimeMoved, NoteCommand, SettleTimeMoved
from app.tables.warmachine.fields import read_bool, read_int, read_names, read_pair, read_str
from app.tables.warmachine.sheet_codec import scoring_from_wire, scoring_to_wire, side_from_wire

_SIDE_NAMES = {Side.P1: "p1", Side.P2: "p2"}
#: A command the server does not know: the page that sent it is out of date.
UNKNOWN = "the server does not know what this page asked for — reload the page"


def _side_name(side: Side) -> str:
    return _SIDE_NAMES[side]


def _read_turn_end(raw: Mapping[str, Any]) -> c.TurnEnd:
    """A turn end's answers (TS2, TS3): the kill box and the scoring, each if given."""
    kill_box = raw.get("kill_box")
    if kill_box is not None and not isinstance(kill_box, bool):
        raise BadInput("whether a kill box was made must be yes or no")
    scoring = raw.get("scoring")
    return c.TurnEnd(
        kill_box=kill_box, scoring=None if scoring is None else scoring_from_wire(scoring)
    )


def _read_pass_turn(raw: Mapping[str, Any]) -> c.Command:
    turn_end = _read_turn_end(raw) if "kill_box" in raw or "scoring" in raw else None
    return c.PassTurn(expect=side_from_wire(raw.get("expect"), "expect"), turn_end=turn_end)


def _write_pass_turn(command: c.PassTurn) -> dict[str, Any]:
    out: dict[str, Any] = {"expect": _side_name(command.expect)}
    turn_end = command.turn_end
    if turn_end is not None:
        out["kill_box"] = turn_end.kill_box
        out["scoring"] = None if turn_end.scoring is None else scoring_to_wire(turn_end.scoring)
    return out


def _read_final_scoring(raw: Mapping[str, Any]) -> c.Command:
    """TS6, DC10: the last scoring and, at dice down where it is asked, the kill box."""
    answers = _read_turn_end(raw)
    return c.FinalScoring(scoring=answers.scoring, kill_box=answers.kill_box)


def _write_final_scoring(command: c.FinalScoring) -> dict[str, Any]:
    scoring = command.scoring
    out: dict[str, Any] = {"scoring": None if scoring is None else scoring_to_wire(scoring)}
    if command.kill_box is not None:
        out["kill_box"] = command.kill_box
    return out


def _read_report(raw: Mapping[str, Any]) -> c.Command:
    apd = read_int(raw, "army_points_destroyed")
    assert apd is not None
    return c.ReportGame(
        army_points_destroyed=apd,
        scenario_presence=read_int(raw, "scenario_presence", optional=True),
        list_played=read_str(raw, "list_played"),
    )


def _read_record(raw: Mapping[str, Any]) -> c.Command:
    winner = raw.get("winner")
    method = read_str(raw, "method", Method.EO.value)
    if method not in Method.__members__.values():
        raise BadInput("how the game ended is not one the server knows: choose it again")
    lists = raw.get("lists")
    if lists is not None and (
        not isinstance(lists, list) or len(lists) != 2 or not all(isinstance(x, str) for x in lists)
    ):
        raise BadInput("the lists played must be two list names, one for each player")
    return c.RecordResult(
        winner=None if winner is None else side_from_wire(winner, "winner"),
        control_points=read_pair(raw, "control_points"),
        army_points_destroyed=read_pair(raw, "army_points_destroyed"),
        method=Method(method),
        lists=None if lists is None else _two_lists(lists),
        reason=read_str(raw, "reason"),
        round_closed=read_bool(raw, "round_closed", False),
    )


def _write_record(cmd: c.RecordResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "winner": None if cmd.winner is None else _side_name(cmd.winner),
        "control_points": list(cmd.control_points),
        "army_points_destroyed": list(cmd.army_points_destroyed),
    }
    if cmd.method is not Method.EO:
        out["method"] = cmd.method.value
    if cmd.lists is not None:
        out["lists"] = list(cmd.lists)
    if cmd.reason:
        out["reason"] = cmd.reason
    if cmd.round_closed:
        out["round_closed"] = True
    return out


def _two_lists(lists: list[Any]) -> tuple[str, str]:
    return (read_str({"name": lists[0]}, "name"), read_str({"name": lists[1]}, "name"))


def _read_adjust(raw: Mapping[str, Any]) -> c.Command:
    remaining = read_int(raw, "remaining_ms")
    assert remaining is not None
    return c.AdjustClock(side=side_from_wire(raw.get("side"), "side"), remaining_ms=remaining)


def _read_choices(raw: Mapping[str, Any]) -> c.Command:
    value = raw.get("choices", [[], []])
    if not isinstance(value, list) or len(value) != 2:
        raise BadInput("the lists to choose from must be given for each of the two players")
    seats: list[tuple[str, ...]] = []
    for names in value:
        if not isinstance(names, list) or len(names) > 8:
            raise BadInput("each player chooses from at most 8 lists")
        seats.append(tuple(read_str({"name": n}, "name") for n in names))
    armies = raw.get("armies", [[], []])
    if not isinstance(armies, list) or len(armies) != 2:
        raise BadInput("the army lists must be given for each of the two players")
    return c.OpenPregame(
        choices=(seats[0], seats[1]),
        steps=read_names(raw, "steps"),
        armies=(
            read_names({"armies": armies[0]}, "armies"),
            read_names({"armies": armies[1]}, "armies"),
        ),
        specialists=read_bool(raw, "specialists", False),
    )


def _write_open(cmd: c.OpenPregame) -> dict[str, Any]:
    out: dict[str, Any] = {"choices": [list(names) for names in cmd.choices]}
    if cmd.steps:
        out["steps"] = list(cmd.steps)
    if any(cmd.armies):
        out["armies"] = [list(texts) for texts in cmd.armies]
    if cmd.specialists:
        out["specialists"] = True
    return out


def _note(raw: Mapping[str, Any]) -> int:
    note = read_int(raw, "note")
    assert note is not None
    return note


def _nothing(_command: Any) -> dict[str, Any]:
    return {}


#: What a Warmachine table takes: the game's commands, and the notes of time an offline
#: merge moved (their dispute and settlement, `app.domain.time_moved`).
TableCommand = c.Command | NoteCommand


@dataclass(frozen=True, slots=True)
class _Kind:
    """One command on the wire: its name, how it is read and how it is written."""

    name: str
    type: type
    read: Callable[[Mapping[str, Any]], TableCommand]
    write: Callable[[Any], dict[str, Any]] = _nothing


def _plain(name: str, kind: type) -> _Kind:
    return _Kind(name, kind, lambda _raw: kind())


_KINDS = (
    _plain("start", c.StartClock),
    _Kind("pass_turn", c.PassTurn, _read_pass_turn, _write_pass_turn),
    _Kind(
        "switch",
        c.SwitchClock,
        lambda raw: c.SwitchClock(to=side_from_wire(raw.get("to"), "to")),
        lambda cmd: {"to": _side_name(cmd.to)},
    ),
    _plain("propose_undo", c.ProposeUndo),
    _plain("undo_seen", c.UndoSeen),
    _Kind(
        "answer_undo",
        c.AnswerUndo,
        lambda raw: c.AnswerUndo(accept=read_bool(raw, "accept")),
        lambda cmd: {"accept": cmd.accept},
    ),
    _Kind(
        "caster_destroyed",
        c.CasterDestroyed,
        lambda raw: c.CasterDestroyed(both=read_bool(raw, "both", False)),
        lambda cmd: {"both": cmd.both},
    ),
    _plain("concede", c.Concede),
    _Kind(
        "claim_scenario",
        c.ClaimScenario,
        lambda raw: c.ClaimScenario(scoring=scoring_from_wire(raw.get("scoring"))),
        lambda cmd: {"scoring": scoring_to_wire(cmd.scoring)},
    ),
    _Kind(
        "answer_claim",
        c.AnswerClaim,
        lambda raw: c.AnswerClaim(agree=read_bool(raw, "agree")),
        lambda cmd: {"agree": cmd.agree},
    ),
    _plain("accept_clock_loss", c.AcceptClockLoss),
    _Kind("final_scoring", c.FinalScoring, _read_final_scoring, _write_final_scoring),
    _Kind(
        "report",
        c.ReportGame,
        _read_report,
        lambda cmd: {
            "army_points_destroyed": cmd.army_points_destroyed,
            "scenario_presence": cmd.scenario_presence,
            "list_played": cmd.list_played,
        },
    ),
    _plain("confirm", c.ConfirmResult),
    _Kind(
        "dispute",
        c.DisputeResult,
        lambda raw: c.DisputeResult(reason=read_str(raw, "reason")),
        lambda cmd: {"reason": cmd.reason},
    ),
    _plain("call_tie", c.CallTie),
    _Kind(
        "record_result",
        c.RecordResult,
        _read_record,
        _write_record,
    ),
    _plain("pause", c.PauseClock),
    _plain("resume", c.ResumeClock),
    _Kind(
        "adjust_clock",
        c.AdjustClock,
        _read_adjust,
        lambda cmd: {"side": _side_name(cmd.side), "remaining_ms": cmd.remaining_ms},
    ),
    _Kind(
        "offer_lists",
        c.OfferLists,
        lambda raw: c.OfferLists(p1=read_names(raw, "p1"), p2=read_names(raw, "p2")),
        lambda cmd: {"p1": list(cmd.p1), "p2": list(cmd.p2)},
    ),
    _plain("report_pause", c.ReportPause),
    _Kind(
        "warn_for_pausing",
        c.WarnForPausing,
        lambda raw: c.WarnForPausing(side=side_from_wire(raw.get("side"), "side")),
        lambda cmd: {"side": _side_name(cmd.side)},
    ),
    _Kind(
        "scenario_roll",
        c.ScenarioRoll,
        lambda raw: c.ScenarioRoll(value=read_int(raw, "value") or 0),
        lambda cmd: {"value": cmd.value},
    ),
    _Kind(
        "open_pregame",
        c.OpenPregame,
        _read_choices,
        _write_open,
    ),
    _Kind(
        "choose_specialists",
        c.ChooseSpecialists,
        lambda raw: c.ChooseSpecialists(
            removed=read_names(raw, "removed"), added=read_names(raw, "added")
        ),
        lambda cmd: {"removed": list(cmd.removed), "added": list(cmd.added)},
    ),
    _Kind(
        "choose_list",
        c.ChooseList,
        lambda raw: c.ChooseList(name=read_str(raw, "list")),
        lambda cmd: {"list": cmd.name},
    ),
    _Kind(
        "choose_objective",
        c.ChooseObjective,
        lambda raw: c.ChooseObjective(name=read_str(raw, "objective")),
        lambda cmd: {"objective": cmd.name},
    ),
    # A phone asks for its roll; the server rolls the die (the log keeps its value).
    _Kind(
        "roll",
        c.StartingRoll,
        lambda raw: c.StartingRoll(
            value=read_int(raw, "value", optional=True) or 0,
            at_table=read_pair(raw, "at_table") if "at_table" in raw else None,
        ),
        lambda cmd: {"value": cmd.value} if cmd.at_table is None else {"at_table": [*cmd.at_table]},
    ),
    _Kind(
        "choose_order",
        c.ChooseOrder,
        lambda raw: c.ChooseOrder(first=read_bool(raw, "first")),
        lambda cmd: {"first": cmd.first},
    ),
    _Kind(
        "choose_edge",
        c.ChooseEdge,
        lambda raw: c.ChooseEdge(swap=read_bool(raw, "swap")),
        lambda cmd: {"swap": cmd.swap},
    ),
    _plain("flag", c.FlagCheck),
    _plain("start_timer", c.StartTurnTimer),
    _plain("stop_timer", c.StopTurnTimer),
    _plain("take_extension", c.TakeExtension),
    _plain("start_extension", c.StartExtension),
    _plain("dice_down", c.DiceDown),
    _plain("no_models_left", c.NoModelsLeft),
    # Time an offline merge moved onto a player who stayed online (`app.domain.time_moved`).
    _Kind(
        "dispute_time_moved",
        DisputeTimeMoved,
        lambda raw: DisputeTimeMoved(note=_note(raw)),
        lambda cmd: {"note": cmd.note},
    ),
    _Kind(
        "settle_time_moved",
        SettleTimeMoved,
        lambda raw: SettleTimeMoved(note=_note(raw), give_back=read_bool(raw, "give_back")),
        lambda cmd: {"note": cmd.note, "give_back": cmd.give_back},
    ),
)

#: What a command must not show the other screens (a secret choice): its fields.
SECRET = {
    "choose_list": ("list",),
    "choose_specialists": ("removed", "added"),
    "choose_objective": ("objective",),
    "open_pregame": ("choices", "armies"),  # the lists go to the game view, not the log
}
_BY_NAME = {kind.name: kind for kind in _KINDS}
_BY_TYPE = {kind.type: kind for kind in _KINDS}


def table_command_from_wire(raw: Mapping[str, Any]) -> TableCommand:
    """Parse a command dict (the `c` field names it) or raise BadInput."""
    name = raw.get("c")
    kind = _BY_NAME.get(name) if isinstance(name, str) else None
    if kind is None:
        raise BadInput(UNKNOWN)
    return kind.read(raw)


def command_from_wire(raw: Mapping[str, Any]) -> c.Command:
    """A command of the game itself: what an offline queue and a merge carry (a note of
    time moved is sent online, over the table's socket)."""
    command = table_command_from_wire(raw)
    if isinstance(command, DisputeTimeMoved | SettleTimeMoved):
        raise BadInput(
            "time moved onto a player is disputed and settled online only: "
            "answer it again once the phone is connected"
        )
    return command


def command_to_wire(command: TableCommand) -> dict[str, Any]:
    kind = _BY_TYPE.get(type(command))
    if kind is None:
        raise BadInput(UNKNOWN)
    return {"c": kind.name, **kind.write(command)}
