"""How a game ended (TS4, TS6-TS9), as a result names it."""

from __future__ import annotations

from enum import StrEnum


class Method(StrEnum):
    SCENARIO = "scenario"
    ASSASSINATION = "assassination"
    CLOCK = "clock"
    CONCESSION = "concession"
    TIEBREAKER = "tiebreaker"
    TIME = "time"
    EO = "eo"  # entered or corrected by the EO
    PAUSING = "pausing"  # DC5 (IG2014): a second warning for pausing the clock
    DESTRUCTION = "destruction"  # No Assassination Victory: one player has no models left
