"""The regulations' "Legal Deployments and Objectives" (RP6, game setup step 1): from
July 19th, 2017 the deployments are Battle Lines, Careful Approach and Hammer and Anvil
and the objectives Bounty, Break Their Defenses and Supply Raid; from October 2017
Careful Approach, Hammer and Anvil and Standoff, and Bounty, Supply Raid and Demoralize
Their Forces. An event draws its rounds' cards from its season's, none repeated in a
stage until all are used; events stored before the seasons draw July's."""

from __future__ import annotations

import json
import random

import pytest

from app.domain.errors import BadInput
from app.domain.runewars.event import Result, RwEvent, pair_next, record, register
from app.domain.runewars.rules import SEASONS, Plan, season
from app.events.runewars.codec import dump_event, load_event


def test_the_two_seasons_of_the_document__RP6() -> None:
    october = season("october2017")
    assert october.name == "October 2017"
    assert october.deployments == ("Careful Approach", "Hammer and Anvil", "Standoff")
    assert october.objectives == ("Bounty", "Supply Raid", "Demoralize Their Forces")
    july = season("july2017")
    assert july.deployments == ("Battle Lines", "Careful Approach", "Hammer and Anvil")
    assert july.objectives == ("Bounty", "Break Their Defenses", "Supply Raid")
    assert set(SEASONS) == {"july2017", "october2017"}
    with pytest.raises(
        BadInput, match="the season of deployments and objectives is July 2017 or October 2017"
    ):
        season("2018")


def test_an_october_event_draws_october_cards_each_once_per_stage__RP6() -> None:
    rng = random.Random(10)
    event = RwEvent("Store", Plan(3, 0), season="october2017")
    for n in range(6):
        event = register(event, f"p{n}", f"P{n}", 190, rng)
    for _ in range(3):
        event = pair_next(event, rng)
        play = event.rounds[-1]
        for m in play.matches:
            event = record(event, m.game, Result(m.a, (8, 3), (80, 0)))
    assert sorted(r.deployment for r in event.rounds) == sorted(season("october2017").deployments)
    assert sorted(r.objective for r in event.rounds) == sorted(season("october2017").objectives)


def test_the_season_is_stored_and_old_events_read_as_july__RP6() -> None:
    event = RwEvent("Store", Plan(3, 0), season="october2017")
    assert load_event(dump_event(event)).season == "october2017"
    old = json.loads(dump_event(event))
    del old["season"]
    assert load_event(json.dumps(old)).season == "july2017"
