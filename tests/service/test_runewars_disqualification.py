"""The organiser disqualifies a Runewars player, through the event service
(runewars-tournament-regulations-2017.txt): "The organizer, at his or her sole discretion,
may remove players from the tournament for unsporting conduct", and "Disqualified players
are removed from the tournament, and cannot rejoin". The player leaves as a drop leaves
(RP6, RP7): not paired again, replaced in a cut that has not played; the standings say
"disqualified"; the organiser's log keeps the reason; all of it survives a restart."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.domain.errors import BadInput, RuleError
from app.domain.runewars.rules import Stage
from app.domain.runewars.state import RwGame
from app.events.base import EventSpec
from app.events.runewars.codec import dump_event, load_event
from app.events.service import EventService
from app.tables.timesource import FakeTime
from tests.service.test_runewars_cut_winner_service import _policy, _round, _swiss
from tests.service.test_runewars_event_service import Running

REASON = "Threw dice at his opponent"


async def _four(service: EventService, **spec: int) -> tuple[str, dict[str, str]]:
    eid = service.registration.create_event(
        EventSpec("RW Conduct", format_id="runewars2017", **spec)
    ).id
    policy = _policy(service, eid)
    return eid, {name: policy.register(eid, name, 190) for name in ("Ann", "Bob", "Cal", "Dee")}


async def test_a_disqualified_player_is_not_paired_again_nor_rejoins__RP7_RP6_ST5(
    service: EventService,
) -> None:
    eid, ids = await _four(service, fixed_rounds=3)
    policy = _policy(service, eid)
    await _round(service, policy, eid, _swiss)

    with pytest.raises(BadInput, match="say why Dee is disqualified"):
        await policy.disqualify(eid, ids["Dee"], "   ")
    assert not policy.live(eid).state.player(ids["Dee"]).dropped  # nothing changed

    await policy.disqualify(eid, ids["Dee"], f"  {REASON} ")
    dee = policy.live(eid).state.player(ids["Dee"])
    assert dee.disqualified and dee.dropped
    row = next(s for s in policy.standings(eid) if s.player_id == ids["Dee"])
    assert (row.status, row.dropped_after) == ("disqualified", None)
    # the `dropped` column names only a player who left; Dee was removed
    assert row.row()["dropped"] is False
    assert ",0,disqualified" in policy.standings_csv(eid)

    assert policy.pair_next(eid) == 2
    play = policy.live(eid).state.current
    assert play is not None
    paired = {p for m in play.matches for p in (m.a, m.b) if p is not None}
    assert paired == {ids["Ann"], ids["Bob"], ids["Cal"]}  # Dee left out, one has the bye

    with pytest.raises(RuleError) as refused:
        policy.rejoin(eid, ids["Dee"])
    assert str(refused.value) == "Dee is disqualified: a disqualified player cannot rejoin"
    with pytest.raises(RuleError, match="Dee is already disqualified"):
        await policy.disqualify(eid, ids["Dee"], "again")

    logged = [a for a in service.book.actions(eid) if a.action == "disqualify"]
    assert len(logged) == 1
    detail = json.loads(logged[0].detail_json)
    assert (detail["player"], detail["reason"]) == (ids["Dee"], REASON)
    assert detail["words"] == f"Disqualified Dee: {REASON}"


async def test_a_cut_player_disqualified_before_the_cut_plays_is_replaced__RP6(
    service: EventService,
) -> None:
    eid, _ids = await _four(service, fixed_rounds=1, cut_to_top=2)
    policy = _policy(service, eid)
    await _round(service, policy, eid, _swiss)
    first, second, third = [s.player_id for s in policy.standings(eid)][:3]
    policy.pair_next(eid)  # the final, first against second, not started
    old_tables = {room.table_id for room in policy.live(eid).rooms()}

    await policy.disqualify(eid, second, REASON)
    live = policy.live(eid)
    play = live.state.current
    assert play is not None and play.stage is Stage.ELIMINATION and not play.results
    assert live.state.cut_to == (first, third)  # the next-ranked comes in, as for a drop
    assert [(m.a, m.b) for m in play.matches] == [(first, third)]
    rooms = live.rooms()
    assert len(rooms) == 1 and rooms[0].table_id not in old_tables
    assert all(service.hub.get(t) is None for t in old_tables)
    assert next(s for s in policy.standings(eid) if s.player_id == second).status == (
        "disqualified"
    )
    logged = next(a for a in service.book.actions(eid) if a.action == "disqualify")
    assert json.loads(logged.detail_json)["cut"] == [first, third]


async def test_a_disqualification_mid_round_concedes_the_open_game_as_a_drop__RP6(
    service: EventService,
) -> None:
    eid, ids = await _four(service, fixed_rounds=2)
    policy = _policy(service, eid)
    policy.pair_next(eid)
    await policy.start_round(eid)

    await policy.disqualify(eid, ids["Ann"], REASON)
    live = policy.live(eid)
    room = next(
        r
        for r in live.rooms()
        if r.meta is not None and ids["Ann"] in (r.meta.p1_player, r.meta.p2_player)
    )
    game = room.game
    assert isinstance(game, RwGame) and game.conceded is not None
    assert room.meta is not None
    ann_side = 0 if room.meta.p1_player == ids["Ann"] else 1
    assert int(game.conceded) == ann_side  # Ann's side conceded: the opponent wins


async def test_a_dropped_player_can_be_disqualified_and_then_cannot_rejoin__RP7(
    service: EventService,
) -> None:
    eid, ids = await _four(service, fixed_rounds=3)
    policy = _policy(service, eid)
    await policy.drop(eid, ids["Bob"])
    await policy.disqualify(eid, ids["Bob"], REASON)
    rows = {s.player_id: s.status for s in policy.standings(eid)}
    assert rows[ids["Bob"]] == "disqualified"
    with pytest.raises(RuleError, match="Bob is disqualified"):
        policy.rejoin(eid, ids["Bob"])


async def test_a_disqualification_survives_a_restart__RP7(tmp_path: Path) -> None:
    db, time = tmp_path / "rw.db", FakeTime()
    run = Running(db, time, 5)
    eid, ids = await _four(run.service, fixed_rounds=3)
    await run.policy(eid).disqualify(eid, ids["Cal"], REASON)
    await run.stop()

    run = Running(db, time, 6)
    policy = run.policy(eid)
    try:
        assert policy.live(eid).state.player(ids["Cal"]).disqualified
        row = next(s for s in policy.view(eid)["standings"] if s["name"] == "Cal")
        assert row["status"] == "disqualified"
        with pytest.raises(RuleError, match="Cal is disqualified"):
            policy.rejoin(eid, ids["Cal"])
        policy.pair_next(eid)
        play = policy.live(eid).state.current
        assert play is not None and all(ids["Cal"] not in (m.a, m.b) for m in play.matches)
    finally:
        await run.stop()


def test_an_event_stored_before_disqualifications_loads_with_nobody_disqualified() -> None:
    from app.domain.runewars.event import RwEvent, register
    from app.domain.runewars.rules import Plan

    event = register(RwEvent("Old", Plan(3, 0)), "a1", "Ann", 190, random.Random(1))
    stored = json.loads(dump_event(event))
    for player in stored["players"]:
        del player["disqualified"]
    loaded = load_event(json.dumps(stored))
    assert loaded.player("a1").disqualified is False
    assert load_event(dump_event(event)) == event
