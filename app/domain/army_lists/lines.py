"""The kinds of line a pasted army list holds, in every form the grammar reads: the
short form and whole lists as players write them, and the text exports of the list
builders (War Room 2: "War Room Army" ... "THEME: ..." "---" "GENERATED : ...";
Conflict Chamber: a faction line, "Theme: ...", "75 / 75 Army", then "[Sorscha 1]
Kommander Sorscha [+28]" and "- Beast-09 [19]")."""

from __future__ import annotations

import re

#: A War Room export starts with this line.
_EXPORT_START = re.compile(r"^\s*war\s*room\s*army\s*$", re.I)
#: The end of an export: its "---" line, its date and build.
_CLOSING = re.compile(r"^\s*(?:-{3,}|generated\s*:.*|build\s*id\s*:.*)\s*$", re.I)
#: War Room repeats the theme force at the end, in capitals, then its tier text.
_THEME_AT_END = re.compile(r"^\s*THEME\s*:\s*(.*?)\s*$")
_THEME = re.compile(r"^\s*(?:theme(?:\s*force)?)\s*:\s*(.*?)\s*$", re.I)
#: "75 / 75 Army", "56 / 56 (50+6)    Warcaster(s) : 1/1 ...", "Points: 75".
_POINT_LINE = re.compile(r"^\s*(\d{1,4})\s*/\s*\d{1,4}\b.*$|^\s*points\s*:\s*(\d{1,4})\s*$", re.I)
#: A leader's warjack, warbeast or horror points: "- WJ: +28", "WB: +27", "[+28]", ": +29".
BONUS = re.compile(
    r"(?:\s+-)?\s*(?:\b(?:WJ|WB)\b\s*)?(?::\s*\+|\[\s*\+|\(\s*\+)\s*(\d{1,3})\s*"
    r"(?:pts?|points)?\s*[\])]?\s*$",
    re.I,
)
#: A model's or unit's cost ending its line: "(19)", ": 19 pts", "[19]", "- PC: 13".
POINTS = re.compile(
    r"(?:\((\d{1,4})\s*(?:pts?|points)?\)|\[(\d{1,4})\s*(?:pts?|points)?\]"
    r"|:\s*(\d{1,4})\s*(?:pts?|points)?)\s*$",
    re.I,
)
BULLET = re.compile(r"^\s*[-*•]\s*")
SPECIALISTS = re.compile(r"^\s*specialists?\s*(?::.*|\(.*)?$", re.I)
_EXPORT_COST = re.compile(r"\b(?:PC|WJ|WB)\s*:|\[\+?\d{1,4}\]|Battlegroup Points Used", re.I)


def starts_export(line: str) -> bool:
    return _EXPORT_START.match(line) is not None


def closes_export(line: str) -> bool:
    """What a War Room export ends with: "---", "GENERATED : ..." or "BUILD ID : ..."."""
    return _CLOSING.match(line) is not None


def theme_at_end(line: str) -> str | None:
    found = _THEME_AT_END.match(line)
    return None if found is None else found.group(1)


def theme_line(line: str) -> str | None:
    """The theme force a "Theme: ..." line names (None: not such a line)."""
    found = _THEME.match(line)
    return None if found is None else found.group(1)


def point_line(line: str) -> int | None:
    """The army's point total on an export's "75 / 75 Army" or "Points: 75" line."""
    found = _POINT_LINE.match(line)
    if found is None:
        return None
    return int(found.group(1) or found.group(2))


def is_meta(line: str) -> bool:
    """A line about the whole list, not a model: the export's start, its theme force
    or its point total."""
    return starts_export(line) or theme_line(line) is not None or point_line(line) is not None


def leader_bonus(line: str) -> int | None:
    """The warjack, warbeast or horror points on a leader's line (None: not a leader's)."""
    found = BONUS.search(line)
    return None if found is None else int(found.group(1))


def is_model_line(line: str) -> bool:
    """A line that can only be a model or unit of a whole list (not a one-line list):
    a battlegroup or attachment line, an export's cost, a leader's bonus."""
    return bool(
        BULLET.match(line)
        or SPECIALISTS.match(line)
        or _EXPORT_COST.search(line)
        or leader_bonus(line) is not None
    )


def ends_export(line: str) -> bool:
    """A line after which nothing more of the list is read."""
    return closes_export(line) or theme_at_end(line) is not None
