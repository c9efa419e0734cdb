"""Prizes (ST3) and standings variants (ST2) through the event service: a real SQLite
store, fake time, seat links as the players' ballots."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError, Unauthorized
from app.events.base import EventSpec
from app.events.service import EventService
from app.tables.room import TableRoom


async def _event(service: EventService, players: int, **spec: object) -> tuple[str, list[str]]:
    """An event with round 1 paired and started; each player's seat token, by name."""
    event = service.registration.create_event(EventSpec(name="Prize day", **spec))  # type: ignore[arg-type]
    for n in range(players):
        service.registration.add_player(event.id, "ABCDEFGH"[n], "Cygnar")
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    return event.id, [p.id for p in service.book.players(event.id)]


def _tokens(service: EventService, event_id: str) -> dict[str, str]:
    """Each player's seat token (their last table's), by player name."""
    names = {p.id: p.name for p in service.book.players(event_id)}
    tokens = {}
    for room in service.tables.rooms(event_id):
        assert room.meta is not None
        tokens[names[room.meta.p1_player]] = room.tokens.p1
        tokens[names[room.meta.p2_player]] = room.tokens.p2
    return tokens


def _ids(service: EventService, event_id: str) -> dict[str, str]:
    return {p.name: p.id for p in service.book.players(event_id)}


def _prize(service: EventService, event_id: str, prize_id: str) -> dict[str, object]:
    view = service.prizes.view(event_id)
    found: dict[str, object] = next(p for p in view["prizes"] if p["id"] == prize_id)
    return found


async def test_a_blind_vote_with_a_tie_and_a_second_vote_among_the_tied__ST3(
    service: EventService,
) -> None:
    eid, _ = await _event(service, 4, painting_category="Best Army")
    token, ids = _tokens(service, eid), _ids(service, eid)
    service.prizes.open_vote(eid, "best_painted")
    ballot = service.prizes.ballot_view(eid, token["A"])
    assert [v["prize"] for v in ballot["ballots"]] == ["best_painted"]
    assert [e["name"] for e in ballot["ballots"][0]["entries"]] == ["A", "B", "C", "D"]
    assert ballot["ballots"][0]["category"] == "Best Army"

    service.prizes.cast_vote(eid, token["A"], "best_painted", ids["A"])  # one's own entry counts
    service.prizes.cast_vote(eid, token["B"], "best_painted", ids["B"])
    service.prizes.cast_vote(eid, token["C"], "best_painted", ids["A"])
    service.prizes.cast_vote(eid, token["D"], "best_painted", ids["C"])
    service.prizes.cast_vote(eid, token["D"], "best_painted", ids["B"])  # replaces D's first vote
    assert service.prizes.ballot_view(eid, token["D"])["ballots"][0]["my_vote"] == ids["B"]

    running = _prize(service, eid, "best_painted")
    assert running["status"] == "open" and running["counts"] == [] and running["winner"] is None

    service.prizes.close_vote(eid, "best_painted")
    tied = _prize(service, eid, "best_painted")
    assert tied["status"] == "closed" and tied["winner"] is None
    first = tied["counts"][0]  # type: ignore[index]
    assert {v["name"]: v["votes"] for v in first["votes"]} == {"A": 2, "B": 2, "C": 0, "D": 0}
    assert [p["name"] for p in first["leaders"]] == ["A", "B"]
    with pytest.raises(RuleError, match="not open"):
        service.prizes.cast_vote(eid, token["C"], "best_painted", ids["A"])  # closed: no more votes
    with pytest.raises(RuleError, match="tied entries only"):
        service.prizes.award(eid, "best_painted", ids["C"])

    service.prizes.open_vote(eid, "best_painted")  # the second vote: the tied entries only
    second = service.prizes.ballot_view(eid, token["C"])["ballots"][0]
    assert second["stage"] == 2 and [e["name"] for e in second["entries"]] == ["A", "B"]
    assert second["my_vote"] is None  # a new vote: everyone votes again
    with pytest.raises(BadInput, match="entries shown"):
        service.prizes.cast_vote(eid, token["C"], "best_painted", ids["C"])
    for voter, choice in (("A", "A"), ("B", "A"), ("C", "B"), ("D", "A")):
        service.prizes.cast_vote(eid, token[voter], "best_painted", ids[choice])
    assert (
        _prize(service, eid, "best_painted")["counts"]
        and len(
            _prize(service, eid, "best_painted")["counts"]  # type: ignore[arg-type]
        )
        == 1
    )  # the second vote has no count until it closes
    service.prizes.close_vote(eid, "best_painted")
    won = _prize(service, eid, "best_painted")
    assert won["status"] == "awarded" and won["by"] == "vote"
    assert won["winner"] == {"id": ids["A"], "name": "A"}
    assert service.prizes.ballot_view(eid, token["A"])["ballots"] == []


