"""The event service with a real SQLite store and fake time."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError, Unauthorized
from app.domain.game import Method, Phase
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult
from app.tables.fanout import Subscriber
from app.tables.hub import TableHub
from app.tables.room import TableRoom, table_status
from app.tables.timesource import FakeTime
from tests.first_player import every_first_seat_goes_first, first_seat_goes_first

MIN = 60_000


def _event(service: EventService, players: int, **spec: object) -> str:
    event = service.registration.create_event(EventSpec(name="Test event", **spec))  # type: ignore[arg-type]
    for n in range(players):
        service.registration.add_player(event.id, f"Player {n + 1:02d}", "Khador")
    return event.id


def _tables(service: EventService, event_id: str, number: int) -> list[TableRoom]:
    return [r for r in service.tables.rooms(event_id) if r.meta and r.meta.round_number == number]


async def _finish(room: TableRoom, loser: Side = Side.P2) -> None:
    await room.apply(loser, "l", 1, c.Concede())
    await room.apply(loser.other, "w", 1, c.ReportGame(20))
    await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
    await room.apply(Side.P2, "p2", 2, c.ConfirmResult())


async def test_round_end_ties_long_games_and_plays_on_short_or_paused_ones__DC8(
    service: EventService,
) -> None:
    time: FakeTime = service.time  # type: ignore[assignment]
    eid = _event(service, 6, points=0)  # 20-minute clocks (DC1)
    service.rounds.pair_next(eid)
    entry = await service.rounds.start(eid)
    assert entry.expected_end_ms is None  # set once every table has begun deployment
    short, paused, long_ = _tables(service, eid, 1)
    await every_first_seat_goes_first((short, paused, long_))
    await asyncio.sleep(0)  # the round's end is looked at from the loop's next turn
    assert service.book.rounds(eid)[-1].expected_end_ms == time.now_ms() + 2 * 20 * MIN  # DC4
    await paused.apply(c.Role.EO, "", 0, c.PauseClock())
    await paused.apply(c.Role.EO, "", 0, c.ResumeClock())
    # Clocks only stay above 5 minutes at the round's end if time was added: the EO adds
    # it, up to the player clock each time (DC5).
    for _ in range(2):
        time.advance(19 * MIN)
        for room in (short, paused, long_):
            await room.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P1, 20 * MIN))
    await short.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P1, 3 * MIN))
    await short.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P2, 1 * MIN))
    time.advance(2 * MIN)  # the round's end: its timer applies DC8 by itself
    await service.round_ends.timers[eid]  # the timer's task, woken by the clock, runs to its end
    assert service.book.rounds(eid)[-1].end_calls_json is not None
    calls = await service.round_clock.call_end(eid)
    assert calls == {
        short.table_id: "play_on",  # 2 minutes combined
        paused.table_id: "play_on",  # the EO paused it this round
        long_.table_id: "tie",  # 38 minutes combined
    }
    assert long_.game.phase is Phase.OVER and long_.game.ending is not None
    assert long_.game.ending.method is Method.TIME and long_.game.ending.winner is None
    assert paused.game.phase is not Phase.OVER
    actions = [a.action for a in service.book.actions(eid)]
    assert "round_end" in actions


async def _play_to_p2_turn_two(room: TableRoom) -> None:
    """Deployment and turns up to the start of P2's turn 2 (its end is scored)."""
    seq = 10
    for side, turn_end in [
        *[(s, None) for s in (Side.P1, Side.P2, Side.P1, Side.P2)],  # deployment
        (Side.P1, c.TurnEnd()),
        (Side.P2, c.TurnEnd()),
        (Side.P1, c.TurnEnd(kill_box=False)),
    ]:
        seq += 1
        await room.apply(side, side.name, seq, c.PassTurn(expect=side, turn_end=turn_end))
    assert (room.game.turn, room.game.active) == (2, Side.P2)


