"""Once the event is over (RP1), the players it did not go on without "finished" it: no
surface a person reads says they are still "playing" (the standings JSON and CSV, the
event's view, the player's own page). Those who were out keep why (dropped after which
round, cut, eliminated); before the end, those still in are "playing"."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from app.api.events import get_standings
from app.api.exports import standings_csv
from app.domain.standings import Status
from app.events.base import EventSpec
from app.events.runewars.players import player_key
from app.events.service import EventService
from tests.service.first_seats import first_seats_win, round_one_played
from tests.service.test_player_page_who_is_out import _me, _play, _wm_me
from tests.service.test_runewars_cut_winner_service import _policy, _round, _swiss

NAMES = ("Ann", "Bob", "Cal", "Dee")


async def _statuses(service: EventService, eid: str) -> list[dict[str, str]]:
    """Each player's status on every surface that shows it, by player id: the read
    model, the standings JSON, the CSV, the event view (public and EO) and their page."""
    surfaces: list[dict[str, str]] = [
        {s.player_id: s.status.value for s in service.results.standings(eid)}
    ]
    api = json.loads(json.dumps(await get_standings(eid, service)))
    surfaces.append({r["player_id"]: r["status"] for r in api})
    reply = await standings_csv(eid, service)
    rows = csv.DictReader(io.StringIO(bytes(reply.body).decode()))
    surfaces.append({r["player_id"]: r["status"] for r in rows})
    for admin in (False, True):
        view: dict[str, Any] = json.loads(
            json.dumps(service.read_models.event_view(eid, admin=admin))
        )
        surfaces.append({r["player_id"]: r["status"] for r in view["standings"]})
    pages = {}
    for pid in surfaces[0]:
        pages[pid] = (await _wm_me(service, eid, pid))["standing"]["status"]
    surfaces.append(pages)
    return surfaces


async def test_players_still_in_finish_the_event_on_every_surface__RP1(
    service: EventService,
) -> None:
    spec = EventSpec(name="Done", points=75, fixed_rounds=2)
    event_id, losers = await round_one_played(service, spec, NAMES)
    leaver = losers[0]
    service.registration.drop_player(event_id, leaver)
    service.rounds.pair_next(event_id)  # three players: a bye
    await service.rounds.start(event_id)

    during = await _statuses(service, event_id)
    stayed = {pid for pid in during[0] if pid != leaver}
    for surface in during:
        assert surface == {leaver: "dropped"} | {pid: "playing" for pid in stayed}

    await first_seats_win(service, event_id, 2)
    assert service.results.standings_and_over(event_id)[1]  # RP1: the event is over

    after = await _statuses(service, event_id)
    for surface in after:
        assert surface == {leaver: "dropped"} | {pid: "finished" for pid in stayed}
    rows = {s.player_id: s for s in service.results.standings(event_id)}
    assert not any(rows[pid].out for pid in stayed)  # finished is not out
    assert rows[leaver].out and rows[leaver].status is Status.DROPPED
    assert rows[leaver].dropped_after == 1
    page = (await _wm_me(service, event_id, sorted(stayed)[0]))["standing"]
    assert page["over"] is True


async def test_runewars_finalist_finishes_the_loser_stays_eliminated__RP1_RP6(
    service: EventService,
) -> None:
    eid = service.registration.create_event(
        EventSpec("RW Done", format_id="runewars2017", fixed_rounds=1, cut_to_top=2)
    ).id
    policy = _policy(service, eid)
    for name in NAMES:
        policy.register(eid, name, 190)
    await _round(service, policy, eid, _swiss)
    first, second, third, fourth = [s.player_id for s in policy.standings(eid)]
    assert {s.status for s in policy.standings(eid)} == {"playing"}
    policy.pair_next(eid)  # the cut: the first two play the final
    finalist = next(s.name for s in policy.standings(eid) if s.player_id == second)
    await _play(service, policy, eid, lambda names: (finalist, 10))

    want = {second: "finished", first: "eliminated", third: "cut", fourth: "cut"}
    assert {s.player_id: s.status for s in policy.standings(eid)} == want
    names = {s.player_id: s.name for s in policy.standings(eid)}
    exported = csv.DictReader(io.StringIO(policy.standings_csv(eid)))
    assert {r["name"]: r["status"] for r in exported} == {names[p]: w for p, w in want.items()}
    admin = service.book.event(eid).admin_token
    winner = (await _me(service, eid, player_key(admin, eid, second)))["standing"]
    assert winner["status"] == "finished" and winner["place"] == 1 and winner["over"] is True
