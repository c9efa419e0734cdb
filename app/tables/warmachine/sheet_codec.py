"""A scoring sheet on the wire: which side controls or dominates which element, and which
objectives fell; and a side named on the wire ('p1' or 'p2')."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput


def side_from_wire(value: object, field: str) -> Side:
    if isinstance(value, bool):
        raise BadInput(f"{field} must be 'p1' or 'p2'")
    try:
        return Side.parse(value)
    except ValueError:
        raise BadInput(f"{field} must be 'p1' or 'p2'") from None


def _sides(raw: Mapping[str, Any], key: str, what: str) -> dict[str, Side]:
    value = raw.get(key, {})
    if not isinstance(value, Mapping) or len(value) > 64:
        raise BadInput(f"scoring.{key} must map {what} ids to 'p1' or 'p2'")
    sides: dict[str, Side] = {}
    for element_id, side in value.items():
        if not isinstance(element_id, str):
            raise BadInput("element ids are text")
        sides[element_id] = side_from_wire(side, f"scoring.{key}[{element_id!r}]")
    return sides


def _ids(raw: Mapping[str, Any], key: str) -> frozenset[str]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > 8:
        raise BadInput(f"scoring.{key} must be a list of objective ids")
    ids: set[str] = set()
    for objective_id in value:
        if not isinstance(objective_id, str):
            raise BadInput("objective ids are text")
        if objective_id in ids:
            raise BadInput(f"objective {objective_id!r} is listed twice")
        ids.add(objective_id)
    return frozenset(ids)


def scoring_from_wire(raw: object) -> c.Scoring:
    if not isinstance(raw, Mapping):
        raise BadInput("scoring must be an object with 'control' and 'destroyed'")
    control = _sides(raw, "control", "element")
    dominate = _sides(raw, "dominate", "element")
    both = sorted(set(control) & set(dominate))
    if both:
        raise BadInput(f"{both[0]!r} is dominated, so it is not also controlled")
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
