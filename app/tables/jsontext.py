"""JSON text for the sockets and the log, through orjson (compact, UTF-8, strict).

Every message a socket carries is encoded here: orjson is about ten times faster than
the standard library's encoder on a game view, which a tap sends to every screen.
Parsing takes orjson's fast path and leaves what it refuses (integers wider than 64
bits, lone surrogate escapes) to the standard parser, so a message means what it
meant before and the checks after parsing name what is wrong with it; NaN and
Infinity are refused by both.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> str:
    """Compact JSON text (no spaces). What orjson cannot encode (an integer wider than
    64 bits, a lone surrogate) goes through the standard encoder, escaped to ASCII."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str) -> Any:
    """Parse JSON text; raises ValueError on anything that is not JSON."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        try:
            return json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            raise ValueError("nested too deeply") from None