async def test_the_eo_breaks_a_tie_among_the_tied__ST3(service: EventService) -> None:
    eid, _ = await _event(service, 4)
    token, ids = _tokens(service, eid), _ids(service, eid)
    service.prizes.open_vote(eid, "best_sport", [ids["C"], ids["D"]])
    service.prizes.cast_vote(eid, token["A"], "best_sport", ids["C"])
    service.prizes.cast_vote(eid, token["B"], "best_sport", ids["D"])
    service.prizes.close_vote(eid, "best_sport")
    service.prizes.award(eid, "best_sport", ids["D"])
    won = _prize(service, eid, "best_sport")
    assert won["status"] == "awarded" and won["by"] == "eo" and won["winner"]["name"] == "D"  # type: ignore[index]


async def test_only_a_players_own_seat_link_votes__ST3(service: EventService) -> None:
    eid, _ = await _event(service, 2)
    ids = _ids(service, eid)
    service.prizes.open_vote(eid, "best_sport")
    room: TableRoom = service.tables.rooms(eid)[0]
    for bad in (None, "", "nonsense", room.tokens.watch, room.tokens.eo):
        with pytest.raises(Unauthorized, match="seat link"):
            service.prizes.cast_vote(eid, bad, "best_sport", ids["A"])


async def test_a_disqualified_player_neither_wins_nor_votes__ST3(service: EventService) -> None:
    eid, _ = await _event(service, 4)
    token, ids = _tokens(service, eid), _ids(service, eid)
    for room in service.tables.rooms(eid):  # P2 concedes at every table
        await room.apply(Side.P2, "l", 1, c.Concede())
        await room.apply(Side.P1, "w", 1, c.ReportGame(20))
        await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
        await room.apply(Side.P2, "p2", 2, c.ConfirmResult())
    leader = service.results.standings(eid)[0]
    service.eligibility.disqualify(eid, leader.player_id)
    first = _prize(service, eid, "first")["winner"]
    assert first is not None and first["id"] != leader.player_id  # type: ignore[index]
    assert service.book.player(eid, leader.player_id).dropped  # never paired again
    with pytest.raises(RuleError, match="lift the disqualification"):
        service.registration.drop_player(eid, leader.player_id, dropped=False)
    with pytest.raises(RuleError, match="disqualified"):
        service.prizes.award(eid, "best_sport", leader.player_id)
    service.prizes.open_vote(eid, "best_sport")
    entries = service.prizes.ballot_view(eid, token["A"] if leader.name != "A" else token["B"])
    assert leader.player_id not in {e["id"] for e in entries["ballots"][0]["entries"]}
    with pytest.raises(RuleError, match="disqualified"):
        service.prizes.cast_vote(eid, token[leader.name], "best_sport", ids["A"])


async def test_the_standings_variant_chosen_at_creation_orders_the_standings__ST2(
    service: EventService,
) -> None:
    eid, _ = await _event(service, 2, standings="destruction")
    room = service.tables.rooms(eid)[0]
    await room.apply(Side.P2, "l", 1, c.Concede())
    await room.apply(Side.P1, "w", 1, c.ReportGame(20))
    await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
    await room.apply(Side.P2, "p2", 2, c.ConfirmResult())
    view = service.read_models.event_view(eid)
    assert view["event"]["standings_name"] == "Destruction Scoring"
    assert view["standings"][0]["tp"] == 1  # the winner has the APD (the concession's half)
    with pytest.raises(BadInput, match="standings variant"):
        service.registration.create_event(EventSpec(name="X", standings="fastest"))


async def test_finals_tables_pair_the_top_four_in_the_last_round__ST2(
    service: EventService,
) -> None:
    eid, _ = await _event(service, 8, standings="finals", fixed_rounds=2)
    for room in service.tables.rooms(eid):
        await room.apply(Side.P2, "l", 1, c.Concede())
        await room.apply(Side.P1, "w", 1, c.ReportGame(20))
        await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
        await room.apply(Side.P2, "p2", 2, c.ConfirmResult())
    top = [s.player_id for s in service.results.standings(eid)[:4]]
    service.rounds.pair_next(eid)
    rows = service.read_models.round_view(eid, 2, admin=True)["pairings"]
    finals = [(r["p1"]["id"], r["p2"]["id"]) for r in rows[:2]]
    assert finals == [(top[0], top[1]), (top[2], top[3])]


async def test_a_vote_nobody_cast_can_be_held_again__ST3(service: EventService) -> None:
    eid, _ = await _event(service, 4)
    token, ids = _tokens(service, eid), _ids(service, eid)
    service.prizes.open_vote(eid, "best_sport")
    service.prizes.close_vote(eid, "best_sport")
    empty = _prize(service, eid, "best_sport")
    assert empty["status"] == "closed" and empty["counts"][0]["leaders"] == []  # type: ignore[index]
    service.prizes.open_vote(eid, "best_sport", [ids["A"], ids["B"]])
    service.prizes.cast_vote(eid, token["C"], "best_sport", ids["B"])
    service.prizes.close_vote(eid, "best_sport")
    assert _prize(service, eid, "best_sport")["winner"] == {"id": ids["B"], "name": "B"}
    with pytest.raises(RuleError, match="already awarded"):
        service.prizes.open_vote(eid, "best_sport")


