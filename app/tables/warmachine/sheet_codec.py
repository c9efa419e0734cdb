"""A scoring sheet on the wire: which side controls or dominates which element, and which
objectives fell; and a side named on the wire ('p1' or 'p2')."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeGuard

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.tables.warmachine.fields import words

#: An element or objective the page names in a form the server cannot read.
UNKNOWN_ELEMENT = "the scoring names something the server cannot read — reload the page"


def _side(value: object) -> Side | None:
    if isinstance(value, bool):
        return None
    try:
        return Side.parse(value)
    except ValueError:
        return None


def side_from_wire(value: object, field: str) -> Side:
    side = _side(value)
    if side is None:
        raise BadInput(f"{words(field)} must be one of the two players")
    return side


def _mapping(value: object) -> TypeGuard[Mapping[Any, Any]]:
    """A JSON object (a dict, looked for first: a check against `Mapping` costs more)."""
    return type(value) is dict or isinstance(value, Mapping)


def _sides(raw: Mapping[str, Any], key: str, what: str) -> dict[str, Side]:
    value = raw.get(key, {})
    if not _mapping(value) or len(value) > 64:
        raise BadInput(f"the scoring must give each {what} to one of the two players")
    sides: dict[str, Side] = {}
    for element_id, side in value.items():
        if not isinstance(element_id, str):
            raise BadInput(UNKNOWN_ELEMENT)
        held = _side(side)
        if held is None:
            raise BadInput(f"the scoring must give each {what} to one of the two players")
        sides[element_id] = held
    return sides


def _ids(raw: Mapping[str, Any], key: str) -> frozenset[str]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > 8:
        raise BadInput("the scoring lists at most 8 objectives")
    ids: set[str] = set()
    for objective_id in value:
        if not isinstance(objective_id, str):
            raise BadInput(UNKNOWN_ELEMENT)
        if objective_id in ids:
            raise BadInput("an objective is counted as destroyed twice")
        ids.add(objective_id)
    return frozenset(ids)


def scoring_from_wire(raw: object) -> c.Scoring:
    if not _mapping(raw):
        raise BadInput("the scoring cannot be read — reload the page")
    control = _sides(raw, "control", "element")
    dominate = _sides(raw, "dominate", "element")
    both = sorted(set(control) & set(dominate))
    if both:
        raise BadInput(
            "an element is both dominated and controlled: a dominated one is not also controlled"
        )
    return c.Scoring(
        control=MappingProxyType(control),
        destroyed=_ids(raw, "destroyed"),
        dominate=MappingProxyType(dominate),
        removed=_ids(raw, "removed"),
    )


def scoring_to_wire(scoring: c.Scoring) -> dict[str, Any]:
    out: dict[str, Any] = {
        "control": {k: v.name.lower() for k, v in sorted(scoring.control.items())},
        "destroyed": sorted(scoring.destroyed),
    }
    if scoring.dominate:
        out["dominate"] = {k: v.name.lower() for k, v in sorted(scoring.dominate.items())}
    if scoring.removed:
        out["removed"] = sorted(scoring.removed)
    return out
