"""A specialist substitution (SR2019 "Specialists", IG2014 "Specialists"): after list
selection, the cards a player removes from the chosen list and the specialists of that
list they add, checked legal: "Specialist substitutions cannot result in an illegal
army list."

Checked as far as the lists carry it: removals are whole cards of the main list (not
its leader; with what is attached to them), additions are cards of that list's
specialists; the list's point total stays within the event's window; a character
(FA C) is not in the list twice; a model marked [tier] is replaced only by a specialist
marked [tier]; (IG2014) a free model a theme force grants (cost 0) stays; (Battlegroup
Only) every addition is a battlegroup model or an independent warjack, warbeast or
horror."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.domain.army_lists.grammar import ArmyList, Entry, key
from app.domain.errors import BadInput


@dataclass(frozen=True, slots=True)
class Substitution:
    """A legal substitution: what left the list, what joined it, and the list as played."""

    removed: tuple[Entry, ...]
    added: tuple[Entry, ...]
    army: ArmyList


def _take(pool: list[Entry], name: str) -> Entry | None:
    for index, entry in enumerate(pool):
        if key(entry.name) == key(name) or key(entry.text) == key(name):
            return pool.pop(index)
    return None


def _refuse(army: ArmyList, rule: str) -> BadInput:
    return BadInput(f"specialists for {army.text}: {rule}")


def _removed(army: ArmyList, names: Sequence[str], free_models_stay: bool) -> list[Entry]:
    pool = list(army.models)
    out: list[Entry] = []
    for name in names:
        if key(name) == key(army.leader):
            raise _refuse(army, f"{army.leader} leads the list: the leader is not substituted")
        entry = _take(pool, name)
        if entry is None:
            raise _refuse(army, f"{name} is not a card of this list: removals are its cards")
        if entry.points is None:
            raise _refuse(
                army, f"line {entry.line} '{entry.text}': no point cost, so it cannot be removed"
            )
        if free_models_stay and entry.points == 0:
            raise _refuse(
                army,
                f"line {entry.line} '{entry.text}': a free model a theme force grants is not "
                "substituted (IG2014 Specialists)",
            )
        out.append(entry)
    gone = {key(e.name) for e in out}
    for entry in pool:
        if entry.attached_to and key(entry.attached_to) in gone:
            raise _refuse(
                army,
                f"line {entry.line} '{entry.text}' is attached to {entry.attached_to}: "
                "remove it too (removals are whole cards)",
            )
    return out


def _added(army: ArmyList, names: Sequence[str], battlegroup_only: bool) -> list[Entry]:
    pool = list(army.specialists)
    out: list[Entry] = []
    for name in names:
        entry = _take(pool, name)
        if entry is None:
            raise _refuse(army, f"{name} is not one of this list's specialists")
        if battlegroup_only and not entry.battlegroup and not entry.independent:
            raise _refuse(
                army,
                f"{entry.name}: Battlegroup Only — only battlegroup models and independent "
                "warjacks, warbeasts or horrors",
            )
        out.append(entry)
    return out


def _check_cards(army: ArmyList, kept: Sequence[Entry], added: Sequence[Entry]) -> None:
    seen = {key(e.name) for e in kept if e.character}
    for entry in added:
        if entry.character and key(entry.name) in seen:
            raise _refuse(army, f"{entry.name} (FA C) would be in the list twice (field allowance)")
        seen.add(key(entry.name))


def _check_tier(army: ArmyList, removed: Sequence[Entry], added: Sequence[Entry]) -> None:
    lost = sum(1 for e in removed if e.tier)
    if lost > sum(1 for e in added if e.tier):
        raise _refuse(
            army,
            "a model meeting the theme force's tier requirements (marked [tier]) is "
            "replaced only by a specialist that meets them too (marked [tier]): the tier "
            "cannot be lowered",
        )


def check_substitution(
    army: ArmyList,
    removals: Sequence[str],
    additions: Sequence[str],
    event_points: int,
    *,
    points_under: int,
    free_models_stay: bool = False,
    battlegroup_only: bool = False,
) -> Substitution:
    """The chosen list after removing the cards named in `removals` and adding the
    specialists named in `additions` (names as written in the list, case and spacing
    aside); refused (BadInput) when the list as played would be illegal."""
    removed = _removed(army, removals, free_models_stay)
    added = _added(army, additions, battlegroup_only)
    kept = list(army.models)
    for entry in removed:
        kept.remove(entry)
    _check_cards(army, kept, added)
    _check_tier(army, removed, added)
    change = sum(e.points or 0 for e in added) - sum(e.points or 0 for e in removed)
    total = None if army.points is None else army.points + change
    low = max(0, event_points - points_under)
    if total is not None and not low <= total <= event_points:
        raise _refuse(
            army,
            f"the list would total {total} points; a list at this {event_points}-point "
            f"event totals {low} to {event_points} (specialist substitutions cannot "
            "result in an illegal army list)",
        )
    if total is None and change > 0:
        raise _refuse(army, f"the substitution adds {change} points to the list")
    played = replace(army, points=total, models=(*kept, *added))
    return Substitution(tuple(removed), tuple(added), played)