async def test_round_end_does_not_tie_a_game_whose_clock_ran_out__DC8(
    service: EventService,
) -> None:
    """DC7 decides a clock out: one waiting on a scenario claim, one whose flag is due."""
    time: FakeTime = service.time  # type: ignore[assignment]
    eid = _event(service, 6, points=0)  # 20-minute clocks (DC1)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    claiming, due, long_ = _tables(service, eid, 1)
    await every_first_seat_goes_first((claiming, due, long_))
    await _play_to_p2_turn_two(claiming)
    for room in (claiming, due, long_):  # plenty left on the other clock: a tie otherwise
        await room.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P1, 20 * MIN))
    await claiming.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P2, 0))
    assert claiming.game.phase is Phase.CLOCK_OUT and claiming.game.flagged is Side.P2
    await due.apply(c.Role.EO, "", 0, c.AdjustClock(Side.P1, 1 * MIN))  # deploying, runs out
    time.advance(10 * MIN)
    assert due.game.phase is Phase.DEPLOYMENT  # nobody has decided its flag yet
    calls = await service.round_clock.call_end(eid)
    assert calls == {claiming.table_id: "clock_out", long_.table_id: "tie"}
    assert claiming.game.phase is Phase.CLOCK_OUT  # still P2's claim or accepted loss
    assert due.game.ending is not None
    assert (due.game.ending.method, due.game.ending.winner) == (Method.CLOCK, Side.P2)
    await claiming.apply(Side.P2, "p2", 99, c.AcceptClockLoss())
    assert claiming.game.ending is not None
    assert (claiming.game.ending.method, claiming.game.ending.winner) == (Method.CLOCK, Side.P1)


@pytest.mark.parametrize("x", [2, 3, 5, 6, 7])
async def test_cut_to_top_takes_any_x_from_two_to_the_players__RP1(
    service: EventService, x: int
) -> None:
    """Not only powers of two: Top 3, Top 6 … as the EO names it."""
    eid = _event(service, 7, cut_to_top=x)
    assert service.book.event(eid).cut_to_top == x
    service.rounds.pair_next(eid)


@pytest.mark.parametrize("x", [0, 1, -4])
async def test_cut_to_top_below_two_is_refused__RP1(service: EventService, x: int) -> None:
    with pytest.raises(RuleError, match="Cut to Top"):
        _event(service, 0, cut_to_top=x)


async def test_cut_to_top_larger_than_the_field_is_refused_before_round_one__RP1(
    service: EventService,
) -> None:
    eid = _event(service, 5, cut_to_top=6)
    with pytest.raises(RuleError, match="Cut to Top 6 needs at least 6 players"):
        service.rounds.pair_next(eid)
    service.registration.add_player(eid, "Player 06", "Cygnar")
    service.rounds.pair_next(eid)


@pytest.mark.parametrize(
    ("spec", "good", "bad"),
    [
        ({"format_id": "masters2019", "lists": 2}, ["Haley 3; Stryker 1"], ["Haley 3", "A;B;C"]),
        ({"format_id": "masters2019", "lists": 3}, ["A\nB\nC"], ["A;B", "A;B;C;D"]),
        ({"format_id": "champions2019"}, ["Haley 3", "Haley 3; Stryker 1"], ["A;B;C"]),
        # SR2019 "Army Lists": one list, with a second optional (or two, as the EO sets).
        ({"format_id": "sr2019"}, ["Haley 3", "Haley 3; Stryker 1"], ["A;B;C"]),
        ({"format_id": "sr2019", "lists": 2}, ["A;B"], ["A", "A;B;C"]),
    ],
)
async def test_a_player_with_the_wrong_number_of_lists_is_refused__lists(
    service: EventService, spec: dict[str, object], good: list[str], bad: list[str]
) -> None:
    """Masters Dyad 2 / Trinity 3, Champions 1 (a 2nd optional), SR2019 as the EO sets."""
    eid = service.registration.create_event(EventSpec(name="Lists", **spec)).id  # type: ignore[arg-type]
    for n, lists in enumerate(good):
        service.registration.add_player(eid, f"Good {n}", "Cygnar", lists)
    service.registration.add_player(eid, "Lists later", "Cygnar", "")  # none handed in yet
    for n, lists in enumerate(bad):
        with pytest.raises(RuleError, match="army list"):
            service.registration.add_player(eid, f"Bad {n}", "Cygnar", lists)
        csv_text = f"name,faction,lists\nBad csv {n},Cygnar,{lists!r}\n".replace("'", '"')
        added, errors = service.registration.import_players(eid, csv_text)
        assert added == [] and len(errors) == 1 and "army list" in errors[0], errors
    player = service.book.players(eid)[0]
    with pytest.raises(RuleError, match="army list"):
        service.registration.edit_player(eid, player.id, player.name, player.faction, bad[0])


