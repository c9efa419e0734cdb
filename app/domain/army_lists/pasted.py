"""A player's entry cut into army lists, whatever was pasted:

- short lists, one a line or separated by ";" ("Haley 3; Stryker 1");
- one whole list (a header, then its models, one a line) is one list, even without a
  blank line in it;
- whole lists one after another, a blank line between them;
- War Room 2 and Conflict Chamber exports one after another: an export keeps its own
  blank lines; the next starts at its "War Room Army" line, its title and theme force
  lines, or its leader's line.
"""

from __future__ import annotations

import re

import app.domain.army_lists.lines as kinds
from app.domain.army_lists.grammar import tidy
from app.domain.army_lists.reading import read_list

#: No event asks for more lists than this: more short lines are one whole list.
SHORT_LISTS_MOST = 3

_BLANK = re.compile(r"^\s*$")


def _paragraphs(text: str) -> list[list[str]]:
    """The entry's runs of lines between blank lines, each after the blank lines before
    it (kept as "", so that a list's lines keep their numbers); "War Room Army" starts
    a run."""
    out: list[list[str]] = []
    blanks = 0
    current: list[str] = []
    for line in text.split("\n"):
        if _BLANK.match(line):
            blanks += 1
            current = []
        elif current and not kinds.starts_export(line):
            current.append(line)
        else:
            current = [""] * blanks + [line]
            out.append(current)
            blanks = 0
    return out


def _whole(para: list[str]) -> bool:
    """A run of lines that is one whole list, not short lists one a line."""
    if len(para) > SHORT_LISTS_MOST:
        return True
    return any(kinds.is_meta(line) or kinds.ends_export(line) for line in para) or any(
        kinds.is_model_line(line) for line in para[1:]
    )


class _Cutter:
    """Runs of lines gathered into lists: an export goes on over its blank lines."""

    def __init__(self) -> None:
        self.lists: list[list[str]] = []
        self.export_open = False
        self.has_leader = False
        self.has_models = False

    def take(self, para: list[str]) -> None:
        blanks = [x for x in para if not x]
        para = [x for x in para if x]
        if self.lists and self._continues(para):
            self.lists[-1] += [*blanks, *para]
        else:
            self.lists.append(list(para))
            self.has_leader = self.has_models = False
            self.export_open = any(kinds.starts_export(x) or kinds.is_meta(x) for x in para)
        leaders = any(kinds.leader_bonus(x) is not None for x in para)
        self.export_open = (self.export_open or leaders) and not any(
            kinds.closes_export(x) for x in para
        )
        self.has_leader = self.has_leader or leaders
        self.has_models = self.has_models or any(kinds.is_model_line(x) for x in para)

    def _continues(self, para: list[str]) -> bool:
        if any(kinds.starts_export(x) for x in para):
            return False
        if all(kinds.closes_export(x) for x in para):
            return True  # the export's date and build, after its "---"
        if not self.export_open:
            return False
        if kinds.ends_export(para[0]):
            return True  # "THEME: ..." and its tier text, "---"
        heads = any(kinds.is_meta(x) and kinds.theme_at_end(x) is None for x in para)
        leads = any(kinds.leader_bonus(x) is not None for x in para)
        return not ((heads and self.has_models) or (leads and self.has_leader))


def list_texts(text: str) -> list[str]:
    """Each list of a player's entry, whole (blank entries are not lists)."""
    paragraphs = _paragraphs(tidy(text))
    if len(paragraphs) == 1 and not _whole(paragraphs[0]):
        parts = "\n".join(paragraphs[0]).replace(";", "\n").split("\n")
        return [part.strip() for part in parts if part.strip()]
    cutter = _Cutter()
    for para in paragraphs:
        cutter.take(para)
    return ["\n".join(lines).strip() for lines in cutter.lists]


def split_lists(text: str) -> list[str]:
    """The army lists in a player's entry, by name: each list's header (an export's:
    its leader, theme force and points). A list that cannot be read keeps its first line."""
    names: list[str] = []
    for whole in list_texts(text):
        try:
            names.append(read_list(whole).text or whole.splitlines()[0].strip())
        except ValueError:
            names.append(whole.splitlines()[0].strip())
    return names
