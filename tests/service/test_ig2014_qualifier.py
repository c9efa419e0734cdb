"""A whole Iron Gauntlet 2014 qualifier, 9 players, through the event service: played
games on the Deathclock, a concession, a draw at the round's end, byes, and the
qualifier points of the final standings (shared/seeds/iron-gauntlet-2014.txt)."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.game import Method, Phase
from app.domain.scenarios import Element
from app.events.base import EventSpec, pairings_of
from app.events.service import EventService
from app.tables.jsontext import loads
from app.tables.quick import QuickGame
from app.tables.replay import fold
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime
from tests.first_player import every_first_seat_goes_first

MIN = 60_000
P1, P2 = Side.P1, Side.P2


def _dominated_by_p1(room: TableRoom) -> Element:
    """An element P1's caster scores by dominating (not one that only costs P2 a CP)."""
    game = room.game
    return next(
        e
        for e in game.scenario.controllable
        if e.id not in game.removed
        and (e.friendly_dominate_cp if e.owner is P1 else e.dominate_cp or 0) > 0
    )


def _list(room: TableRoom, side: Side) -> str:
    """The first list the event lets this player play this game."""
    return room.game.list_choices[side][0]


class Seats:
    """Both phones of a table, each with its own command numbers."""

    def __init__(self, room: TableRoom) -> None:
        self.room = room
        self.seq = {P1: 100, P2: 100}

    async def do(self, side: Side, command: c.Command) -> None:
        self.seq[side] += 1
        await self.room.apply(side, side.name, self.seq[side], command)

    async def tap(self) -> None:
        game = self.room.game
        side = game.active
        turn_end = None
        if game.phase is Phase.TURN:
            scoring = None
            if game.scoring_due:  # P1's caster dominates an element at every turn's end
                scoring = c.Scoring(dominate={_dominated_by_p1(self.room).id: P1})
            turn_end = c.TurnEnd(kill_box=False if game.kill_box_due else None, scoring=scoring)
        await self.do(side, c.PassTurn(expect=side, turn_end=turn_end))


async def _scenario_win_for_p1(seats: Seats) -> None:
    """P1 dominates an element every scored turn until 5 CP and more win (TS5)."""
    room = seats.room
    assert room.game.phase is Phase.PRE_DEPLOYMENT  # DC3: the round started every clock
    while room.game.phase is not Phase.OVER:
        await seats.tap()
        assert room.game.turn < 10
    ending = room.game.ending
    assert ending is not None and (ending.method, ending.winner) == (Method.SCENARIO, P1)
    assert room.game.control_points[0] == 5  # no more than the scenario needs
    if room.game.scenario.id == "incursion":  # the server rolled the removed flag
        assert len(room.game.removed) == 1
    with pytest.raises(BadInput, match="plays one of these lists"):
        await seats.do(P1, c.ReportGame(army_points_destroyed=30, list_played="Kaelyssa"))
    await seats.do(P1, c.ReportGame(army_points_destroyed=30, list_played=_list(room, P1)))
    await seats.do(P2, c.ReportGame(army_points_destroyed=12, list_played=_list(room, P2)))
    await seats.do(P1, c.ConfirmResult())
    await seats.do(P2, c.ConfirmResult())


async def _concession_by_p2(seats: Seats) -> None:
    await seats.do(P2, c.Concede())
    await seats.do(P1, c.ReportGame(20, list_played=_list(seats.room, P1)))
    await seats.do(P1, c.ConfirmResult())
    await seats.do(P2, c.ConfirmResult())
    result = seats.room.game.result()
    assert result is not None and result.control_points == (3, 0)  # TS8: half of 5


