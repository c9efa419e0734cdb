"""A message a phone or the EO's page sends that the server cannot take is refused in
words a player understands: never a wire command ("unknown command 'tap'"), a field or
JSON key ("'seq' must be an int"), a type name, a bracketed wire shape ("[P1's, P2's]"),
an API path or a rule id. The error's machine-readable code stays as it was.

Two sweeps: every text the table's message readers can say (read from their source),
and the replies to malformed frames themselves."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from app.domain.errors import BadInput, RuleError
from app.tables import protocol
from app.tables.runewars import codec as rw_codec
from app.tables.runewars.table import eo_command as rw_eo_command
from app.tables.warmachine import codec as wm_codec
from app.tables.warmachine.eo_table import eo_command as wm_eo_command
from tests.unit.test_plain_words import app_texts

#: The modules that read what a phone or the EO's page sends a table.
READERS = (
    "app/tables/protocol.py",
    "app/tables/warmachine/codec.py",
    "app/tables/warmachine/fields.py",
    "app/tables/warmachine/sheet_codec.py",
    "app/tables/warmachine/eo_table.py",
    "app/tables/runewars/codec.py",
    "app/tables/runewars/table.py",
    "app/domain/runewars/absent.py",
)

#: Every command name either table knows on the wire.
WIRE_COMMANDS = frozenset(wm_codec._BY_NAME) | frozenset(rw_codec._BY_NAME)

NOT_PLAIN = (
    ("a snake_case name", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("a quoted key or value", re.compile(r"'[A-Za-z_0-9]+'")),
    ("a seat as P1/P2", re.compile(r"\bP[12]\b")),
    ("a type or JSON word", re.compile(r"\b(JSON|int|bool|str|dict|object|null|true or false)\b")),
    ("a wire shape", re.compile(r"\[")),
    ("an API path", re.compile(r"…/|/api/|\b(PUT|POST|GET)\b")),
    ("a rule id", re.compile(r"\b(DC|TS|RP|ST|W|RW)\d{1,2}\b")),
    ("a protocol word", re.compile(r"\b(seq|cmd|cmds|ping|sync|commands?)\b")),
)


def wire_words(text: str) -> list[str]:
    """What in `text` is a wire name or a developer's word (empty: plain)."""
    found = [what for what, pattern in NOT_PLAIN if pattern.search(text)]
    named = re.findall(r"\(([a-z_]+)\)|\bsend (\w+)", text)
    found += [f"the command {n}" for pair in named for n in pair if n in WIRE_COMMANDS]
    return found


def said_by_readers() -> list[tuple[str, str]]:
    return [
        (where, text)
        for where, text in app_texts()
        if where.split(":")[0] in READERS and " " in text.strip()
    ]


@pytest.mark.parametrize(
    "old",
    [
        "unknown command 'tap'",
        "unknown command 'tap' at a Runewars table",
        "a command needs 'c', its name",
        "a command needs 'seq', a whole number from 0",
        "'seq' must be an int",
        "kill_box must be true or false",
        "message must be a JSON object with a 't' field",
        "unknown message type 'x' (hello, cmd, offline, ping, sync, log)",
        "hits must be [P1's hits, P2's hits]",
        "first must be 'p1' or 'p2'",
        "the EO can pause, resume, adjust_clock, call_tie, start, dice_down here",
        "each player enters a score (enter_score), then confirms the result (confirm)",
        "the organiser enters a result with PUT …/tables/{table}/result",
        "time is called (call_time) and the players finish the current game round",
        "a Runewars table has no casters: when all of a side's units are destroyed, send "
        "army_destroyed",
        "use /api/events/{id}/tournament/players",
        "offline needs 'cmds', 1 to 200 queued commands",
        "a late pass breaks the rule (DC4)",
    ],
)
def test_the_sweep_catches_the_old_wire_words(old: str) -> None:
    assert wire_words(old), old


def test_the_sweep_reads_the_readers_texts() -> None:
    said = {text for _, text in said_by_readers()}
    assert "a Runewars table has no chess clock: one round timer runs for the whole round" in said
    assert wm_codec.UNKNOWN in said and rw_codec.UNKNOWN in said
    assert any("server cannot read" in text for text in said)
    assert {where.split(":")[0] for where, _ in said_by_readers()} == set(READERS)


def test_no_text_of_the_table_readers_names_the_wire() -> None:
    found = [
        f"{where}: {text!r} ({', '.join(words)})"
        for where, text in said_by_readers()
        if (words := wire_words(text))
    ]
    assert found == [], "\n".join(found)


def _parse(frame: str) -> None:
    protocol.parse(frame)


def _rw_parse(frame: str) -> None:
    protocol.parse(frame, rw_codec.command_from_wire)


def _wm(raw: Mapping[str, Any]) -> None:
    wm_codec.table_command_from_wire(raw)


