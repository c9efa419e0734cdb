"""What a player's own page tells them needs them now: their pairing (the scenario once
the round starts), the round's start, the opponent's report waiting for theirs, the
result the EO entered or corrected, an open vote they have not voted in; and the EO's
count of how many have voted (ST3), never who voted for whom."""

from __future__ import annotations

import json
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult
from app.store.models import PlayerEntry
from app.tables.room import TableRoom

BASE = "http://deathclock.test/"


def _event(service: EventService, names: tuple[str, ...], **spec: object) -> dict[str, str]:
    event = service.registration.create_event(EventSpec(name="Night", **spec))  # type: ignore[arg-type]
    lists = {"Ann": "Haley\nStryker", "Bob": "Kreoss\nSeverius"}
    for name in names:
        service.registration.add_player(event.id, name, "", lists.get(name, ""))
    return {"event": event.id} | {p.name: p.id for p in service.book.players(event.id)}


def _player(service: EventService, eid: str, player_id: str) -> PlayerEntry:
    pages = service.player_pages
    return pages.player_by_token(eid, pages.link(eid, player_id))


def _notices(service: EventService, eid: str, player_id: str) -> list[dict[str, Any]]:
    page = service.player_pages.page(eid, _player(service, eid, player_id), BASE)
    notices: list[dict[str, Any]] = page["notices"]
    return notices


def _kinds(service: EventService, eid: str, player_id: str) -> list[str]:
    return [n["kind"] for n in _notices(service, eid, player_id)]


async def _swap_seats(room: TableRoom, first_list: str, second_list: str) -> None:
    """The pre-game: the second seat's player wins the starting roll and goes first."""
    await room.apply(Side.P1, "a", 1, c.ChooseList(first_list))
    await room.apply(Side.P2, "b", 1, c.ChooseList(second_list))
    room.dice = _Loaded([2, 5])  # type: ignore[assignment]
    await room.apply(Side.P1, "a", 2, c.StartingRoll())
    await room.apply(Side.P2, "b", 2, c.StartingRoll())
    await room.apply(Side.P2, "b", 3, c.ChooseOrder(first=True))
    assert room.actor_for("p2") is Side.P1  # the second seat now plays the first side
    await room.apply(Side.P2, "a", 4, c.ChooseEdge(swap=False))
    await room.apply(Side.P1, "b", 5, c.StartClock())


async def test_a_player_is_told_pairing_start_report_and_the_eos_result_after_a_seat_swap__TS9(
    service: EventService,
) -> None:
    ids = _event(service, ("Ann", "Bob"), lists=2, pregame=True)
    eid = ids["event"]
    assert _notices(service, eid, ids["Ann"]) == []

    service.rounds.pair_next(eid, "spread-the-net")
    (room,) = service.tables.rooms(eid)
    assert room.meta is not None
    first, second = room.meta.p1_player, room.meta.p2_player
    name = {ids["Ann"]: "Ann", ids["Bob"]: "Bob"}
    paired = _notices(service, eid, first)
    assert [n["kind"] for n in paired] == ["paired"]
    assert paired[0]["text"] == f"Round 1: you play {name[second]} at table 1."  # no scenario yet
    assert name[first] in _notices(service, eid, second)[0]["text"]

    await service.rounds.start(eid)
    started = _notices(service, eid, first)
    assert [n["kind"] for n in started] == ["started", "paired"]  # newest first
    assert started[0]["text"] == "Round 1 has started: open your seat."
    assert started[0]["url"] == f"{BASE}t/{room.table_id}#k={room.tokens.p1}"
    assert started[1]["key"] == paired[0]["key"]  # the same pairing: the same key
    assert started[1]["text"].endswith("Scenario: Spread the Net.")

    first_list = "Haley" if first == ids["Ann"] else "Kreoss"
    await _swap_seats(room, first_list, "Kreoss" if first_list == "Haley" else "Haley")
    # The round's time is up; the second seat's player (the first side) reports: the
    # first seat's player is told.
    await room.apply(c.Role.EO, "eo", 1, c.CallTie())
    await room.apply(Side.P1, "b", 11, c.ReportGame(30))
    waiting = _notices(service, eid, first)
    assert [n["kind"] for n in waiting] == ["report"]  # the game is over: no start, no pairing
    assert waiting[0]["text"] == (
        f"{name[second]} has reported your game: open your seat and report yours."
    )
    assert waiting[0]["url"] == f"{BASE}t/{room.table_id}#k={room.tokens.p1}"
    assert _kinds(service, eid, second) == []  # they reported: nothing waits for them

    await room.apply(Side.P2, "a", 12, c.ReportGame(0))
    assert _kinds(service, eid, first) == []
    await room.apply(Side.P1, "b", 13, c.ConfirmResult())
    await room.apply(Side.P2, "a", 13, c.ConfirmResult())

    # The EO corrects the settled result (by seat: the first seat's player wins).
    await service.results.enter(
        eid, room.table_id, TableResult(Side.P1, (3, 0), (30, 0)), reason="wrong caster"
    )
    (eo,) = _notices(service, eid, first)
    assert eo["kind"] == "eo_result"
    assert eo["text"] == (
        f"The EO corrected the result at table 1: {name[first]} wins by the organiser's "
        "decision. Reason: wrong caster"
    )
    assert _notices(service, eid, second) == [eo]  # both players are told the same
    assert _notices(service, eid, first)[0]["key"] == eo["key"]  # stable while it stands
    await service.results.enter(
        eid, room.table_id, TableResult(Side.P2, (0, 3), (0, 30)), reason="the first was right"
    )
    (again,) = _notices(service, eid, first)
    assert again["key"] != eo["key"] and name[second] in again["text"]
    assert "P1" not in again["text"] and "P2" not in again["text"]