async def test_a_nine_player_qualifier_to_its_qualifier_points__ST4(
    service: EventService,
) -> None:
    time: FakeTime = service.time  # type: ignore[assignment]
    event = service.registration.create_event(
        EventSpec(name="IG qualifier", format_id="ig2014", points=50)
    )
    assert event.lists == 2  # two lists, each played at least once
    eid = event.id
    for n in range(9):
        service.registration.add_player(
            eid, f"Player {n + 1}", "Cygnar", "Caine\nStryker", painted=True
        )
    assert service.results.planned_rounds(eid) == 4  # 9 to 16 players

    number = 0
    while not service.results.event_over(eid):
        number += 1
        entry = service.rounds.pair_next(eid)
        started = await service.rounds.start(eid)
        assert started.expected_end_ms is None  # set once every table has begun deployment
        rooms = [r for r in service.tables.rooms(eid) if r.meta and r.meta.round_number == number]
        assert len(rooms) == 4  # and a bye
        await every_first_seat_goes_first(rooms)
        await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
        started = service.book.rounds(eid)[-1]
        assert started.expected_end_ms == time.now_ms() + 2 * 60 * MIN  # DC2: 50 → 60 min
        assert all(r.game.setup.format_id == "ig2014" for r in rooms)
        *played, last = rooms
        for index, room in enumerate(played):
            seats = Seats(room)
            await (_concession_by_p2(seats) if index == 0 else _scenario_win_for_p1(seats))
        if number == 1:
            # The last table is still deploying at the round's end: a draw (DC8), even
            # though the EO paused it this round (no exception in IG2014).
            await last.apply(c.Role.EO, "", 0, c.PauseClock())
            await last.apply(c.Role.EO, "", 0, c.ResumeClock())
            # Paused again until the round's end, so that no clock runs out before it
            # (an EO adjust is bounded by the 60-minute player clock).
            await last.apply(c.Role.EO, "", 0, c.PauseClock())
            time.advance(2 * 60 * MIN)  # the round's end: its timer applies DC8 by itself
            await service.round_ends.timers[eid]
            calls = await service.round_clock.call_end(eid)
            assert calls == {last.table_id: "tie"}
            assert last.game.ending is not None and last.game.ending.method is Method.TIME
            for side in (P1, P2):
                report = c.ReportGame(5, list_played=_list(last, side))
                await last.apply(side, side.name, 900, report)
            for side in (P1, P2):
                await last.apply(side, side.name, 901, c.ConfirmResult())
        else:
            await _scenario_win_for_p1(Seats(last))
        assert entry.scenario_id in {s.id for s in last.game.format.scenarios}

    rounds = service.book.rounds(eid)
    scenarios = [r.scenario_id for r in rounds]
    assert len(scenarios) == len(set(scenarios))  # RP4: none repeated before all six
    assert 3 <= len(rounds) <= 4

    standings = service.results.standings(eid)
    qp = {s.rank: s.qualifier_points for s in standings}
    assert [s.qualifier_points for s in standings] == [
        {1: 10, 2: 8, 3: 6, 4: 4}.get(s.rank, 2 if s.rank <= 8 else 1) for s in standings
    ]
    assert qp[1] == 10
    assert standings[0].tp > standings[1].tp  # RP1: the event ended with one player ahead
    tps = [s.tp for s in standings]
    assert tps == sorted(tps, reverse=True)
    byes = {row.p1 for r in rounds for row in pairings_of(r) if row.p2 is None}
    assert len(byes) == len(rounds)  # RP3: nobody gets two byes
    records = {p.id: p for p in service.results.player_records(eid)}
    for player_id in byes:
        bye = next(r for r in records[player_id].rounds if r.opponent_id is None)
        assert (bye.control_points, bye.army_points_destroyed) == (3, 25)  # RP3
    drawn = [r for p in records.values() for r in p.rounds if r.outcome.value == "tie"]
    assert len(drawn) == 2  # both players of the drawn game: 0 TP each
    # Each list at least once: a fourth round would leave only the list not yet played.
    played = {p.id: {r.list_played for r in p.rounds} - {""} for p in records.values()}
    assert all(lists <= {"Caine"} for lists in played.values())
    offers = service.pregame.list_offers(service.book.event(eid), 4)
    assert {offers[i] for i, lists in played.items() if lists} == {("Stryker",)}


async def test_incursion_flag_is_rolled_by_the_server_logged_and_replayed__TS5(
    service: EventService,
) -> None:
    hub = service.hub
    room = hub.create(QuickGame(format_id="ig2014", points=50, scenario="incursion"))
    room.dice = random.Random(7)
    seats = Seats(room)
    await seats.do(P1, c.StartClock())
    while (room.game.turn, room.game.active) != (2, P1):
        await seats.tap()
    removed = room.game.removed
    assert len(removed) == 1 and removed <= {"flag-left", "flag-right"}
    log = hub.store.log(room.table_id)
    rolls = [loads(e.command_json) for e in log if e.actor == "system"]
    assert len(rolls) == 1 and rolls[0]["c"] == "scenario_roll"
    assert rolls[0]["removed"] in ("Left outer flag", "Right outer flag")
    assert (log[-2].turn, log[-1].actor) == ("P2's turn 1", "system")  # right after the tap
    replayed = fold(room.initial, log)[-1]  # the log alone gives the same table
    assert replayed.removed == removed
