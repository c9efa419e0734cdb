"""An event's variants (SR2019 "Event Variants"): the choices an EO makes at creation
that change how every game is timed and won. A ruleset names the variants it offers;
a game reads them as one `Variants` record."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from app.domain.army_lists import ListChecks
from app.domain.errors import BadInput
from app.domain.turn_timing import TimingPolicy

#: DC10 round timing variants: (id, name, size shift, extensions).
CLASSIC = "classic_turn_timing"
TIMING_VARIANTS: dict[str, tuple[str, int, bool]] = {
    CLASSIC: ("Classic Turn Timing", 0, True),
    "classic_casual": ("Classic Casual Time Limits", 1, True),
    "classic_relaxed": ("Classic Relaxed Time Limits", 2, True),
    "classic_hardcore": ("Classic Hardcore Time Limits", -1, True),
    "classic_frenzy": ("Classic Frenzy Time Limits", -2, True),
}
NO_EXTENSIONS = "classic_no_extensions"
NO_TIME_LIMITS = "no_time_limits"
NO_ASSASSINATION = "no_assassination"
NO_TIEBREAKERS = "no_tiebreakers"

#: Army list and painting variants: checked when a player's lists are submitted.
BATTLEGROUP_ONLY = "battlegroup_only"
CHARACTER_RESTRICTIONS = "character_restrictions"
SPECIALISTS = "specialists"
LIST_FLAGS: dict[str, str] = {
    BATTLEGROUP_ONLY: "Battlegroup Only",
    CHARACTER_RESTRICTIONS: "Character Restrictions",
    SPECIALISTS: "Specialists",
    "painting_basic": "Basic Painting Required",
    "painting_advanced": "Advanced Painting Required",
}

#: "Painting Variants": each standard in the document's words.
PAINTING: dict[str, str] = {
    "painting_basic": "All models must be primed and basecoated, with the intended final "
    "color scheme on all parts of the model. Bases can be unfinished.",
    "painting_advanced": "All models must be completely painted and based: a reasonable "
    "diversity of color, individual elements distinguishable by color, shading and "
    "highlighting, and bases finished with sand or flock or otherwise modeled and "
    "painted. Whether a model is completely painted and based is the EO's decision.",
}

#: "SPECIALIST POINT VALUES": the army points each list may add as specialists, by the
#: event's point size (a size between two rows takes the row at or below it).
SPECIALIST_POINTS = MappingProxyType({0: 0, 25: 10, 50: 20, 75: 20, 100: 30, 150: 50, 200: 50})

NAMES: dict[str, str] = {
    **LIST_FLAGS,
    **{key: value[0] for key, value in TIMING_VARIANTS.items()},
    NO_EXTENSIONS: "Classic No Extensions",
    NO_TIME_LIMITS: "No Time Limits",
    NO_ASSASSINATION: "No Assassination Victory",
    NO_TIEBREAKERS: "No Tiebreakers",
}

#: Every variant, in the document's order.
ALL: tuple[str, ...] = tuple(NAMES)


@dataclass(frozen=True, slots=True)
class Variants:
    """What a game's variants change: its timing (None: the Deathclock's chess clock),
    whether an assassination wins, and whether tiebreakers decide a game out of time."""

    timing: TimingPolicy | None = None
    assassination: bool = True
    tiebreakers: bool = True


BASELINE = Variants()


def _timing(chosen: frozenset[str]) -> TimingPolicy | None:
    sizes = [v for v in TIMING_VARIANTS if v in chosen and v != CLASSIC]
    if len(sizes) > 1:
        raise BadInput("choose one of " + " or ".join(NAMES[v] for v in sizes) + ", not several")
    if NO_TIME_LIMITS in chosen:
        if sizes or NO_EXTENSIONS in chosen:
            raise BadInput("No Time Limits games are untimed: no Classic time limits with it")
        return TimingPolicy(untimed=True)
    if not (sizes or CLASSIC in chosen or NO_EXTENSIONS in chosen):
        return None
    shift = TIMING_VARIANTS[sizes[0]][1] if sizes else 0
    return TimingPolicy(shift=shift, extensions=NO_EXTENSIONS not in chosen)


def parse(ids: Iterable[str], offered: Iterable[str], ruleset_name: str) -> Variants:
    """The variants an EO chose, checked against those the ruleset offers."""
    chosen = frozenset(i.strip() for i in ids if i.strip())
    allowed = frozenset(offered)
    unknown = sorted(chosen - allowed)
    if unknown:
        choices = ", ".join(v for v in ALL if v in allowed) or "none"
        raise BadInput(
            f"{ruleset_name} has no variant {', '.join(unknown)} (its variants: {choices})"
        )
    if {"painting_basic", "painting_advanced"} <= chosen:
        raise BadInput("choose Basic or Advanced Painting Required, not both")
    timing = _timing(chosen)
    if NO_TIEBREAKERS in chosen and (timing is None or timing.untimed):
        raise BadInput("No Tiebreakers needs Classic Turn Timing (time out is a tie)")
    return Variants(
        timing=timing,
        assassination=NO_ASSASSINATION not in chosen,
        tiebreakers=NO_TIEBREAKERS not in chosen,
    )


def specialist_allowance(points: int) -> int:
    """The Specialists allowance for an event of `points` (the table's row at or below)."""
    return SPECIALIST_POINTS[max((p for p in SPECIALIST_POINTS if p <= points), default=0)]


def list_checks(ids: Iterable[str], points: int) -> ListChecks:
    """What the army list and painting variants the EO chose check in a player's lists."""
    chosen = frozenset(ids)
    painting = next((v for v in PAINTING if v in chosen), None)
    return ListChecks(
        battlegroup_only=BATTLEGROUP_ONLY in chosen,
        character_restrictions=CHARACTER_RESTRICTIONS in chosen,
        specialist_points=specialist_allowance(points) if SPECIALISTS in chosen else None,
        painting=None if painting is None else (NAMES[painting], PAINTING[painting]),
    )


def names(ids: Iterable[str]) -> list[str]:
    """The variants in the players' words, in the document's order."""
    chosen = set(ids)
    return [NAMES[v] for v in ALL if v in chosen]


#: The variants an EO may name, for the API's help.
HELP = "SR2019 event variants: " + ", ".join(ALL)


def round_end_ms(start_ms: int, points: int, chosen: Variants, player_clock_ms: int) -> int | None:
    """When a round started at `start_ms` ends: DC4 (both player clocks) on the
    Deathclock; DC10 the round length under Classic Turn Timing; never without time
    limits (None)."""
    if chosen.timing is None:
        return start_ms + 2 * player_clock_ms
    round_ms = chosen.timing.timing(points).round_ms
    return start_ms + round_ms if round_ms else None
