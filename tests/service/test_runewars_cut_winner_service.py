"""RP6/ST5 through the event service: after a top 2 cut, the first-ranked after the
Swiss (most TP) loses the final; the event's winner is first on the standings, their
CSV and the event page, the losing finalist second, as the regulations have it: "the
losing player is eliminated ... until only one player remains and is named the winner"."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable

from app.domain.clock import Side
from app.domain.runewars import commands as rc
from app.domain.runewars.rules import Stage
from app.domain.runewars.state import RwGame
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.tournaments import Policy
from app.tables.timesource import FakeTime
from tests.service.test_runewars_event import play


def _policy(service: EventService, eid: str) -> Policy:
    policy = service.tournaments.of_event(eid)
    assert policy is not None
    return policy


Winner = Callable[[tuple[str, str]], tuple[str, int]]


async def _round(
    service: EventService, policy: Policy, eid: str, winner: Winner, pair: bool = True
) -> None:
    """Pair (unless paired already: `pair` False) and start a round; at each table the
    player `winner` names destroys the other's army and wins by its margin of victory
    (the organiser enters the scores)."""
    time = service.time
    assert isinstance(time, FakeTime)
    if pair:
        policy.pair_next(eid)
    await policy.start_round(eid)
    for room in policy.live(eid).rooms():
        await play(room, time, random.Random(1), to_time=True)  # stops at game round 3
        game = room.game
        assert isinstance(game, RwGame)
        name, mov = winner(game.setup.names)
        won = game.setup.names.index(name)
        loser = Side.P2 if won == 0 else Side.P1
        await room.apply(loser, "phone", 50, rc.ArmyDestroyed(loser))
        entries = [[200, 0], [200, 0]]
        entries[1 - won] = [200 - mov, 0]
        await policy.enter_result(eid, room.table_id, {"entries": entries})
    policy.collect(eid)


def _swiss(names: tuple[str, str]) -> tuple[str, int]:
    """Ann wins by 160 (10 TP) whoever she plays; at the other table the first name in
    the alphabet wins by 20 (6 TP): the pairing's draw decides nothing that matters."""
    return ("Ann", 160) if "Ann" in names else (min(names), 20)


async def test_the_final_s_winner_tops_the_standings_csv_and_page__ST5_RP6(
    service: EventService,
) -> None:
    eid = service.registration.create_event(
        EventSpec("RW Cut", format_id="runewars2017", fixed_rounds=1, cut_to_top=2)
    ).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        policy.register(eid, name, 190)
    # The Swiss round: Ann first on 10 TP, the other table's winner second on 6.
    await _round(service, policy, eid, _swiss)
    first, second = [s.name for s in policy.standings(eid)][:2]
    assert first == "Ann"

    # The final (cut to those two): the second wins by 10, 6 TP to Ann's 5 (15 and 12).
    await _round(service, policy, eid, lambda names: (second, 10))
    state = policy.live(eid).state
    assert state.current is not None and state.current.stage is Stage.ELIMINATION
    assert state.over and state.player(state.winner or "").name == second

    rows = policy.standings(eid)
    assert [(s.name, s.tp) for s in rows[:2]] == [(second, 12), ("Ann", 15)]
    exported = list(csv.DictReader(io.StringIO(policy.standings_csv(eid))))
    assert [(r["rank"], r["name"]) for r in exported[:2]] == [("1", second), ("2", "Ann")]
    page = policy.view(eid, admin=False)
    assert page["winner"] == page["standings"][0]["name"] == second
