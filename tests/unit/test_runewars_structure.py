"""RP6: a Runewars event whose Swiss rounds and cut are set by attendance, by the Basic or
Advanced structure, when its first round is paired (a player dropped before does not
count); stored and read back as it was."""

from __future__ import annotations

import random

import pytest

from app.domain.errors import RuleError
from app.domain.runewars.event import RwEvent, drop, pair_next, register
from app.domain.runewars.rules import Plan, Structure
from app.events.runewars.codec import dump_event, load_event


def _event(structure: Structure, players: int) -> RwEvent:
    event = RwEvent("Night", Plan(0, 0, structure))
    rng = random.Random(3)
    for n in range(players):
        event = register(event, f"p{n}", f"Player {n}", 200, rng)
    return event


@pytest.mark.parametrize(
    ("structure", "players", "plan"),
    [
        (Structure.BASIC, 4, Plan(2, 0)),
        (Structure.BASIC, 9, Plan(3, 0)),
        (Structure.ADVANCED, 9, Plan(3, 0)),
        (Structure.ADVANCED, 29, Plan(4, 2)),
    ],
)
def test_the_plan_is_set_by_attendance_at_the_first_pairing__RP6(
    structure: Structure, players: int, plan: Plan
) -> None:
    event = _event(structure, players)
    assert load_event(dump_event(event)).plan == Plan(0, 0, structure)
    paired = pair_next(event, random.Random(1))
    assert paired.plan == plan and len(paired.rounds) == 1
    assert load_event(dump_event(paired)).plan == plan


def test_a_player_dropped_before_the_first_round_does_not_count__RP6() -> None:
    event = drop(_event(Structure.BASIC, 9), "p0")  # 8 play: 2 rounds, not 3
    assert pair_next(event, random.Random(1)).plan == Plan(2, 0)
    with pytest.raises(RuleError, match="advanced structure needs at least 9 players, not 8"):
        pair_next(drop(_event(Structure.ADVANCED, 9), "p0"), random.Random(1))


def test_a_plan_stored_before_structures_reads_as_set__RP6() -> None:
    text = dump_event(RwEvent("Old", Plan(3, 4))).replace("[3, 4, null]", "[3, 4]")
    assert '"plan": [3, 4]' in text and load_event(text).plan == Plan(3, 4)
