"""A disqualified player earns no qualifier points and holds no season place, through the
event service: "Disqualified players are not eligible for any awards or prizes"
(iron-gauntlet-2014.txt and masters-champions-2019.txt, Sportsmanship). As the prizes
page does (ST3), their place passes to the next eligible player: the standings rows, the
event's own view, the season's report and its table all follow the prizes' order, while
the standings' order itself stays as it was."""

from __future__ import annotations

from collections.abc import Sequence

from app.events.base import EventSpec
from app.events.service import EventService
from tests.service.by_strength import play_by_strength

NAMES = ("Alice", "Bob", "Cara", "Dan")


async def _played(service: EventService, format_id: str, names: Sequence[str] = NAMES) -> str:
    """An event played to its end, the EO entering each result: the player named earlier
    wins, with more control points the stronger the winner (the standings follow the
    order of `names`)."""
    ig = format_id == "ig2014"
    event = service.registration.create_event(
        EventSpec(
            name=f"{format_id} qualifier",
            format_id=format_id,
            points=50 if ig else 75,
            lists=None if ig else 2,
        )
    )
    for name in names:
        service.registration.add_player(
            event.id, name, "Cygnar", "Caine\nStryker" if ig else "", painted=True
        )
    await play_by_strength(service, event.id, names)
    return event.id


def _prize_places(service: EventService, event_id: str) -> list[str]:
    """The prizes page's 1st, 2nd and 3rd, by name."""
    prizes = {p["id"]: p for p in service.prizes.view(event_id)["prizes"]}
    return [prizes[place]["winner"]["name"] for place in ("first", "second", "third")]


async def _disqualify_the_leader(service: EventService, event_id: str) -> str:
    leader = service.results.standings(event_id)[0]
    await service.discipline.disqualify(event_id, leader.player_id, "Cheating")
    return leader.name


async def test_a_disqualified_leader_earns_no_season_qps_and_places_pass_down__ST3_ST4(
    service: EventService,
) -> None:
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    eid = await _played(service, "masters2019", NAMES)
    service.seasons.hold(season.id, season.keeper_token, eid, service.book.event(eid).admin_token)
    order = [s.name for s in service.results.standings(eid)]
    [event] = service.seasons.view(season.id)["events"]
    assert [(t["rank"], t["name"], t["qp"]) for t in event["top_three"]] == [
        (1, order[0], 10),
        (2, order[1], 7),
        (3, order[2], 4),
    ]
    assert await _disqualify_the_leader(service, eid) == order[0] == "Alice"

    prizes = _prize_places(service, eid)
    assert prizes == order[1:4]  # 1st, 2nd and 3rd pass down: the prizes page's order
    # Each says where its winner stands on the standings themselves (one place lower).
    places = {p["id"]: p for p in service.prizes.view(eid)["prizes"]}
    assert [places[k]["standing"] for k in ("first", "second", "third")] == [2, 3, 4]
    [event] = service.seasons.view(season.id)["events"]
    assert [(t["rank"], t["name"], t["qp"]) for t in event["top_three"]] == [
        (1, prizes[0], 10),
        (2, prizes[1], 7),
        (3, prizes[2], 4),
    ]
    assert event["players"] == 4  # the field is still the field
    table = service.seasons.view(season.id)["players"]
    assert [(r["name"], r["qp"], r["events"][0]["rank"]) for r in table] == [
        (prizes[0], 10, 1),
        (prizes[1], 7, 2),
        (prizes[2], 4, 3),
    ]
    assert [r.name for r in service.seasons.table(season.id)] == prizes
    report = service.season_reports.report(season.id, eid)
    assert [(t["rank"], t["name"]) for t in report["top_three"]] == [
        (1, prizes[0]),
        (2, prizes[1]),
        (3, prizes[2]),
    ]
    # The standings themselves are unchanged: Alice still leads them.
    assert [s.name for s in service.results.standings(eid)] == order


async def test_a_disqualified_leaders_qps_pass_down_on_the_standings_rows__ST3_ST4(
    service: EventService,
) -> None:
    eid = await _played(service, "ig2014")
    before = service.results.standings(eid)
    order = [s.name for s in before]
    assert order[0] == "Alice" and [s.rank for s in before] == [1, 2, 3, 4]
    assert [s.qualifier_points for s in before] == [10, 8, 6, 4]
    assert await _disqualify_the_leader(service, eid) == "Alice"

    assert _prize_places(service, eid) == order[1:4]
    rows = service.results.standings(eid)  # the standings API and its CSV
    assert [s.name for s in rows] == order  # the order is unchanged
    assert [s.rank for s in rows] == [1, 2, 3, 4]
    passed_down = [0, 10, 8, 6]  # 2nd takes 1st place's 10 QPs, and so on
    assert [s.qualifier_points for s in rows] == passed_down
    view = service.read_models.event_view(eid)  # the standings page and the player page
    shown = [(s["name"], s["qualifier_points"]) for s in view["standings"]]
    assert shown == list(zip(order, passed_down, strict=True))


async def test_a_lifted_disqualification_gives_the_qps_back__ST3_ST4(
    service: EventService,
) -> None:
    eid = await _played(service, "ig2014")
    alice = service.results.standings(eid)[0]
    await service.discipline.disqualify(eid, alice.player_id, "Cheating")
    assert service.results.standings(eid)[0].qualifier_points == 0
    await service.discipline.lift(eid, alice.player_id, "Another player's conduct")
    rows = service.results.standings(eid)
    assert [s.qualifier_points for s in rows][:2] == [10, 8]
    assert service.read_models.event_view(eid)["standings"][0]["qualifier_points"] == 10