async def test_masters_needs_the_dyad_or_trinity_choice__lists(service: EventService) -> None:
    with pytest.raises(RuleError, match="Dyad"):
        service.registration.create_event(EventSpec(name="Masters", format_id="masters2019"))
    with pytest.raises(RuleError, match="Trinity"):
        service.registration.create_event(
            EventSpec(name="Masters", format_id="masters2019", lists=1)
        )
    trinity = service.registration.create_event(
        EventSpec(name="Masters", format_id="masters2019", lists=3)
    )
    assert trinity.lists == 3
    assert (
        service.registration.create_event(EventSpec(name="Champs", format_id="champions2019")).lists
        == 2
    )


async def test_swap_before_start_warns_on_rematch__RP2(service: EventService) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    first = _tables(service, eid, 1)
    for room in first:
        await _finish(room)
    service.rounds.pair_next(eid)
    rooms = _tables(service, eid, 2)
    a_room, b_room = rooms
    assert a_room.meta is not None and b_room.meta is not None
    # Swapping P2 of both tables recreates round 1's pairings: a rematch.
    old_pairs = {frozenset((r.meta.p1_player, r.meta.p2_player)) for r in first if r.meta}
    warnings = service.rounds.swap(eid, a_room.meta.p2_player, b_room.meta.p1_player)
    swapped = {
        frozenset((r.meta.p1_player, r.meta.p2_player)) for r in _tables(service, eid, 2) if r.meta
    }
    assert len(_tables(service, eid, 2)) == 2
    assert (swapped & old_pairs) == set() or warnings
    await service.rounds.start(eid)
    with pytest.raises(RuleError):
        service.rounds.swap(eid, a_room.meta.p1_player, b_room.meta.p1_player)


async def test_swap_keeps_the_pair_down_record__RP2(service: EventService) -> None:
    """6 players: after round 1 the three winners make an odd TP group, so one is paired
    down. A swap that keeps (or moves) that pair-down keeps it on the record."""
    eid = _event(service, 6)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    for room in _tables(service, eid, 1):
        await _finish(room)
    service.rounds.pair_next(eid)

    def rows() -> list[dict[str, str | None]]:
        rows: list[dict[str, str | None]] = json.loads(service.book.rounds(eid)[-1].pairings_json)
        return rows

    [down_row] = [r for r in rows() if r["paired_down"] is not None]
    high, low = down_row["p1"], down_row["p2"]
    assert down_row["paired_down"] == high and high is not None and low is not None
    points = {p.id: p.points() for p in service.results.player_records(eid)}
    other_low = next(
        p for r in rows() for p in (r["p1"], r["p2"]) if p not in (high, low) and points[p] == 0
    )
    # Swap the low player of the pair-down with another 0-TP player: still a pair-down.
    service.rounds.swap(eid, low, other_low)
    [kept] = [r for r in rows() if high in (r["p1"], r["p2"])]
    assert kept["paired_down"] == high
    await service.rounds.start(eid)
    for room in _tables(service, eid, 2):
        await _finish(room)
    record = {p.id: p for p in service.results.player_records(eid)}[high]
    assert record.paired_down_count == 1  # so the next round does not pair them down again


async def test_next_round_waits_for_every_result_and_disputes_go_to_the_eo(
    service: EventService,
) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    one, two = _tables(service, eid, 1)
    await _finish(one)
    await two.apply(Side.P1, "a", 1, c.Concede())
    await two.apply(Side.P2, "b", 1, c.ReportGame(10))
    await two.apply(Side.P1, "a", 2, c.DisputeResult("I did not concede"))
    assert two.game.disputed is not None
    with pytest.raises(RuleError, match="results"):
        service.rounds.pair_next(eid)
    with pytest.raises(RuleError):
        await two.apply(Side.P2, "b", 2, c.ConfirmResult())
    await service.results.enter(
        eid,
        two.table_id,
        TableResult.from_wire(
            {"winner": "p1", "control_points": [4, 1], "army_points_destroyed": [30, 9]}
        ),
    )
    assert table_status(two.game) == "confirmed" and two.game.disputed is None  # both see it
    standings = {s.name: s for s in service.results.standings(eid)}
    assert sum(s.tp for s in standings.values()) == 2
    p1 = service.book.player(eid, two.meta.p1_player)  # type: ignore[union-attr]
    assert standings[p1.name].control_points == 4
    second = service.rounds.pair_next(eid)
    assert second.number == 2


