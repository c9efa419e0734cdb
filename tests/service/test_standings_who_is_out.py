"""Who is out of an event, and why, on every surface that shows the standings: a player
who left ("dropped", after their last round), one the EO disqualified (steamroller-2019.txt:
"barred from further participation in the event") and those a Cut to Top left out
(RP1: "the remaining tournament rounds are only played by the top X players") are three
different things, and the `dropped` column names only the player who dropped (RP7)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from app.api.events import get_standings
from app.api.exports import standings_csv
from app.domain.standings import Status
from app.events.base import EventSpec
from app.events.service import EventService
from tests.service.first_seats import round_one_played
from tests.service.test_runewars_cut_winner_service import _policy, _round, _swiss

NAMES = tuple(f"Player {n}" for n in range(1, 9))


async def _event(service: EventService) -> tuple[str, dict[str, Status], str]:
    """Eight players, Cut to Top 4: round 1 leaves four undefeated; one loser drops
    after it; pairing round 2 cuts to the four winners; one of them is disqualified in
    round 2. Who is what, by id, and the one who dropped."""
    spec = EventSpec(name="Out", points=75, cut_to_top=4)
    event_id, losers = await round_one_played(service, spec, NAMES)
    leaver = losers[0]
    assert {s.player_id: s.tp for s in service.results.standings(event_id)}[leaver] == 0
    service.registration.drop_player(event_id, leaver)
    service.rounds.pair_next(event_id)  # four undefeated: the cut keeps them (X = 4)
    await service.rounds.start(event_id)
    kept = [p.id for p in service.book.players(event_id) if not p.cut]
    assert len(kept) == 4 and leaver not in kept
    cheat = kept[0]
    await service.discipline.disqualify(event_id, cheat, "Loaded dice")
    expected = {p.id: Status.CUT for p in service.book.players(event_id)}
    expected |= {p: Status.PLAYING for p in kept}
    expected |= {leaver: Status.DROPPED, cheat: Status.DISQUALIFIED}
    return event_id, expected, leaver


def _by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(r["player_id"]): r for r in rows}


async def test_standings_read_model_names_who_dropped_was_disqualified_or_cut__RP1_RP7_ST3(
    service: EventService,
) -> None:
    eid, expected, leaver = await _event(service)

    rows = {s.player_id: s for s in service.results.standings(eid)}

    assert {pid: s.status for pid, s in rows.items()} == expected
    assert {pid for pid, s in rows.items() if s.dropped} == {leaver}
    assert rows[leaver].dropped_after == 1  # paired in round 1, gone before round 2
    assert all(s.dropped_after is None for pid, s in rows.items() if pid != leaver)
    assert {pid for pid, s in rows.items() if s.out} == {
        pid for pid, st in expected.items() if st is not Status.PLAYING
    }


async def test_standings_csv_keeps_dropped_true_to_its_name_and_adds_the_status__RP1_RP7_ST3(
    service: EventService,
) -> None:
    eid, expected, leaver = await _event(service)

    reply = await standings_csv(eid, service)
    rows = _by_id(list(csv.DictReader(io.StringIO(bytes(reply.body).decode()))))

    assert {pid: r["status"] for pid, r in rows.items()} == {
        pid: st.value for pid, st in expected.items()
    }
    assert {pid for pid, r in rows.items() if r["dropped"] == "True"} == {leaver}
    assert rows[leaver]["dropped_after"] == "1"
    assert {r["dropped_after"] for pid, r in rows.items() if pid != leaver} == {""}


async def test_event_view_and_standings_json_name_each_player_s_state__RP1_RP7_ST3(
    service: EventService,
) -> None:
    eid, expected, leaver = await _event(service)
    want = {pid: st.value for pid, st in expected.items()}

    for admin in (False, True):
        view = json.loads(json.dumps(service.read_models.event_view(eid, admin=admin)))
        shown = _by_id(view["standings"])
        assert {pid: r["status"] for pid, r in shown.items()} == want
        assert {pid for pid, r in shown.items() if r["dropped"]} == {leaver}
        assert shown[leaver]["dropped_after"] == 1
    api = _by_id(json.loads(json.dumps(await get_standings(eid, service))))
    assert {pid: r["status"] for pid, r in api.items()} == want
    assert {pid for pid, r in api.items() if r["dropped"]} == {leaver}


async def test_runewars_standings_name_who_dropped_was_cut_or_eliminated__RP6_RP7(
    service: EventService,
) -> None:
    """The regulations call all three "dropped" (one who leaves, "all other players are
    dropped" at the cut, "the losing player is eliminated and dropped from the
    tournament"); only the first left the event, and only their `dropped` is true."""
    eid = service.registration.create_event(
        EventSpec("RW Out", format_id="runewars2017", fixed_rounds=1, cut_to_top=2)
    ).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        policy.register(eid, name, 190)
    await _round(service, policy, eid, _swiss)  # Ann 10 TP, X 6, Y 5, Ann's opponent 1
    ann, second, third, last = [s.player_id for s in policy.standings(eid)]
    await policy.drop(eid, last)
    finalist = next(s.name for s in policy.standings(eid) if s.player_id == second)
    await _round(service, policy, eid, lambda names: (finalist, 10))  # the final
    want = {second: "finished", ann: "eliminated", third: "cut", last: "dropped"}

    rows = {s.player_id: s for s in policy.standings(eid)}
    assert {pid: s.status for pid, s in rows.items()} == want
    assert {pid for pid, s in rows.items() if s.dropped} == {last}
    assert rows[last].dropped_after == 1
    exported = list(
        csv.DictReader(io.StringIO(bytes((await standings_csv(eid, service)).body).decode()))
    )
    assert {r["player_id"]: r["status"] for r in exported} == want
    assert {r["player_id"] for r in exported if r["dropped"] == "True"} == {last}
    text = list(csv.DictReader(io.StringIO(policy.standings_csv(eid))))
    assert sorted(r["status"] for r in text) == sorted(want.values())
    view = json.loads(json.dumps(service.read_models.event_view(eid, admin=False)))
    assert {r["player_id"]: r["status"] for r in view["standings"]} == want
