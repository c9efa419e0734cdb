"""Every format a table can be opened with, and the table engine each names: the
Warmachine rulesets play on the chess-clock engine (`app.domain.game`), Runewars on its
own (`app.domain.runewars.engine`). Nothing here branches on a format: each format says
its engine."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.domain.errors import BadInput
from app.domain.formats import FORMATS
from app.domain.runewars.ruleset import RW2017

#: Format id → the name of its table engine.
ENGINE_OF: Mapping[str, str] = MappingProxyType(
    {**{f.id: f.engine for f in FORMATS.values()}, RW2017.id: RW2017.engine}
)


def engine_name(format_id: str) -> str:
    try:
        return ENGINE_OF[format_id]
    except KeyError:
        raise BadInput(f"unknown format {format_id!r} (choose {', '.join(ENGINE_OF)})") from None


#: Format id → the name of its tournament policy (how its events pair, rank and award).
TOURNAMENT_OF: Mapping[str, str] = MappingProxyType(
    {**{f.id: f.tournament for f in FORMATS.values()}, RW2017.id: RW2017.tournament}
)


def tournament_name(format_id: str) -> str:
    return TOURNAMENT_OF.get(format_id, "warmachine")


#: Format id → the common event paths its events do not take, each with the reason.
REFUSALS_OF: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {**{f.id: f.event_refusals for f in FORMATS.values()}, RW2017.id: RW2017.event_refusals}
)


def refusal(format_id: str, feature: str) -> str | None:
    """Why an event of the format does not take a common path (None: it does)."""
    return REFUSALS_OF.get(format_id, MappingProxyType({})).get(feature)


#: The formats of other games (their own table engine and tournament), offered beside
#: the Warmachine formats.
OTHER_GAMES = (RW2017,)
