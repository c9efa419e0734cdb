"""Runewars 2017 as a format: the data an event and its tables are run by, and the name
of its own table engine (a round timer and a game-round counter, not a chess clock)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from app.domain.runewars.absent import ABSENT_COMMANDS, EO_TABLE_COMMANDS, EVENT_REFUSALS
from app.domain.runewars.rules import (
    ADVANCED,
    BASIC,
    BYE_MOV,
    BYE_TP,
    DEPLOYMENTS,
    FINAL_MINUTES,
    LAST_GAME_ROUND,
    MOST_ARMY_POINTS,
    OBJECTIVES,
    ROUND_MINUTES,
    TP_TABLE,
)


@dataclass(frozen=True, slots=True)
class RunewarsRules:
    id: str
    name: str
    #: The table engine the format's tables run on (see app.tables.engines).
    engine: str
    #: The tournament policy its events are run by (RP6 pairing, ST5 standings, byes).
    tournament: str
    round_minutes: int
    final_minutes: int
    last_game_round: int
    most_army_points: int
    deployments: tuple[str, ...]
    objectives: tuple[str, ...]
    tp_table: tuple[tuple[int, int, int], ...]
    bye: tuple[int, int]  # (TP, MoV)
    structures: Mapping[str, tuple[tuple[int, int, int], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: ST5: the standings' order after TP.
    standings_order: tuple[str, ...] = ("tp", "mov", "sos", "draw")
    #: The common event paths its events do not take, each with the reason.
    event_refusals: Mapping[str, str] = field(default_factory=lambda: EVENT_REFUSALS)
    #: Other games' table commands its tables do not have, each with the reason.
    absent_commands: Mapping[str, str] = field(default_factory=lambda: ABSENT_COMMANDS)
    #: The commands the organiser may send one of its tables by itself.
    eo_table_commands: tuple[str, ...] = EO_TABLE_COMMANDS


RW2017 = RunewarsRules(
    id="runewars2017",
    name="Runewars 2017",
    engine="runewars",
    tournament="runewars",
    round_minutes=ROUND_MINUTES,
    final_minutes=FINAL_MINUTES,
    last_game_round=LAST_GAME_ROUND,
    most_army_points=MOST_ARMY_POINTS,
    deployments=DEPLOYMENTS,
    objectives=OBJECTIVES,
    tp_table=TP_TABLE,
    bye=(BYE_TP, BYE_MOV),
    structures=MappingProxyType({"basic": BASIC, "advanced": ADVANCED}),
)
