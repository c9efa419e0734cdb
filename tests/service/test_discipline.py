"""Warnings and penalties through the event service: a warning, a game loss (the round's
game is lost through the EO's result path, with the reason), a disqualification (as the
prizes' own does it), a withdrawal, and IG2014's warnings for pausing in the same
record (shared/seeds: steamroller-2019.txt and masters-champions-2019.txt,
Sportsmanship; iron-gauntlet-2014.txt, the Deathclock)."""

from __future__ import annotations

import json

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.game import Method, Phase
from app.events.base import EventSpec, pairings_of
from app.events.service import EventService
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

P1, P2 = Side.P1, Side.P2
NAMES = ("Ann Archer", "Bob Boulder", "Cal Crane", "Dee Drake")


async def _started(service: EventService, format_id: str = "sr2019") -> tuple[str, dict[str, str]]:
    points = 50 if format_id == "ig2014" else 75
    event = service.registration.create_event(
        EventSpec(name="Conduct", format_id=format_id, points=points)
    )
    lists = "Caine\nStryker" if format_id == "ig2014" else ""
    ids = {}
    for name in NAMES:
        added = service.registration.add_player(event.id, name, "Cygnar", lists, painted=True)
        ids[name] = added.id
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    return event.id, ids


def _room_of(service: EventService, event_id: str, player_id: str) -> TableRoom:
    return next(
        r
        for r in service.tables.rooms(event_id)
        if r.meta is not None and player_id in (r.meta.p1_player, r.meta.p2_player)
    )


def _opponent(room: TableRoom, player_id: str) -> str:
    assert room.meta is not None
    return room.meta.p2_player if room.meta.p1_player == player_id else room.meta.p1_player


async def _settle(room: TableRoom, winner_seat: Side) -> None:
    """Both players confirm a concession by the loser (seat = the pairing's order; no
    pre-game here, so seats and sides are the same)."""
    loser = winner_seat.other
    await room.apply(loser, "l", 1, c.Concede())
    await room.apply(winner_seat, "w", 1, c.ReportGame(20))
    await room.apply(P1, "p1", 2, c.ConfirmResult())
    await room.apply(P2, "p2", 2, c.ConfirmResult())


def _tp(service: EventService, event_id: str) -> dict[str, int]:
    return {s.player_id: s.tp for s in service.results.standings(event_id)}


async def test_a_warning_is_recorded_with_its_reason_and_changes_nothing_else(
    service: EventService,
) -> None:
    eid, ids = await _started(service)
    ann = ids["Ann Archer"]
    before = _tp(service, eid)
    with pytest.raises(BadInput, match="say why"):
        await service.discipline.give(eid, ann, "warning", "   ")
    await service.discipline.give(eid, ann, "warning", "Measured before declaring a charge")
    [shown] = service.discipline.record(eid)
    assert shown["player"] == {"id": ann, "name": "Ann Archer"}
    assert (shown["what"], shown["round"], shown["withdrawn"]) == ("Warning", 1, None)
    assert shown["reason"] == "Measured before declaring a charge"
    assert shown["at_ms"] == service.time.now_ms()
    assert service.discipline.record(eid, ids["Bob Boulder"]) == []
    assert service.discipline.record(eid, ann) == [shown]
    assert _tp(service, eid) == before
    assert not service.book.player(eid, ann).dropped
    [logged] = [a for a in service.book.actions(eid) if a.action == "penalty"]
    detail = json.loads(logged.detail_json)
    assert detail["words"] == "Warning for Ann Archer (round 1): Measured before declaring a charge"


async def test_a_game_loss_moves_the_standings_through_the_eos_result_path__TS9(
    service: EventService,
) -> None:
    eid, ids = await _started(service)
    ann = ids["Ann Archer"]
    room = _room_of(service, eid, ann)
    assert room.meta is not None
    ann_seat = P1 if room.meta.p1_player == ann else P2
    await _settle(room, ann_seat)  # Ann won, both confirmed it
    settled = service.results.table_result(eid, room.table_id)
    assert settled is not None and settled.winner is ann_seat
    assert _tp(service, eid)[ann] == 1

    await service.discipline.give(eid, ann, "game_loss", "Stalling for time", round_number=1)

    lost = service.results.table_result(eid, room.table_id)
    assert lost is not None and lost.winner is ann_seat.other
    assert lost.by == "eo" and lost.reason == "Game loss for Ann Archer: Stalling for time"
    assert lost.correction is not None and lost.correction.before.winner is ann_seat
    assert lost.control_points == settled.control_points  # the points stay as they were
    tp = _tp(service, eid)
    assert (tp[ann], tp[_opponent(room, ann)]) == (0, 1)
    corrected = [a for a in service.book.actions(eid) if a.action == "correct_result"]
    assert len(corrected) == 1 and "Stalling for time" in corrected[0].detail_json
    # One game is lost once, by one player.
    with pytest.raises(RuleError, match="already has a game loss"):
        await service.discipline.give(eid, ann, "game_loss", "again", round_number=1)
    with pytest.raises(RuleError, match="opponent already lost"):
        await service.discipline.give(eid, _opponent(room, ann), "game_loss", "x", round_number=1)


