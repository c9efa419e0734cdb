"""The sockets' JSON text: orjson's output, the standard library's meaning."""

from __future__ import annotations

import contextlib
import json

import pytest

from app.tables.jsontext import dumps, loads


def test_dumps_is_compact_json_that_reads_back() -> None:
    value = {"t": "event", "v": 3, "names": ["Zoë", "Ana"], "cp": (1, 2), "none": None}
    text = dumps(value)
    assert " " not in text.replace("Zoë", "")
    assert json.loads(text) == {**value, "cp": [1, 2]}


def test_dumps_falls_back_for_what_orjson_refuses() -> None:
    wide = 2**70
    assert json.loads(dumps({"id": wide})) == {"id": wide}
    text = dumps({"s": "a\ud800b"})
    assert "\\ud800" in text  # escaped, so the text can be sent as UTF-8
    text.encode()


def test_loads_means_what_the_standard_parser_means() -> None:
    assert loads('{"seq": 18446744073709551616}') == {"seq": 2**64}
    assert loads('{"s": "\\ud800"}') == {"s": "\ud800"}
    assert loads('{"a": [1, 2.5, true, null]}') == {"a": [1, 2.5, True, None]}


@pytest.mark.parametrize("text", ["NaN", '{"x": Infinity}', '{"x": -Infinity}', "{", '"\\x"'])
def test_loads_refuses_what_is_not_json(text: str) -> None:
    with pytest.raises(ValueError):
        loads(text)


def test_deep_nesting_parses_or_is_refused_with_a_value_error() -> None:
    """Never a RecursionError: the socket answers an error and carries on."""
    deep = "[" * 100_000 + "]" * 100_000
    with contextlib.suppress(ValueError):  # refused as too deep, as the phone is then told
        assert isinstance(loads(deep), list)
    with pytest.raises(ValueError):  # not JSON, however deep
        loads("[" * 100_000 + "NaN" + "]" * 100_000)
