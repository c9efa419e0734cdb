"""`replace`: `dataclasses.replace`, at a fraction of its cost for the domain's records.

Every command makes a new `Game` (34 fields) from the last, a tap twice.
`dataclasses.replace` walks the class's fields, reads each one by name and calls the
generated `__init__` with them all as keywords, which stores each through
`object.__setattr__` (the class is frozen): 7 us a `Game` here. Here each class gets a
function of its own, compiled once from its field names, that copies the fields straight
into a new instance: 4.5 us through `object.__setattr__`; about 1 us for a class with
slots, whose copy is filled as an instance of a plain class with the same slots and then
made one of the class (`_twin`): frozen as any other.

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
    twin = _twin(cls)
    if twin is not None:  # filled as the twin, then made the class itself
        lines = ["def copy(obj, changes):", "    new = new_of(twin)"]
        lines += [f"    new.{name} = obj.{name}" for name in names]
        lines += ["    for name, value in changes.items():", "        put(new, name, value)"]
        lines += ["    new.__class__ = cls", "    return new"]
        put: Any = setattr
    else:
        lines = ["def copy(obj, changes):", "    new = new_of(cls)"]
        lines += [f"    put(new, {name!r}, obj.{name})" for name in names]
        lines += ["    for name, value in changes.items():", "        put(new, name, value)"]
        lines.append("    return new")
        put = object.__setattr__
    scope: dict[str, Any] = {"cls": cls, "twin": twin, "new_of": object.__new__, "put": put}
    exec("\n".join(lines), scope)  # the source is made here, of the class's field names
    copier: _Copier = scope["copy"]
    return copier, frozenset(names)


def _twin(cls: type) -> type | None:
    """A plain class with the same slots as `cls` (a frozen one, whose every field is
    stored through `object.__setattr__`, a call each), whose instance takes its fields as
    any object does and then becomes one of `cls`: a `Game` is copied in a fifth of the
    time. None: `cls` has no slots of its own on a plain object, or the switch is refused."""
    slots = cls.__dict__.get("__slots__")
    if slots is None or cls.__bases__ != (object,):
        return None
    twin = type(f"_{cls.__name__}Fields", (), {"__slots__": slots})
    blank: Any = object.__new__(twin)
    try:
        blank.__class__ = cls
    except TypeError:  # not the same layout after all
        return None
    return twin
