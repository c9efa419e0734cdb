"""Scoring a sheet, the parts more than one ruleset shares: reading the elements a
sheet names and the objectives that fell."""

from __future__ import annotations

from collections.abc import Iterable

from app.domain import commands as c
from app.domain.clock import BySide, Side, put
from app.domain.errors import BadInput, RuleError
from app.domain.scenarios import Element, ElementKind, G, Scenario


def held(
    scenario: Scenario[G], element_id: str, names: tuple[str, str], removed: Iterable[str] = ()
) -> Element:
    """A zone or flag of the scenario still on the table; `names`: the players', side by
    side, to name an element in a refusal."""
    element = scenario.element(element_id)
    if element is None or element.kind is ElementKind.OBJECTIVE:
        raise BadInput(f"{scenario.name} has no zone or flag {element_id!r}")
    if element_id in removed:
        raise BadInput(f"{element.named(names)} was removed from the table: it is not scored")
    return element


def objectives_fallen(
    scenario: Scenario[G],
    scoring: c.Scoring,
    already: frozenset[str],
    names: tuple[str, str],
    removed_scores: bool = False,
) -> tuple[BySide[int], frozenset[str]]:
    """Each enemy objective the opponent destroyed scores its CP once for that opponent;
    one removed otherwise is gone without scoring, unless `removed_scores` (SR2019, M&C:
    "Enemy Objective: Destroyed/Removed from Play = 1 CP"; IG2014: "Only the player who
    made the attack ... that destroys an objective ... earns the corresponding control
    points"). Returns (CP gained, now destroyed)."""
    gained: BySide[int] = (0, 0)
    destroyed = set(already)
    both = scoring.destroyed & scoring.removed
    if both:
        raise BadInput(f"objective {sorted(both)[0]!r} is listed as destroyed twice")
    for objective_id in sorted(scoring.destroyed | scoring.removed):
        element = scenario.element(objective_id)
        if element is None or element.kind is not ElementKind.OBJECTIVE:
            raise BadInput(f"{scenario.name} has no objective {objective_id!r}")
        if objective_id in destroyed:
            raise RuleError(f"{element.named(names)} was already scored (once per objective)")
        destroyed.add(objective_id)
        if removed_scores or objective_id in scoring.destroyed:
            owner = element.owner if element.owner is not None else Side.P1
            gained = put(gained, owner.other, gained[owner.other] + element.control_cp)
    return gained, frozenset(destroyed)


def added(cp: tuple[int, int], gained: BySide[int]) -> tuple[int, int]:
    return (cp[0] + gained[0], cp[1] + gained[1])
