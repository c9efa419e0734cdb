"""The EO's log as read. A row names its players by id: `player` (with the `name` it was
written with), or `names`, each player's id with the name its words were written with.
Read, every name written so says the player's name now, wherever the row has it (its
words, a reason, a table's detail). The row of a rename keeps both its names: that row
is about the name. Rows of players no longer in the event (deleted), and rows written
with names only, read as written."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from app.store.models import EoAction, PlayerEntry
from app.tables.room import TableRoom

#: The row that may be a rename: `was` is the name before, `name` the name after.
RENAME = "edit_player"

#: Fields that hold ids or codes, never words.
_IDS = frozenset({"player", "a", "b", "keep", "table", "prize", "scenario", "discarded"})


def table_names(room: TableRoom) -> dict[str, str]:
    """A table's players by id, with the names the table calls them (for a row about it)."""
    meta = room.meta
    if meta is None:
        return {}
    ids = (meta.p1_player, meta.p2_player)
    return {pid: name for pid, name in zip(ids, room.game.setup.names, strict=True) if pid}


def written(detail: Mapping[str, Any]) -> dict[str, str]:
    """The players a row names, by id, with the names it was written with."""
    names = {str(k): str(v) for k, v in (detail.get("names") or {}).items()}
    player, name = detail.get("player"), detail.get("name")
    if isinstance(player, str) and isinstance(name, str):
        names.setdefault(player, name)
    return names


def is_rename(action: str, detail: Mapping[str, Any]) -> bool:
    was = detail.get("was")
    return action == RENAME and isinstance(was, str) and was != detail.get("name")


def _renamed(value: Any, pattern: re.Pattern[str], now: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return pattern.sub(lambda m: now[m.group(0)], value)
    if isinstance(value, list):
        return [_renamed(v, pattern, now) for v in value]
    if isinstance(value, dict):
        return {k: v if k in _IDS else _renamed(v, pattern, now) for k, v in value.items()}
    return value


def log_row(action: EoAction, current: Mapping[str, str]) -> dict[str, Any]:
    """One row of the log, its players named as they are now (`current`: id to name).
    `names` gives the name of each player the row names: now, or as written."""
    detail: dict[str, Any] = json.loads(action.detail_json)
    names = written(detail)
    detail.pop("names", None)
    for key in ("player", "a", "b"):
        pid = detail.get(key)
        if isinstance(pid, str) and pid in current:
            names.setdefault(pid, current[pid])
    moved = {was: current[pid] for pid, was in names.items() if current.get(pid, was) != was}
    if moved and not is_rename(action.action, detail):
        alternatives = "|".join(re.escape(w) for w in sorted(moved, key=len, reverse=True))
        detail = _renamed(detail, re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), moved)
    return {
        "at_ms": action.at_ms,
        "action": action.action,
        **detail,
        "names": {pid: current.get(pid, was) for pid, was in names.items()},
    }


def log_rows(actions: Iterable[EoAction], players: Iterable[PlayerEntry]) -> list[dict[str, Any]]:
    """The EO's log, oldest first, every player named as they are now."""
    current = {p.id: p.name for p in players}
    return [log_row(a, current) for a in actions]
