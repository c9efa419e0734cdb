"""A player's own page (`/me`) says where the player stands, by their row of the
standings: still playing, or out and why: they dropped (after which round), the EO
disqualified them (steamroller-2019.txt: "Disqualified players are not eligible for any
awards or prizes and are barred from further participation in the event", with the EO's
reason), a Cut to Top left them out (RP1: "the remaining tournament rounds are only
played by the top X players"), or (Runewars, RP6) they lost a game of the elimination;
and once the event is over, their final place."""

from __future__ import annotations

import json
from typing import Any

from app.api.player import me
from app.events.base import EventSpec
from app.events.runewars.players import player_key
from app.events.service import EventService
from app.events.tournaments import Policy
from tests.service.first_seats import first_seats_win
from tests.service.test_runewars_cut_winner_service import Winner, _policy, _round, _swiss
from tests.service.test_standings_who_is_out import _event

BASE = "http://deathclock.test/"


async def _me(service: EventService, eid: str, token: str) -> dict[str, Any]:
    """The player's page as the API answers it (through JSON)."""
    answer: dict[str, Any] = json.loads(json.dumps(await me(eid, service, BASE, token)))
    return answer


async def _play(service: EventService, policy: Policy, eid: str, winner: Winner) -> None:
    """Start the round paired and play it out (see `_round`)."""
    await _round(service, policy, eid, winner, pair=False)


async def _wm_me(service: EventService, eid: str, player_id: str) -> dict[str, Any]:
    return await _me(service, eid, service.player_pages.link(eid, player_id))


async def test_my_page_says_i_dropped_was_disqualified_cut_or_play_on__RP1_RP7_ST3(
    service: EventService,
) -> None:
    eid, expected, leaver = await _event(service)
    rows = {s.player_id: s for s in service.results.standings(eid)}

    for pid, status in expected.items():
        standing = (await _wm_me(service, eid, pid))["standing"]
        assert standing["status"] == status.value
        assert standing["place"] == rows[pid].rank and standing["players"] == 8
        assert standing["over"] is False
        assert standing["cut_to"] == 4
    leaving = (await _wm_me(service, eid, leaver))["standing"]
    assert leaving["dropped_after"] == 1 and leaving["reason"] is None
    cheat = next(pid for pid, st in expected.items() if st.value == "disqualified")
    page = await _wm_me(service, eid, cheat)
    assert page["standing"]["reason"] == "Loaded dice"
    assert page["standing"]["dropped_after"] is None
    # Disqualified in round 2 once it started: no notice sends them to a seat to play on.
    kinds = [n["kind"] for n in page["notices"]]
    assert "started" not in kinds and "paired" not in kinds, page["notices"]
    cut = next(pid for pid, st in expected.items() if st.value == "cut")
    page = await _wm_me(service, eid, cut)
    assert page["current"] is None and page["standing"]["reason"] is None
    playing = next(pid for pid, st in expected.items() if st.value == "playing")
    page = await _wm_me(service, eid, playing)
    assert page["current"] is not None and page["current"]["round"] == 2


async def test_my_page_says_the_event_is_over_with_my_final_place__RP1(
    service: EventService,
) -> None:
    eid, expected, _ = await _event(service)
    for number in (2, 3):
        await first_seats_win(service, eid, number)
        if not service.results.event_over(eid):
            service.rounds.pair_next(eid)
            await service.rounds.start(eid)
    assert service.results.event_over(eid)
    rows = {s.player_id: s for s in service.results.standings(eid)}

    for pid, status in expected.items():
        standing = (await _wm_me(service, eid, pid))["standing"]
        assert standing["over"] is True
        # RP1: over, who was still playing finished the event; the others keep why.
        assert standing["status"] == ("finished" if status.value == "playing" else status.value)
        assert standing["place"] == rows[pid].rank
        sharing = {r.name for r in rows.values() if r.rank == rows[pid].rank} - {rows[pid].name}
        assert sorted(standing["tied_with"]) == sorted(sharing)  # ST1: a shared rank, by name


async def test_runewars_my_page_says_i_was_cut_then_eliminated__RP6(
    service: EventService,
) -> None:
    """A top 2 cut after one Swiss round: the third and fourth are cut; the final's loser
    is eliminated in round 2, and the event is over."""
    eid = service.registration.create_event(
        EventSpec("RW Out", format_id="runewars2017", fixed_rounds=1, cut_to_top=2)
    ).id
    policy = _policy(service, eid)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        policy.register(eid, name, 190)
    await _round(service, policy, eid, _swiss)  # Ann first on 10 TP
    admin = service.book.event(eid).admin_token
    key = {s.player_id: player_key(admin, eid, s.player_id) for s in policy.standings(eid)}
    ann, second, third, last = [s.player_id for s in policy.standings(eid)]
    before = (await _me(service, eid, key[third]))["standing"]
    assert before["status"] == "playing" and before["over"] is False

    policy.pair_next(eid)  # the cut: Ann and the second play the final
    for pid in (third, last):
        page = await _me(service, eid, key[pid])
        assert page["current"] is None
        assert page["standing"]["status"] == "cut" and page["standing"]["cut_to"] == 2
        assert page["standing"]["over"] is False
    assert (await _me(service, eid, key[ann]))["standing"]["status"] == "playing"

    finalist = next(s.name for s in policy.standings(eid) if s.player_id == second)
    await _play(service, policy, eid, lambda names: (finalist, 10))
    loser = (await _me(service, eid, key[ann]))["standing"]
    assert loser["status"] == "eliminated" and loser["eliminated_in"] == 2
    assert loser["over"] is True and loser["place"] == 2
    winner = (await _me(service, eid, key[second]))["standing"]
    assert winner["status"] == "finished" and winner["place"] == 1
    assert winner["eliminated_in"] is None
    assert (await _me(service, eid, key[third]))["standing"]["over"] is True
