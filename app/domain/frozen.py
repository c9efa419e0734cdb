"""`replace`: `dataclasses.replace`, at a fraction of its cost for the domain's records.

Every command makes a new `Game` (29 fields) from the last, several times over: a tap
makes three or four. `dataclasses.replace` walks the class's fields, reads each one by
name and calls the generated `__init__` with them all as keywords, which stores each
through `object.__setattr__` (the class is frozen): 7 us a `Game` here, two thirds of a
tap's rules. Here each class gets a function of its own, compiled once from its field
names, that copies the fields straight into a new instance: under 3 us.

Only where that is the same thing: a class whose `__init__` the dataclass made, that sets
all of its fields and has no `__post_init__` to run. Any other (`Setup`, whose lookups are
cached in fields of its own that a new setup must not keep) goes to `dataclasses.replace`,
as does any call naming a field the class lacks, which then raises its `TypeError`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")

_Copier = Callable[[Any, dict[str, Any]], Any]
#: Each class's copier and the names of its fields (None: dataclasses.replace copies it).
_copiers: dict[type, tuple[_Copier, frozenset[str]] | None] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance `obj` with `changes`, as `dataclasses.replace`."""
    cls = type(obj)
    try:
        known = _copiers[cls]
    except KeyError:
        known = _copiers[cls] = _compile(cls)
    if known is None or not changes.keys() <= known[1]:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new: T = known[0](obj, changes)
    return new


def _compile(cls: type) -> tuple[_Copier, frozenset[str]] | None:
    fields = dataclasses.fields(cls)
    made_init = cast(Any, cls).__dataclass_params__.init  # not an __init__ of its own
    if not made_init or hasattr(cls, "__post_init__") or not all(f.init for f in fields):
        return None
    names = [f.name for f in fields]
    lines = ["def copy(obj, changes):", "    new = new_of(cls)"]
    lines += [f"    put(new, {name!r}, obj.{name})" for name in names]
    lines += ["    for name, value in changes.items():", "        put(new, name, value)"]
    lines.append("    return new")
    scope: dict[str, Any] = {"cls": cls, "new_of": object.__new__, "put": object.__setattr__}
    exec("\n".join(lines), scope)  # the source is made here, of the class's field names
    copier: _Copier = scope["copy"]
    return copier, frozenset(names)