async def test_a_withdrawn_game_loss_puts_the_result_before_it_back(
    service: EventService,
) -> None:
    eid, ids = await _started(service)
    ann = ids["Ann Archer"]
    room = _room_of(service, eid, ann)
    assert room.meta is not None
    ann_seat = P1 if room.meta.p1_player == ann else P2
    await _settle(room, ann_seat)
    standings = service.results.standings(eid)
    await service.discipline.give(eid, ann, "game_loss", "Wrong player named", round_number=1)
    [penalty] = service.discipline.record(eid)
    with pytest.raises(BadInput, match="say why"):
        await service.discipline.withdraw(eid, penalty["id"], "")

    await service.discipline.withdraw(eid, penalty["id"], "It was the player at table 2")

    back = service.results.table_result(eid, room.table_id)
    assert back is not None and back.winner is ann_seat
    assert back.reason == "Game loss for Ann Archer withdrawn: It was the player at table 2"
    assert service.results.standings(eid) == standings
    [shown] = service.discipline.record(eid)
    assert shown["withdrawn"] == {
        "at_ms": service.time.now_ms(),
        "reason": "It was the player at table 2",
    }
    with pytest.raises(RuleError, match="already withdrawn"):
        await service.discipline.withdraw(eid, penalty["id"], "again")
    logged = [json.loads(a.detail_json) for a in service.book.actions(eid)]
    assert any(d.get("words", "").startswith("Withdrew Ann Archer's game loss") for d in logged)


async def test_a_game_loss_ends_a_game_still_in_play(service: EventService) -> None:
    eid, ids = await _started(service)
    bob = ids["Bob Boulder"]
    room = _room_of(service, eid, bob)
    assert room.game.phase is not Phase.OVER
    await service.discipline.give(eid, bob, "game_loss", "Abusive to the opponent", round_number=1)
    assert room.game.phase is Phase.OVER
    result = service.results.table_result(eid, room.table_id)
    assert result is not None and result.winner is not None
    assert room.meta is not None
    winner = (room.meta.p1_player, room.meta.p2_player)[result.winner]
    assert winner == _opponent(room, bob)
    # With no result before it, a withdrawal asks for the game's result first.
    [penalty] = service.discipline.record(eid)
    with pytest.raises(RuleError, match="enter the game's result"):
        await service.discipline.withdraw(eid, penalty["id"], "Wrong table")


async def test_a_game_loss_needs_a_game_in_the_round_named(service: EventService) -> None:
    eid, ids = await _started(service)
    ann = ids["Ann Archer"]
    with pytest.raises(BadInput, match="name the round"):
        await service.discipline.give(eid, ann, "game_loss", "Cheating")
    with pytest.raises(BadInput, match="round 2 has not started"):
        await service.discipline.give(eid, ann, "game_loss", "Cheating", round_number=2)
    with pytest.raises(BadInput, match="warning, a game loss or a disqualification"):
        await service.discipline.give(eid, ann, "yellow_card", "Cheating")


async def test_a_disqualification_drops_the_player_for_good__ST3(service: EventService) -> None:
    eid, ids = await _started(service)
    dee = ids["Dee Drake"]
    for room in service.tables.rooms(eid):
        await _settle(room, P1)
    await service.discipline.give(eid, dee, "disqualification", "Abusive conduct")
    player = service.book.player(eid, dee)
    assert player.disqualified and player.dropped
    with pytest.raises(RuleError, match="already disqualified"):
        await service.discipline.give(eid, dee, "disqualification", "again")
    second = service.rounds.pair_next(eid)
    paired = {p for row in pairings_of(second) for p in (row.p1, row.p2) if p}
    assert dee not in paired  # not paired again
    actions = [a.action for a in service.book.actions(eid)]
    assert "disqualify" in actions and "penalty" in actions  # the prizes' own, and ours
    [penalty] = service.discipline.record(eid, dee)
    await service.discipline.withdraw(eid, penalty["id"], "Another player's conduct")
    assert not service.book.player(eid, dee).disqualified


async def test_ig2014_warnings_for_pausing_join_the_record_and_the_second_loses__DC5(
    service: EventService,
) -> None:
    eid, ids = await _started(service, "ig2014")
    cal = ids["Cal Crane"]
    room = _room_of(service, eid, cal)
    assert room.meta is not None
    seat = P1 if room.meta.p1_player == cal else P2
    await service.discipline.give(eid, ids["Ann Archer"], "warning", "Late to the table")
    time: FakeTime = service.time  # type: ignore[assignment]
    time.advance(60_000)
    await room.apply(c.Role.EO, "eo", 1, c.WarnForPausing(side=seat))
    first = service.time.now_ms()
    assert room.game.phase is not Phase.OVER  # one warning: play on
    [ann_warning, cal_warning] = service.discipline.record(eid)
    assert ann_warning["player"]["name"] == "Ann Archer"
    assert (cal_warning["player"]["name"], cal_warning["what"]) == ("Cal Crane", "Warning")
    assert (cal_warning["at_ms"], cal_warning["at_table"], cal_warning["round"]) == (first, True, 1)
    assert cal_warning["reason"] == "Paused the chess clock"

    time.advance(60_000)
    await room.apply(c.Role.EO, "eo", 2, c.WarnForPausing(side=seat))
    # The table already rules the second one a loss of the game ...
    assert room.game.phase is Phase.OVER
    assert room.game.ending is not None
    assert (room.game.ending.method, room.game.ending.winner) == (Method.PAUSING, seat.other)
    # ... and the record says so, at its time, beside the EO's own.
    shown = service.discipline.record(eid, cal)
    assert [(p["what"], p["at_ms"]) for p in shown] == [
        ("Warning", first),
        ("Game loss", service.time.now_ms()),
    ]
    assert shown[1]["reason"] == "Paused the chess clock a second time: the game is lost"
    with pytest.raises(RuleError, match="already has a game loss"):
        await service.discipline.give(eid, cal, "game_loss", "Paused", round_number=1)
    with pytest.raises(RuleError, match="opponent already lost"):
        await service.discipline.give(eid, _opponent(room, cal), "game_loss", "x", round_number=1)