async def test_dropped_player_is_not_paired_and_late_arrival_gets_losses__RP7(
    service: EventService,
) -> None:
    eid = _event(service, 5)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    for room in _tables(service, eid, 1):
        await _finish(room)
    players = service.book.players(eid)
    service.registration.drop_player(eid, players[0].id)
    late = service.registration.add_player(eid, "Latecomer", "Cryx")
    entry = service.rounds.pair_next(eid)
    paired = {
        x for row in __import__("json").loads(entry.pairings_json) for x in (row["p1"], row["p2"])
    }
    assert players[0].id not in paired
    assert late.id in paired
    records = {r.id: r for r in service.results.player_records(eid)}
    missed = records[late.id].rounds[0]
    assert (missed.round, missed.outcome.value, missed.opponent_id) == (1, "loss", None)


async def test_only_the_eo_token_changes_an_event(service: EventService) -> None:
    eid = _event(service, 2)
    with pytest.raises(Unauthorized):
        service.authorize(eid, "nope")
    with pytest.raises(Unauthorized):
        service.authorize(eid, None)
    assert service.authorize(eid, service.book.event(eid).admin_token).id == eid


async def test_event_ends_early_when_one_player_leads_alone__RP1(service: EventService) -> None:
    eid = _event(service, 4)
    assert service.results.planned_rounds(eid) == 3
    for number in (1, 2):
        service.rounds.pair_next(eid)
        await service.rounds.start(eid)
        for room in _tables(service, eid, number):
            await _finish(room)
    # Four players, two rounds of decisive games: exactly one player is 2-0.
    assert service.results.event_over(eid)
    with pytest.raises(RuleError, match="over"):
        service.rounds.pair_next(eid)


async def test_an_eo_result_for_a_game_in_play_stops_its_clock(service: EventService) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room = _tables(service, eid, 1)[0]
    await first_seat_goes_first(room)
    assert room.game.clock.running is not None
    await service.results.enter(
        eid,
        room.table_id,
        TableResult.from_wire(
            {"winner": None, "control_points": [2, 2], "army_points_destroyed": [11, 12]}
        ),
    )
    assert room.game.clock.running is None and room.game.clock.flag_at() is None
    result = room.game.result()
    assert result is not None and result.winner is None and result.method.value == "eo"
    assert result.army_points_destroyed == (11, 12)
    assert table_status(room.game) == "confirmed"
    entered = service.results.table_result(eid, room.table_id)
    assert entered is not None and entered.as_json() == {
        "winner": None,
        "method": "eo",
        "lists": ["", ""],
        "control_points": [2, 2],
        "army_points_destroyed": [11, 12],
        "by": "eo",
    }
    entries = [json.loads(e.command_json) for e in room.store.log(room.table_id)]
    assert entries[-1]["c"] == "record_result"  # in the table's log too


async def test_a_corrected_name_reaches_the_open_tables(service: EventService) -> None:
    eid = _event(service, 4)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    room = _tables(service, eid, 1)[0]
    assert room.meta is not None
    screen = Subscriber("p2")
    room.join(screen, room.version)  # up to date: nothing sent yet
    assert screen.queue.empty()
    player = room.meta.p2_player
    service.registration.edit_player(eid, player, "Corrected Name", "Cygnar", "")
    assert room.game.setup.names[1] == "Corrected Name"
    state = json.loads(screen.queue.get_nowait())
    assert state["t"] == "state" and state["table"]["names"][1] == "Corrected Name"
    again = TableHub(service.store, service.time)
    again.load()  # and so does the store
    reloaded = again.get(room.table_id)
    assert reloaded is not None and reloaded.game.setup.names[1] == "Corrected Name"
    await again.close()