async def test_the_eo_entering_a_disputed_result_tells_both_players(
    service: EventService,
) -> None:
    ids = _event(service, ("Ann", "Bob"))
    eid = ids["event"]
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    (room,) = service.tables.rooms(eid)
    assert room.meta is not None
    await room.apply(Side.P1, "a", 1, c.Concede())
    await room.apply(Side.P2, "b", 1, c.ReportGame(40))
    await room.apply(Side.P1, "a", 2, c.DisputeResult("I never conceded"))
    assert _kinds(service, eid, room.meta.p1_player) == []
    await service.results.enter(
        eid, room.table_id, TableResult(Side.P1, (2, 0), (10, 0)), reason="the judge saw it"
    )
    for player in (room.meta.p1_player, room.meta.p2_player):
        (eo,) = _notices(service, eid, player)
        assert eo["text"].startswith("The EO entered the result at table 1: ")
        assert eo["text"].endswith("Reason: the judge saw it")


async def test_a_bye_is_told_as_the_players_pairing(service: EventService) -> None:
    ids = _event(service, ("Ann", "Bob", "Cid"))
    eid = ids["event"]
    service.rounds.pair_next(eid)
    told = {n: _notices(service, eid, ids[n]) for n in ("Ann", "Bob", "Cid")}
    byes = [n for n, notices in told.items() if notices[0]["key"] == "bye:1"]
    assert len(byes) == 1 and told[byes[0]][0]["text"] == "Round 1: you have the bye."


async def test_an_open_vote_is_told_until_the_player_votes_with_their_own_link__ST3(
    service: EventService,
) -> None:
    ids = _event(service, ("Ann", "Bob", "Cid", "Dee"), painting_category="Best Army")
    eid = ids["event"]
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    ann = _player(service, eid, ids["Ann"])
    assert ann.token is not None
    assert "vote" not in _kinds(service, eid, ids["Ann"])
    service.prizes.open_vote(eid, "best_painted")

    (vote,) = [n for n in _notices(service, eid, ids["Ann"]) if n["kind"] == "vote"]
    assert vote["text"] == "The vote for Best-Painted is open: cast your vote."
    assert vote["url"] == f"{BASE}e/{eid}/vote#k={ann.token}"
    assert _notices(service, eid, ids["Ann"])[0] == vote  # the newest first
    turnout = _turnout(service, eid)
    assert turnout == {"voted": 0, "voters": 4}
    assert "turnout" not in _prize(service.prizes.view(eid))  # the public sees no count

    # Ann votes with her own player link's token, not a seat link.
    assert service.prizes.voter(eid, ann.token).id == ids["Ann"]
    service.prizes.cast_vote(eid, ann.token, "best_painted", ids["Bob"])
    assert "vote" not in _kinds(service, eid, ids["Ann"])
    assert "vote" in _kinds(service, eid, ids["Bob"])
    service.prizes.cast_vote(eid, ann.token, "best_painted", ids["Cid"])  # replaces her vote
    assert _turnout(service, eid) == {"voted": 1, "voters": 4}
    seen = json.dumps(service.prizes.view(eid, eo=True))
    assert ids["Cid"] not in seen.split('"entries"')[0] and '"votes"' not in seen

    service.eligibility.disqualify(eid, ids["Dee"])  # no longer eligible: not counted, not told
    assert _turnout(service, eid) == {"voted": 1, "voters": 3}
    assert "vote" not in _kinds(service, eid, ids["Dee"])
    service.prizes.close_vote(eid, "best_painted")
    assert "turnout" not in _prize(service.prizes.view(eid, eo=True))
    assert "vote" not in _kinds(service, eid, ids["Bob"])


def _prize(view: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in view["prizes"] if p["id"] == "best_painted")
    return found


def _turnout(service: EventService, eid: str) -> dict[str, int]:
    turnout: dict[str, int] = _prize(service.prizes.view(eid, eo=True))["turnout"]
    return turnout


class _Loaded:
    """The server's dice, loaded: these faces in order."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def randint(self, _a: int, _b: int) -> int:
        return self.faces.pop(0)


async def test_a_past_rounds_corrected_result_is_told_to_both_its_players__TS9(
    service: EventService,
) -> None:
    """Round 2 is paired; the EO then corrects a round 1 result, with a reason. Both of
    that table's players are told, after their round 2 pairing; the results the EO
    simply entered in round 1 are not told again, and the other table hears nothing."""
    ids = _event(service, ("Ann", "Bob", "Cid", "Dan"))
    eid = ids["event"]
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    rooms = service.tables.rooms(eid)
    for room in rooms:
        await service.results.enter(eid, room.table_id, TableResult(Side.P1, (3, 0), (30, 0)))
    service.rounds.pair_next(eid)
    first, other = rooms
    assert first.meta is not None and other.meta is not None
    for player in (first.meta.p1_player, first.meta.p2_player, other.meta.p1_player):
        assert _kinds(service, eid, player) == ["paired"]  # round 2's pairing only
    await service.results.enter(
        eid, first.table_id, TableResult(Side.P2, (0, 3), (0, 30)), reason="wrong caster"
    )
    names = {v: k for k, v in ids.items()}
    for player in (first.meta.p1_player, first.meta.p2_player):
        paired, corrected = _notices(service, eid, player)
        assert paired["text"].startswith("Round 2: you play ")
        assert corrected["kind"] == "eo_result"
        assert corrected["text"] == (
            f"Round 1: The EO corrected the result at table {first.meta.table_no}: "
            f"{names[first.meta.p2_player]} wins by the organiser's decision. "
            "Reason: wrong caster"
        )
    for player in (other.meta.p1_player, other.meta.p2_player):
        assert _kinds(service, eid, player) == ["paired"]