async def test_an_awarded_prize_stays_awarded__ST3(service: EventService) -> None:
    """A prize won by a clear vote is not given to someone else by a second award (a
    second EO tab still showing the Award button); the same winner again changes nothing."""
    eid, _ = await _event(service, 4)
    token, ids = _tokens(service, eid), _ids(service, eid)
    service.prizes.open_vote(eid, "best_sport")
    service.prizes.cast_vote(eid, token["A"], "best_sport", ids["B"])
    service.prizes.cast_vote(eid, token["C"], "best_sport", ids["B"])
    service.prizes.close_vote(eid, "best_sport")
    won = _prize(service, eid, "best_sport")
    assert won["winner"] == {"id": ids["B"], "name": "B"} and won["by"] == "vote"
    before = len(service.book.actions(eid))

    with pytest.raises(RuleError, match="already awarded to B"):
        service.prizes.award(eid, "best_sport", ids["C"])
    service.prizes.award(eid, "best_sport", ids["B"])  # the same winner: nothing happens

    assert _prize(service, eid, "best_sport") == won  # still B's, still by the vote
    assert len(service.book.actions(eid)) == before  # nothing logged


async def test_the_eos_award_stays_awarded_too__ST3(service: EventService) -> None:
    eid, _ = await _event(service, 4)
    ids = _ids(service, eid)
    service.prizes.award(eid, "best_sport", ids["A"])
    with pytest.raises(RuleError, match="already awarded to A"):
        service.prizes.award(eid, "best_sport", ids["D"])
    assert _prize(service, eid, "best_sport")["winner"] == {"id": ids["A"], "name": "A"}


async def test_a_prize_whose_winner_is_disqualified_is_awarded_again__ST3(
    service: EventService,
) -> None:
    """Disqualified players are not eligible for any award: the EO gives it to another."""
    eid, _ = await _event(service, 4)
    ids = _ids(service, eid)
    service.prizes.award(eid, "best_sport", ids["A"])
    service.eligibility.disqualify(eid, ids["A"])
    service.prizes.award(eid, "best_sport", ids["B"])
    assert _prize(service, eid, "best_sport")["winner"] == {"id": ids["B"], "name": "B"}


async def test_a_place_the_standings_tie_on_every_total_is_the_eos_to_give__ST3(
    service: EventService,
) -> None:
    # ST1 ranks by TP, SoS, CP and APD and the documents break a tie no further: two
    # players equal on all four share first place, and the alphabet does not decide.
    eid, _ = await _event(service, 4, fixed_rounds=1)
    with pytest.raises(RuleError, match="once the event is over"):
        service.prizes.award(eid, "first", _ids(service, eid)["A"])
    for room in service.tables.rooms(eid):  # P2 concedes at every table: equal winners
        await room.apply(Side.P2, "l", 1, c.Concede())
        await room.apply(Side.P1, "w", 1, c.ReportGame(20))
        await room.apply(Side.P1, "p1", 2, c.ConfirmResult())
        await room.apply(Side.P2, "p2", 2, c.ConfirmResult())
    assert service.results.event_over(eid)
    rows = service.results.standings(eid)
    winners = [r.player_id for r in rows if r.rank == 1]
    losers = [r.player_id for r in rows if r.rank == 3]
    assert len(winners) == 2 and len(losers) == 2
    for place in ("first", "second"):
        prize = _prize(service, eid, place)
        assert (prize["status"], prize["winner"]) == ("tied", None), place
        assert {p["id"] for p in prize["tied"]} == set(winners)  # type: ignore[attr-defined]
    third = _prize(service, eid, "third")
    assert third["status"] == "tied" and {p["id"] for p in third["tied"]} == set(losers)  # type: ignore[attr-defined]
    with pytest.raises(RuleError, match="is among"):
        service.prizes.award(eid, "first", losers[0])
    service.prizes.award(eid, "second", winners[1])  # the EO places one: the other is first
    first, second = _prize(service, eid, "first"), _prize(service, eid, "second")
    assert first["winner"]["id"] == winners[0] and first["status"] == "standings"  # type: ignore[index]
    assert second["winner"]["id"] == winners[1] and second["by"] == "eo"  # type: ignore[index]
    with pytest.raises(RuleError, match="no tie for the EO to break"):
        service.prizes.award(eid, "first", winners[1])
    service.prizes.award(eid, "second", winners[0])  # chosen again among the same two
    assert _prize(service, eid, "first")["winner"]["id"] == winners[1]  # type: ignore[index]
    logged = [a for a in service.book.actions(eid) if a.action == "award"]
    assert len(logged) == 2
