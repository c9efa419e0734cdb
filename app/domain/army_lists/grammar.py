"""How a player's army lists are written (SR2019 and M&C "Army Lists", IG2014 "Army
Lists" and "Specialists").

A player's lists are free text, at most `LISTS_MOST` characters, cut into lists by
`app.domain.army_lists.pasted`. A list is read here, in any of these forms:

- The short form, one line: the leader, then optionally the theme force after " / "
  and the point total in brackets or after a colon ("Butcher 3 / Jaws of the Wolf (75)",
  "Kaelyssa: 73 pts").
- A whole list as players write it: that header line, then its models and units, one a
  line, each with its cost in brackets, square brackets or after a colon.
- The text export of War Room 2 or Conflict Chamber: a title, "Theme: ...", the point
  total ("75 / 75 Army"), the leader's line with its warjack or warbeast points
  ("Kommander Sorscha - WJ: +28", "[Sorscha 1] Kommander Sorscha [+28]"), then the
  models ("Juggernaut - PC: 19", "Winter Guard Infantry - Leader & 9 Grunts: 10").

In the model lines:

- a line starting with "-", "*" or "•" is attached to the line above it that does
  not: to the leader, that makes it a battlegroup member (as both builders write them);
- "(C)" or "FA C" on a line marks a character;
- "[jack]", "[beast]" or "[horror]" marks an independent warjack, warbeast or horror;
- "[tier]" marks a model or unit that meets the theme force's tier requirements;
- a line "Specialists:" starts the list's specialists, written the same way.

Only what is written is checked: a list without a point total is not refused for it.
A list that cannot be read is refused with its line (`ListUnreadable`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import app.domain.army_lists.lines as kinds
from app.domain.errors import BadInput

#: The most a player's lists may be, in characters.
LISTS_MOST = 4000
#: The most a model or unit line may be, in characters.
LINE_MOST = 200

#: The grammar, in the players' words (the forms' help).
HELP = (
    "One list per line, or separated by ';': leader / theme force (points), e.g. "
    "'Butcher 3 / Jaws of the Wolf (75)'. Or paste whole lists, as written or exported "
    "from War Room or Conflict Chamber, with a blank line between lists: the first "
    "line is the header, then one model or unit a line with its cost "
    "('Juggernaut (19)'); '-' starts a battlegroup member or an attachment, '(C)' "
    "marks a character, [jack], [beast] or [horror] an independent warjack, warbeast or "
    "horror, [tier] a model meeting the theme force's tier; a line 'Specialists:' "
    "starts the list's specialists."
)

_CHARACTER = re.compile(r"\(\s*C\s*\)|\bFA\s*:?\s*C\b", re.I)
_INDEPENDENT = re.compile(r"\[\s*(jack|beast|horror)\s*\]", re.I)
_TIER = re.compile(r"\[\s*tier\s*\]", re.I)
_ALIAS = re.compile(r"^\s*\[[^\]]*\]\s*")
_USED = re.compile(r"\(\s*battlegroup points used\s*:?\s*\d*\s*\)", re.I)
_KIND = re.compile(r"\s+-\s+(?:PC|WJ|WB)\s*$", re.I)
_SIZE = re.compile(r"\s+-\s+[^-]*\b(?:grunts?|leader|gunner|crew)\b[^-]*$", re.I)
_ASIDE = re.compile(r"\([^)]*\)")


class ListUnreadable(BadInput):
    """A list the grammar cannot read, with its number and line."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One model or unit line of a list."""

    line: int  # its line in the list (1: the list's first line)
    text: str  # as written
    name: str  # the card: the marks, aside and point cost taken off
    points: int | None
    battlegroup: bool
    character: bool
    independent: str  # "jack", "beast", "horror" or ""
    #: The card it is attached to (a "-" line under a model or unit; "" : none).
    attached_to: str = ""
    #: Marked [tier]: it meets the theme force's tier requirements.
    tier: bool = False


@dataclass(frozen=True, slots=True)
class ArmyList:
    text: str  # the header as written (an export's: leader / theme (points)): its name
    leader: str
    theme: str
    points: int | None
    models: tuple[Entry, ...] = ()
    specialists: tuple[Entry, ...] = ()
    #: A "Specialists:" line was written (even with nothing under it).
    has_specialists: bool = False
    #: An export's title line ("Khador - Jaws list"; "": none).
    title: str = ""


def key(name: str) -> str:
    """A name as compared: case and spacing do not count."""
    return " ".join(name.lower().split())


def tail_points(text: str) -> tuple[str, int | None]:
    found = kinds.POINTS.search(text)
    if found is None:
        return text.strip(), None
    value = found.group(1) or found.group(2) or found.group(3)
    return text[: found.start()].strip(), int(value)


def card_name(body: str) -> str:
    """The card a line names, its export's kind and unit size taken off."""
    body = _SIZE.sub("", _KIND.sub("", body.strip()))
    return " ".join(_ASIDE.sub(" ", body).split()) or " ".join(body.split())


def read_entry(line: int, text: str, attached_to: str | None = None) -> Entry:
    """One model or unit line; `attached_to` the card a "-" line hangs from (None: the
    leader, so the line is a battlegroup member)."""
    bullet = kinds.BULLET.match(text)
    body = text[bullet.end() :] if bullet else text
    kind = _INDEPENDENT.search(body)
    character = _CHARACTER.search(body) is not None
    tier = _TIER.search(body) is not None
    body = _TIER.sub(" ", _INDEPENDENT.sub(" ", _CHARACTER.sub(" ", body)))
    body, points = tail_points(_USED.sub(" ", _ALIAS.sub("", body)))
    return Entry(
        line=line,
        text=text.strip(),
        name=card_name(body),
        points=points,
        battlegroup=bullet is not None and attached_to is None,
        character=character,
        independent=kind.group(1).lower() if kind else "",
        attached_to=(attached_to or "") if bullet else "",
        tier=tier,
    )


def read_leader(text: str) -> str:
    """The leader an export's line names ("[Sorscha 1] Kommander Sorscha [+28]")."""
    found = kinds.BONUS.search(text)
    body = text[: found.start()] if found else text
    return card_name(_ALIAS.sub("", kinds.BULLET.sub("", body, count=1)))


def header(text: str) -> tuple[str, str, int | None]:
    """A header line's leader, theme force ("" : none) and point total (None: none)."""
    body, points = tail_points(text)
    leader, _, theme = body.partition(" / ")
    return " ".join(leader.split()), " ".join(theme.split()), points


def refuse(number: int, line: int, text: str, rule: str) -> ListUnreadable:
    return ListUnreadable(f"list {number}, line {line} '{text.strip()}': {rule}")


def check_line(number: int, line: int, text: str) -> None:
    """What every line must be: not too long, its brackets closed."""
    if len(text) > LINE_MOST:
        raise refuse(
            number,
            line,
            text[:40] + "…",
            f"a line is {LINE_MOST} characters at most (one "
            "model or unit a line, without its rules)",
        )
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        raise refuse(number, line, text, "a bracket is not closed (write a cost as '(19)')")


def tidy(text: str) -> str:
    """Text as stored: one kind of line break ("\n"), no surrounding blanks."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def check_length(text: str, whose: str = "lists") -> None:
    if len(text) > LISTS_MOST:
        raise BadInput(
            f"{whose} are {len(text)} characters: {LISTS_MOST} at most "
            "(write each model once, without its rules)"
        )
