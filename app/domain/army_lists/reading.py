"""One army list read line by line (the forms are `app.domain.army_lists.grammar`'s):
its header or an export's title, theme force and point lines, the leader, the models
and units with what each is attached to, and the specialists."""

from __future__ import annotations

import app.domain.army_lists.lines as kinds
from app.domain.army_lists.grammar import (
    ArmyList,
    Entry,
    check_line,
    header,
    read_entry,
    read_leader,
    refuse,
)


def _is_export(rows: list[tuple[int, str]]) -> bool:
    """Written by a list builder: its meta lines, or a leader's line with its bonus."""
    return any(
        kinds.is_meta(text) or kinds.ends_export(text) or kinds.leader_bonus(text) is not None
        for _, text in rows
    )


class _Reader:
    def __init__(self, number: int, export: bool) -> None:
        self.number = number
        self.export = export
        self.leader: str | None = None
        self.header = ""
        self.title = ""
        self.theme = ""
        self.points: int | None = None
        self.models: list[Entry] = []
        self.specialists: list[Entry] = []
        self.has_specialists = False
        self.parent: str | None = None  # what a "-" line hangs from (None: the leader)
        self.done = False

    def line(self, number: int, text: str) -> None:
        if self.done or not text.strip() or kinds.starts_export(text):
            return
        check_line(self.number, number, text)
        if self._meta(number, text):
            return
        if kinds.SPECIALISTS.match(text):
            if self.has_specialists:
                raise refuse(self.number, number, text, "a list has one 'Specialists:' line")
            self.has_specialists, self.parent = True, None
            return
        if self.leader is None:
            self._lead(number, text)
            return
        self._model(number, text)

    def _meta(self, number: int, text: str) -> bool:
        end_theme = kinds.theme_at_end(text)
        if end_theme is not None or kinds.closes_export(text):
            self.theme = self.theme or (end_theme or "")
            self.done = True
            return True
        theme = kinds.theme_line(text)
        if theme is not None:
            if self.theme and theme.lower() != self.theme.lower():
                raise refuse(self.number, number, text, "a list is built with one theme force")
            self.theme = theme
            return True
        points = kinds.point_line(text)
        if points is not None and self.export and self.leader is None:
            self.points = points
            return True
        return False

    def _lead(self, number: int, text: str) -> None:
        if not self.export:
            self.header = text.strip()
            self.leader, self.theme, self.points = header(text)
        elif kinds.leader_bonus(text) is not None:
            self.leader = read_leader(text)
        elif not self.title:
            self.title = " ".join(text.split())
        else:
            raise refuse(
                self.number,
                number,
                text,
                "a model before the list's warcaster, warlock or infernal master: its "
                "line comes first, with its warjack or warbeast points ('Kommander "
                "Sorscha - WJ: +28')",
            )

    def _model(self, number: int, text: str) -> None:
        bullet = kinds.BULLET.match(text) is not None
        entry = read_entry(number, text, self.parent if bullet else None)
        (self.specialists if self.has_specialists else self.models).append(entry)
        if not bullet:
            self.parent = entry.name

    def army(self, first: tuple[int, str]) -> ArmyList:
        if self.leader is None:
            if self.export:
                raise refuse(
                    self.number,
                    *first,
                    "no line for the list's warcaster, warlock or infernal master (the "
                    "export's line with 'WJ: +' or 'WB: +' points)",
                )
            return ArmyList("", "", "", None)
        text = self.header or self._name()
        return ArmyList(
            text,
            self.leader,
            " ".join(self.theme.split()),
            self.points,
            tuple(self.models),
            tuple(self.specialists),
            self.has_specialists,
            self.title,
        )

    def _name(self) -> str:
        name = self.leader or ""
        if self.theme:
            name += f" / {' '.join(self.theme.split())}"
        return name if self.points is None else f"{name} ({self.points})"


def read_list(text: str, number: int = 1) -> ArmyList:
    """One list as written: its header (leader, theme force or "", point total or None),
    then its models and its specialists. A list that cannot be read is refused
    (`ListUnreadable`) with `number` and its line."""
    rows = list(enumerate(text.strip().splitlines(), 1))
    reader = _Reader(number, _is_export(rows))
    for line, row in rows:
        reader.line(line, row)
    return reader.army(rows[0] if rows else (1, ""))
