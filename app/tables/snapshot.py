"""A game written down whole, so a table comes back from a snapshot plus its log's tail.

The domain's records are frozen dataclasses of plain values, enums, tuples, frozensets
and mappings; they are written field by field and read back by their type hints.
Anything that does not read back as it was written is refused (ValueError), and the
table is then rebuilt from its whole log instead.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any

from app.domain.game import Game

FORMAT = 6  # bumped whenever the game's records change shape


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(encode(v) for v in value)
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | str):
        return value
    raise ValueError(f"cannot write {type(value).__name__} into a snapshot")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _union(kind: Any, raw: Any) -> Any:
    options = typing.get_args(kind)
    if raw is None and type(None) in options:
        return None
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return decode(option, raw)
        except (ValueError, TypeError, KeyError) as exc:
            errors.append(str(exc))
    raise ValueError(f"none of {kind} fits {raw!r}: {errors}")


def _tuple(kind: Any, raw: Any) -> Any:
    args = typing.get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(decode(args[0], v) for v in raw)
    if len(args) != len(raw):
        raise ValueError(f"{kind} needs {len(args)} values, not {len(raw)}")
    return tuple(decode(a, v) for a, v in zip(args, raw, strict=True))


def _frozenset(kind: Any, raw: Any) -> Any:
    (item,) = typing.get_args(kind)
    return frozenset(decode(item, v) for v in raw)


def _mapping(kind: Any, raw: Any) -> Any:
    key, value = typing.get_args(kind)
    return types.MappingProxyType({decode(key, k): decode(value, v) for k, v in raw.items()})


def _record(kind: type, raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ValueError(f"{kind.__name__} needs an object")
    hints = _hints(kind)
    fields = {f.name for f in dataclasses.fields(kind) if f.init}
    if set(raw) != fields:
        raise ValueError(f"{kind.__name__} has fields {sorted(fields)}, not {sorted(raw)}")
    return kind(**{name: decode(hints[name], value) for name, value in raw.items()})


def _plain(kind: Any, raw: Any) -> Any:
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(raw)
    if kind in (int, str) and type(raw) is kind:
        return raw
    if kind is bool and isinstance(raw, bool):
        return raw
    raise ValueError(f"{raw!r} is not a {kind}")


def decode(kind: Any, raw: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return _union(kind, raw)
    if origin is tuple:
        return _tuple(kind, raw)
    if origin is frozenset:
        return _frozenset(kind, raw)
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        return _mapping(kind, raw)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _record(kind, raw)
    return _plain(kind, raw)


def write(game: Game) -> dict[str, Any]:
    return {"format": FORMAT, "game": encode(game)}


def read(snapshot: dict[str, Any]) -> Game:
    if snapshot.get("format") != FORMAT:
        raise ValueError(f"snapshot format {snapshot.get('format')!r}, this server reads {FORMAT}")
    game = decode(Game, snapshot["game"])
    assert isinstance(game, Game)
    return game
