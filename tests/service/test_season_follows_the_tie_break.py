"""ST4 with ST3: a Masters event whose final standings tie two players on every total
(ST1) at first place. Until the EO places them, the season counts them as sharing the
place (both 1st, 10 QPs each), as the standings show; once the EO breaks the tie on the
prizes page, the season counts the places the prizes give: one truth on both."""

from __future__ import annotations

from app.domain import commands as c
from app.domain.clock import Side
from app.events.base import EventSpec
from app.events.service import EventService


async def _tied_masters(service: EventService) -> str:
    """Four players, one round; the second seat concedes at both tables: the winners are
    equal on TP, SoS, CP and APD, and so are the losers."""
    spec = EventSpec(name="Tie Masters", format_id="masters2019", lists=2, fixed_rounds=1)
    event = service.registration.create_event(spec)
    for name in ("Alice", "Bob", "Cara", "Dan"):
        service.registration.add_player(event.id, name)
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    for room in service.tables.rooms(event.id):
        await room.apply(Side.P2, "l", 1, c.Concede())
        await room.apply(Side.P1, "w", 1, c.ReportGame(20))
        await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
        await room.apply(Side.P2, "p2", 2, c.ConfirmResult())
    assert service.results.event_over(event.id)
    return event.id


def _report(service: EventService, season_id: str, event_id: str) -> list[tuple[str, int, int]]:
    [held] = [e for e in service.seasons.view(season_id)["events"] if e["id"] == event_id]
    return sorted((t["name"], t["rank"], t["qp"]) for t in held["top_three"])


async def test_the_season_counts_the_places_the_eo_gives_among_the_tied__ST4_ST3(
    service: EventService,
) -> None:
    event_id = await _tied_masters(service)
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    admin = service.book.event(event_id).admin_token
    service.seasons.hold(season.id, season.keeper_token, event_id, admin)
    rows = service.results.standings(event_id)
    first = sorted(r.name for r in rows if r.rank == 1)
    third = sorted(r.name for r in rows if r.rank == 3)
    assert _report(service, season.id, event_id) == sorted(
        [(first[0], 1, 10), (first[1], 1, 10), (third[0], 3, 4), (third[1], 3, 4)]
    )  # shared, as the standings show them

    ids = {p.name: p.id for p in service.book.players(event_id)}
    service.prizes.award(event_id, "first", ids[first[1]])
    service.prizes.award(event_id, "third", ids[third[0]])

    assert _report(service, season.id, event_id) == sorted(
        [(first[1], 1, 10), (first[0], 2, 7), (third[0], 3, 4)]
    )
    view = service.prizes.view(event_id)
    said = {p["id"]: p["winner"]["name"] for p in view["prizes"] if p["winner"]}
    assert said == {"first": first[1], "second": first[0], "third": third[0]}
