"""Pairings with a memory through the event service: players' clubs kept apart in round
1 (RP2), fresh tables, the world finals seeding (RP5), and the notes the EO reads."""

from __future__ import annotations

import json

from app.domain.clock import Side
from app.events.base import EventSpec
from app.events.service import EventService
from app.events.table_result import TableResult


def _event(service: EventService, **spec: object) -> str:
    return service.registration.create_event(EventSpec(name="Memory event", **spec)).id  # type: ignore[arg-type]


def _rows(service: EventService, event_id: str, number: int) -> list[dict[str, object]]:
    entry = service.book.rounds(event_id)[number - 1]
    rows: list[dict[str, object]] = json.loads(entry.pairings_json)
    return rows


async def _play(service: EventService, event_id: str) -> None:
    """Start the current round; the first seat wins every game (the EO enters it)."""
    await service.rounds.start(event_id)
    entry = service.book.current_round(event_id)
    assert entry is not None
    for row in json.loads(entry.pairings_json):
        if row["table_id"]:
            result = TableResult(Side.P1, (3, 0), (30, 0))
            await service.results.enter(event_id, row["table_id"], result)


async def test_clubs_are_registered_imported_corrected_and_kept_apart__RP2(
    service: EventService,
) -> None:
    eid = _event(service)
    for n in range(4):
        service.registration.add_player(eid, f"King {n}", "Khador", club="Iron Kings")
    added, errors = service.registration.import_players(
        eid,
        "name,faction,club\nShip 0,Cryx,Black Ships\nShip 1,Cryx,  Black   Ships \nLoner,Cygnar,\n",
    )
    assert errors == [] and [p.club for p in added] == ["Black Ships", "Black Ships", ""]
    loner = added[2]
    service.registration.edit_player(eid, loner.id, "Loner", "Cygnar", "", club="Black Ships")
    extra = service.registration.add_player(eid, "Walk-in", "Cryx")
    assert extra.club == ""
    view = service.read_models.event_view(eid, admin=True)
    clubs = {p["name"]: p["club"] for p in view["players"]}
    assert clubs["Loner"] == "Black Ships" and clubs["King 3"] == "Iron Kings"
    service.rounds.pair_next(eid)
    club_of = {p["id"]: p["club"] for p in view["players"]}
    for row in _rows(service, eid, 1):
        a, b = str(row["p1"]), str(row["p2"])
        assert not club_of[a] or club_of[a] != club_of[b]
    round_view = service.read_models.round_view(eid, 1, admin=True)
    assert round_view["notes"] == []


async def test_a_club_clash_is_noted_for_the_eo_only__RP2(service: EventService) -> None:
    eid = _event(service)
    ann = service.registration.add_player(eid, "Ann", "Khador", club="Iron Kings")
    for name in ("Bob", "Cid"):
        service.registration.add_player(eid, name, "Khador", club="Iron Kings")
    dee = service.registration.add_player(eid, "Dee", "Cygnar")
    service.rounds.pair_next(eid)
    (note,) = service.read_models.round_view(eid, 1, admin=True)["notes"]
    assert note.endswith("are both of Iron Kings: no other pairing kept every club apart")
    service.rounds.swap(eid, ann.id, dee.id)
    swapped = "Ann and Dee were swapped by the EO after the pairing"
    await service.rounds.start(eid)
    assert service.read_models.round_view(eid, 1, admin=True)["notes"] == [note, swapped]
    assert service.read_models.round_view(eid, 1)["notes"] == []  # not on the public page


async def test_fresh_tables_keep_players_off_their_earlier_tables(service: EventService) -> None:
    eid = _event(service, fresh_tables=True)
    assert service.read_models.event_view(eid, admin=True)["event"]["fresh_tables"]
    for n in range(8):
        service.registration.add_player(eid, f"Player {n}", "Khador")
    sat: dict[str, set[int]] = {}
    for number in (1, 2, 3):
        service.rounds.pair_next(eid)
        rows = _rows(service, eid, number)
        notes = service.read_models.round_view(eid, number, admin=True)["notes"]
        repeats = [
            p
            for row in rows
            for p in (row["p1"], row["p2"])
            if int(str(row["table"])) in sat.get(str(p), set())
        ]
        assert len(repeats) == sum(1 for n in notes if "again (as in round" in n)
        assert repeats == []  # four tables for eight players: always avoidable here
        for row in rows:
            for p in (row["p1"], row["p2"]):
                sat.setdefault(str(p), set()).add(int(str(row["table"])))
        await _play(service, eid)


async def test_a_world_final_seeds_round_one_by_qualifier_points__RP5(
    service: EventService,
) -> None:
    eid = _event(service)
    qps = {"Ada": 12, "Ben": 40, "Cal": 25, "Dot": 10, "Eli": 31}
    players = {n: service.registration.add_player(eid, n, "Khador") for n in qps}
    with service.book.unit() as repo:  # as a world final's players are created with their QPs
        for name, player in players.items():
            player.seed_qp = qps[name]
            repo.add(player)
    service.rounds.pair_next(eid)
    ids = {name: p.id for name, p in players.items()}
    got = [(row["table"], row["p1"], row["p2"]) for row in _rows(service, eid, 1)]
    # ranked Ben Eli Cal Ada Dot: Ben has the bye, Eli v Dot, Cal v Ada
    assert got == [(1, ids["Eli"], ids["Dot"]), (2, ids["Cal"], ids["Ada"]), (0, ids["Ben"], None)]
    notes = service.read_models.round_view(eid, 1, admin=True)["notes"]
    assert "Ben has the bye as the first-ranked player" in notes
    seeds = {p["name"]: p["seed_qp"] for p in service.read_models.event_view(eid, True)["players"]}
    assert seeds == qps


async def test_the_finals_round_says_who_plays_for_what_and_seats_the_rest_fresh__ST2(
    service: EventService,
) -> None:
    """Finals Tables with fresh tables: the last round's notes name each finals table's
    players and what it decides (steamroller-2019.txt); the others sit from table 3 on,
    kept off the tables they sat at where it can be, and a repeat is noted at its real
    table number."""
    eid = _event(service, standings="finals", fixed_rounds=3, fresh_tables=True)
    for n in range(8):
        service.registration.add_player(eid, f"Player {n}", "Khador")
    sat: dict[str, set[int]] = {}
    for number in (1, 2):
        service.rounds.pair_next(eid)
        for row in _rows(service, eid, number):
            for p in (row["p1"], row["p2"]):
                sat.setdefault(str(p), set()).add(int(str(row["table"])))
        await _play(service, eid)
    standing = [s["name"] for s in service.read_models.event_view(eid)["standings"]][:4]
    service.rounds.pair_next(eid)
    rows = _rows(service, eid, 3)
    notes = service.read_models.round_view(eid, 3, admin=True)["notes"]
    assert notes[:2] == [
        f"Finals table 1: {standing[0]} (#1) v {standing[1]} (#2); its winner wins the "
        "event, the other player takes second place",
        f"Finals table 2: {standing[2]} (#3) v {standing[3]} (#4); its winner takes third place",
    ]
    rest = [row for row in rows if int(str(row["table"])) > 2]
    assert sorted(int(str(row["table"])) for row in rest) == [3, 4]
    repeats = [
        (p, int(str(row["table"])))
        for row in rest
        for p in (row["p1"], row["p2"])
        if int(str(row["table"])) in sat[str(p)]
    ]
    again = [n for n in notes if "again (as in round" in n]
    assert len(again) == len(repeats)
    assert all(f"at table {table} again" in " ".join(again) for _, table in repeats)