#: (how it is read, the malformed message, the refusal's code).
FRAMES: list[tuple[Callable[[Any], None], Any, str]] = [
    (_parse, "{not json", "bad_input"),
    (_parse, "[1, 2]", "bad_input"),
    (_parse, '{"t": "tap"}', "bad_input"),
    (_parse, "{}", "bad_input"),
    (_parse, '{"t": "x"}' + " " * protocol.MAX_MESSAGE_BYTES, "too_large"),
    (_parse, '{"t": "hello"}', "bad_input"),
    (_parse, '{"t": "hello", "token": "a", "device": 5}', "bad_input"),
    (_parse, '{"t": "hello", "token": "a", "v": "last"}', "bad_input"),
    (_parse, '{"t": "cmd", "c": "start"}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1, "c": "tap"}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1, "c": "pass_turn", "expect": "p3"}', "bad_input"),
    (
        _parse,
        '{"t": "cmd", "seq": 1, "c": "pass_turn", "expect": "p1", "kill_box": 1}',
        "bad_input",
    ),
    (_parse, '{"t": "cmd", "seq": 1, "c": "answer_undo"}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1, "c": "dispute", "reason": 5}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1, "c": "choose_list", "list": ["a"]}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1, "c": "choose_specialists", "removed": 5}', "bad_input"),
    (_parse, '{"t": "cmd", "seq": 1, "c": "claim_scenario", "scoring": 5}', "bad_input"),
    (
        _parse,
        '{"t": "cmd", "seq": 1, "c": "final_scoring", "scoring": {"control": {"z": "p9"}}}',
        "bad_input",
    ),
    (
        _parse,
        '{"t": "cmd", "seq": 1, "c": "final_scoring", "scoring": {"destroyed": ["o", "o"]}}',
        "bad_input",
    ),
    (
        _parse,
        '{"t": "cmd", "seq": 1, "c": "final_scoring", '
        '"scoring": {"control": {"z": "p1"}, "dominate": {"z": "p1"}}}',
        "bad_input",
    ),
    (_parse, '{"t": "offline", "cmds": []}', "bad_input"),
    (_parse, '{"t": "offline", "base": 1, "cmds": []}', "bad_input"),
    (_parse, '{"t": "offline", "base": 1, "cmds": [5]}', "bad_input"),
    (_parse, '{"t": "offline", "base": 1, "cmds": [{"seq": 1, "c": "start"}]}', "bad_input"),
    (
        _parse,
        '{"t": "offline", "base": 1, '
        '"cmds": [{"seq": 1, "at_ms": 1, "c": "dispute_time_moved", "note": 1}]}',
        "bad_input",
    ),
    (_parse, '{"t": "ping", "id": "x"}', "bad_input"),
    (_parse, '{"t": "ping", "id": 1, "client_ms": "now"}', "bad_input"),
    (_parse, '{"t": "log", "after": -1}', "bad_input"),
    (_wm, {"c": "record_result", "method": "magic"}, "bad_input"),
    (_wm, {"c": "record_result", "control_points": [1]}, "bad_input"),
    (
        _wm,
        {
            "c": "record_result",
            "control_points": [1, 2],
            "army_points_destroyed": [1, 2],
            "lists": ["a"],
        },
        "bad_input",
    ),
    (_wm, {"c": "open_pregame", "choices": [[]]}, "bad_input"),
    (_wm, {"c": "open_pregame", "choices": [["a"] * 9, []]}, "bad_input"),
    (_wm, {"c": "open_pregame", "armies": 5}, "bad_input"),
    (_wm, {"c": "adjust_clock", "side": "p1", "remaining_ms": 1.5}, "bad_input"),
    (wm_eo_command, {"c": "concede"}, "not_found"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "tap"}', "bad_input"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "pass_turn"}', "unsupported"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "caster_destroyed"}', "unsupported"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "report"}', "unsupported"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "call_tie"}', "unsupported"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "dice_down"}', "unsupported"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "record_result"}', "unsupported"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "choose_first", "first": "p3"}', "bad_input"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "army_destroyed", "side": "x"}', "bad_input"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "enter_score", "destroyed": "ten"}', "bad_input"),
    (_rw_parse, '{"t": "cmd", "seq": 1, "c": "final_flurry", "hits": [1]}', "bad_input"),
    (rw_codec.judge_from_wire, {"entries": [[1, 2]]}, "bad_input"),
    (rw_codec.judge_from_wire, {"entries": [[1, 2], [3, "x"]]}, "bad_input"),
    (rw_codec.judge_from_wire, {"entries": [[1, 2], [3, 4]], "conceded": "p3"}, "bad_input"),
    (rw_eo_command, {"c": "concede"}, "unsupported"),
]


@pytest.mark.parametrize(("read", "frame", "code"), FRAMES)
def test_a_malformed_message_is_refused_in_plain_words(
    read: Callable[[Any], None], frame: Any, code: str
) -> None:
    with pytest.raises(RuleError) as refused:
        read(frame)
    message = refused.value.message
    assert refused.value.code == code, message
    assert wire_words(message) == [], message


def test_an_unknown_command_asks_for_a_reload_with_its_code_and_number() -> None:
    with pytest.raises(BadInput) as refused:
        protocol.parse('{"t": "cmd", "seq": 7, "c": "tap"}')
    assert refused.value.code == "bad_input" and refused.value.seq == 7
    assert refused.value.message == wm_codec.UNKNOWN
    assert "reload the page" in refused.value.message
