"""What a Runewars event or table does not have, said by its ruleset and asked on the
common paths: every Warmachine table command has a Runewars command of the same name
or the reason it has none (a kill box, control points, a chess clock), the organiser's
one-table commands are the round timer's (DC11), and the Warmachine formats refuse
nothing."""

from __future__ import annotations

import pytest

from app.domain.errors import BadInput, Unsupported
from app.domain.formats import FORMATS
from app.domain.games import refusal
from app.domain.runewars import commands as rc
from app.domain.runewars.ruleset import RW2017
from app.tables.engines import engine_for
from app.tables.runewars import codec as runewars_codec
from app.tables.warmachine import codec as wm_codec

COMMON_PATHS = ("players", "rounds", "swap", "results", "prizes", "lists")


def test_every_warmachine_command_is_runewars_own_or_refused_with_a_reason__TS11() -> None:
    wm_names = set(wm_codec._BY_NAME)
    rw_names = set(runewars_codec._BY_NAME)
    for name in sorted(wm_names - rw_names):
        with pytest.raises(Unsupported) as refused:
            runewars_codec.command_from_wire({"c": name})
        assert refused.value.message.startswith("a Runewars"), name
    assert set(RW2017.absent_commands) == wm_names - rw_names


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pass_turn", "kill box"),
        ("claim_scenario", "control points"),
        ("caster_destroyed", "no casters"),
        ("report", "tiebreak reports"),
        ("pause", "no chess clock"),
        ("call_tie", "Final Flurry"),
    ],
)
def test_a_runewars_table_says_why_it_has_no_such_command__TS3_TS6_TS7_DC11(
    name: str, words: str
) -> None:
    with pytest.raises(Unsupported, match=words):
        runewars_codec.command_from_wire({"c": name, "kill_box": True})
    with pytest.raises(BadInput, match="does not know what this page asked for"):
        runewars_codec.command_from_wire({"c": "no_such_thing"})


def test_the_organisers_one_table_commands_are_the_round_timers__DC11() -> None:
    engine = engine_for(RW2017.id)
    assert engine.eo_command({"c": "start_round"}) == rc.StartRound()
    assert engine.eo_command({"c": "call_time"}) == rc.CallTime()
    with pytest.raises(Unsupported, match="no chess clock"):
        engine.eo_command({"c": "adjust_clock", "side": "p1", "remaining_ms": 1})
    with pytest.raises(Unsupported, match="start a Runewars table's round timer or call time"):
        engine.eo_command({"c": "concede"})
    with pytest.raises(Unsupported, match="start a Runewars table's round timer or call time"):
        engine.eo_command({})


def test_a_runewars_event_refuses_the_common_paths_with_reasons_others_take__RP6_ST5() -> None:
    for path in COMMON_PATHS:
        reason = refusal(RW2017.id, path)
        assert reason is not None and reason.startswith("a Runewars")
        for fmt in FORMATS.values():
            assert refusal(fmt.id, path) is None
    assert refusal(RW2017.id, "no such path") is None
