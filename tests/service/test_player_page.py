"""A player's own page: their token (never in the public API), their table and seat
link, their lists until the event starts; and the pre-game at an event's tables."""

from __future__ import annotations

import json

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError, Unauthorized
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult

BASE = "http://deathclock.test/"


def _event(service: EventService, **spec: object) -> tuple[str, dict[str, str]]:
    event = service.registration.create_event(EventSpec(name="Night", **spec))  # type: ignore[arg-type]
    ids = {}
    painted = event.format_id == "ig2014"  # IG2014: every army declared fully painted
    for name, lists in (("Ann", "Haley\nStryker"), ("Bob", "Kreoss\nSeverius")):
        ids[name] = service.registration.add_player(event.id, name, "", lists, painted=painted).id
    return event.id, ids


async def test_my_page_shows_my_table_seat_link_and_locks_my_lists(service: EventService) -> None:
    eid, ids = _event(service, lists=2)
    token = service.player_pages.link(eid, ids["Ann"])
    assert service.player_pages.link(eid, ids["Ann"]) == token  # the same link each time
    ann = service.player_pages.player_by_token(eid, token)
    assert ann.id == ids["Ann"]
    with pytest.raises(Unauthorized, match="your player link"):
        service.player_pages.player_by_token(eid, "not-a-token")
    public = json.dumps(service.read_models.event_view(eid))
    admin = json.dumps(service.read_models.event_view(eid, admin=True))
    assert token not in public and token not in admin  # never in the API's views

    with pytest.raises(BadInput, match="asks each player for 2"):
        service.player_pages.set_lists(eid, ann, "Haley")
    service.player_pages.set_lists(eid, ann, "Haley Prime; Stryker 3")
    page = service.player_pages.page(eid, service.player_pages.player_by_token(eid, token), BASE)
    assert page["player"]["lists"] == ["Haley Prime", "Stryker 3"]
    assert page["current"] is None and not page["player"]["lists_locked"]

    entry = service.rounds.pair_next(eid)
    page = service.player_pages.page(eid, ann, BASE)
    current = page["current"]
    assert current["opponent"] == "Bob" and current["table_no"] == 1
    room = service.tables.rooms(eid)[0]
    assert room.meta is not None
    seat = room.tokens.p1 if room.meta.p1_player == ids["Ann"] else room.tokens.p2
    assert current["seat_url"] == f"{BASE}t/{room.table_id}#k={seat}"
    await service.rounds.start(eid)
    assert entry.number == 1
    assert service.player_pages.page(eid, ann, BASE)["player"]["lists_locked"]
    with pytest.raises(RuleError, match="lists are locked"):
        service.player_pages.set_lists(eid, ann, "Butcher; Irusk")


async def test_an_event_table_opens_its_pregame_with_each_players_lists(
    service: EventService,
) -> None:
    eid, ids = _event(service, format_id="ig2014", points=50, lists=2, pregame=True)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    (room,) = service.tables.rooms(eid)
    pregame = room.game.pregame
    assert room.game.clock.running is None and pregame is not None
    assert room.meta is not None
    ann_seat = 0 if room.meta.p1_player == ids["Ann"] else 1
    assert pregame.choices[ann_seat] == ("Haley", "Stryker")
    assert pregame.choices[1 - ann_seat] == ("Kreoss", "Severius")


async def test_the_result_and_standings_follow_who_went_first__TS9_ST1(
    service: EventService,
) -> None:
    """The second seat's player wins the roll and goes first: the game's P1 is the
    pairing's second player; the record and the EO's result still go to the right player."""
    eid, ids = _event(service, lists=2, pregame=True)
    service.rounds.pair_next(eid, "spread-the-net")
    await service.rounds.start(eid)
    (room,) = service.tables.rooms(eid)
    assert room.meta is not None
    second = room.meta.p2_player
    first_list = "Haley" if room.meta.p1_player == ids["Ann"] else "Kreoss"
    second_list = "Kreoss" if first_list == "Haley" else "Haley"
    await room.apply(Side.P1, "a", 1, c.ChooseList(first_list))
    await room.apply(Side.P2, "b", 1, c.ChooseList(second_list))
    room.dice = _Loaded([2, 5])  # type: ignore[assignment]
    await room.apply(Side.P1, "a", 2, c.StartingRoll(6))  # the server rolls: 6 is ignored
    await room.apply(Side.P2, "b", 2, c.StartingRoll())
    assert room.game.pregame is not None and room.game.pregame.winner == 1
    await room.apply(Side.P2, "b", 50, c.ChooseOrder(first=True))
    assert room.actor_for("p2") is Side.P1 and room.actor_for("p1") is Side.P2
    assert room.game.names == tuple(reversed(room.game.setup.names))
    await room.apply(Side.P2, "a", 51, c.ChooseEdge(swap=False))
    await room.apply(Side.P1, "b", 52, c.StartClock())
    await room.apply(Side.P2, "a", 53, c.Concede())  # the pairing's first player concedes
    await room.apply(Side.P1, "b", 54, c.ReportGame(30))
    await room.apply(Side.P1, "b", 55, c.ConfirmResult())
    await room.apply(Side.P2, "a", 55, c.ConfirmResult())
    result = service.results.table_result(eid, room.table_id)
    assert result is not None
    assert result.winner is Side.P2  # by seat: the pairing's second player won
    assert result.lists == (first_list, second_list)
    assert service.results.standings(eid)[0].player_id == second
    # The EO corrects it by seat too; the table's sides are flipped for the game.
    await service.results.enter(
        eid, room.table_id, TableResult(Side.P1, (3, 0), (0, 30)), reason="wrong report"
    )
    recorded = room.game.recorded
    assert recorded is not None and recorded.winner is Side.P2
    assert recorded.control_points == (0, 3)
    assert service.results.standings(eid)[0].player_id == room.meta.p1_player


class _Loaded:
    """The server's dice, loaded: these faces in order."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def randint(self, _a: int, _b: int) -> int:
        return self.faces.pop(0)


def test_my_page_shows_my_club(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="Club night"))
    ann = service.registration.add_player(event.id, "Ann", "Cygnar", club="Iron Kings")
    bob = service.registration.add_player(event.id, "Bob", "Khador")
    for player, club in ((ann, "Iron Kings"), (bob, "")):
        token = service.player_pages.link(event.id, player.id)
        me = service.player_pages.player_by_token(event.id, token)
        assert service.player_pages.page(event.id, me, BASE)["player"]["club"] == club
