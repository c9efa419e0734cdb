"""How a player's army lists are written (SR2019 and M&C "Army Lists").

A player's lists are free text, at most `LISTS_MOST` characters:

- One list per line, or lists separated by ";": "Butcher 3 / Jaws of the Wolf (75)".
- When the text holds a blank line, the lists are separated by blank lines instead, and
  each list may go on for several lines.

The first line of a list is its header: the leader, then optionally the theme force
after " / " and the point total in brackets or after a colon ("Kaelyssa: 73 pts"). The
lines after it are the list's models and units, one a line:

- a line starting with "-", "*" or "•" is a battlegroup member (as Conflict Chamber
  writes them);
- "(C)" or "FA C" on a line marks a character;
- "[jack]", "[beast]" or "[horror]" marks an independent warjack, warbeast or horror;
- a point cost ends the line, in brackets or after a colon, as in the header.

A line "Specialists:" starts the list's specialists: the lines after it are its
specialist models and units, written the same way.

Only what is written is checked: a list without a point total is not refused for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.domain.errors import BadInput

#: The most a player's lists may be, in characters.
LISTS_MOST = 4000

#: The grammar, in the players' words (the forms' help).
HELP = (
    "One list per line, or separated by ';': leader / theme force (points), e.g. "
    "'Butcher 3 / Jaws of the Wolf (75)'. For whole lists, leave a blank line between "
    "lists: the first line is the header, then one model or unit a line with its cost "
    "('Juggernaut (19)'); '-' starts a battlegroup member, '(C)' marks a character, "
    "[jack], [beast] or [horror] an independent warjack, warbeast or horror; a line "
    "'Specialists:' starts the list's specialists."
)

_POINTS = re.compile(
    r"(?:\((\d{1,4})\s*(?:pts?|points)?\)|:\s*(\d{1,4})\s*(?:pts?|points)?)\s*$", re.I
)
_BULLET = re.compile(r"^\s*[-*•]\s*")
_CHARACTER = re.compile(r"\(\s*C\s*\)|\bFA\s*:?\s*C\b", re.I)
_INDEPENDENT = re.compile(r"\[\s*(jack|beast|horror)\s*\]", re.I)
_ASIDE = re.compile(r"\([^)]*\)")
_SPECIALISTS = re.compile(r"^\s*specialists?\s*(?::.*|\(.*)?$", re.I)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True, slots=True)
class Entry:
    """One model or unit line of a list."""

    line: int  # its line in the list (1: the header)
    text: str  # as written
    name: str  # the card: the marks, aside and point cost taken off
    points: int | None
    battlegroup: bool
    character: bool
    independent: str  # "jack", "beast", "horror" or ""


@dataclass(frozen=True, slots=True)
class ArmyList:
    text: str  # the header, as written: the list's name
    leader: str
    theme: str
    points: int | None
    models: tuple[Entry, ...] = ()
    specialists: tuple[Entry, ...] = ()
    #: A "Specialists:" line was written (even with nothing under it).
    has_specialists: bool = False


def key(name: str) -> str:
    """A name as compared: case and spacing do not count."""
    return " ".join(name.lower().split())


def _tail_points(text: str) -> tuple[str, int | None]:
    found = _POINTS.search(text)
    if found is None:
        return text.strip(), None
    return text[: found.start()].strip(), int(found.group(1) or found.group(2))


def read_entry(line: int, text: str) -> Entry:
    """One model or unit line."""
    bullet = _BULLET.match(text)
    body = text[bullet.end() :] if bullet else text
    kind = _INDEPENDENT.search(body)
    character = _CHARACTER.search(body) is not None
    body = _INDEPENDENT.sub(" ", _CHARACTER.sub(" ", body))
    body, points = _tail_points(body)
    name = " ".join(_ASIDE.sub(" ", body).split()) or " ".join(body.split())
    return Entry(
        line=line,
        text=text.strip(),
        name=name,
        points=points,
        battlegroup=bullet is not None,
        character=character,
        independent=kind.group(1).lower() if kind else "",
    )


def read_list(text: str) -> ArmyList:
    """One list as written: its header (leader, theme force or "", point total or None),
    then its models and its specialists."""
    lines = [(n, line) for n, line in enumerate(text.strip().splitlines(), 1) if line.strip()]
    if not lines:
        return ArmyList("", "", "", None)
    header = lines[0][1].strip()
    body, points = _tail_points(header)
    leader, _, theme = body.partition(" / ")
    models: list[Entry] = []
    specialists: list[Entry] = []
    has_specialists = False
    for number, line in lines[1:]:
        if _SPECIALISTS.match(line):
            has_specialists = True
            continue
        (specialists if has_specialists else models).append(read_entry(number, line))
    return ArmyList(
        header,
        " ".join(leader.split()),
        " ".join(theme.split()),
        points,
        tuple(models),
        tuple(specialists),
        has_specialists,
    )


def list_texts(text: str) -> list[str]:
    """Each list of a player's entry, whole (blank entries are not lists)."""
    text = tidy(text)
    if _BLANK_LINE.search(text):
        return [part.strip() for part in _BLANK_LINE.split(text) if part.strip()]
    return [part.strip() for part in text.replace(";", "\n").split("\n") if part.strip()]


def split_lists(text: str) -> list[str]:
    """The army lists in a player's entry, by name: each list's header."""
    return [whole.splitlines()[0].strip() for whole in list_texts(text)]


def tidy(text: str) -> str:
    """Text as stored: one kind of line break ("\n"), no surrounding blanks."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def check_length(text: str, whose: str = "lists") -> None:
    if len(text) > LISTS_MOST:
        raise BadInput(
            f"{whose} are {len(text)} characters: {LISTS_MOST} at most "
            "(write each model once, without its rules)"
        )
