"""A season through the event service: Iron Gauntlet qualifiers (IGQs) played to their
end, their QPs in the season table once the keeper has said who is who, the top-three
report and its due date, the world final seeded from the season, and a Masters
tournament's qualifiers (shared/seeds/masters-champions-2019.txt)."""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Sequence

import pytest
import sqlalchemy as sa

from app.domain.errors import NotFound, RuleError, Unauthorized
from app.domain.qualifiers import DAY_MS, MASTERS_QUALIFIERS
from app.events.base import EventSpec, pairings_of
from app.events.seasons import FinalSpec
from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from tests.service.by_strength import play_by_strength

MIN = 60_000
POSTGRES_URL = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL")


async def play_event(
    service: EventService,
    name: str,
    players: Sequence[str],
    format_id: str = "masters2019",
    rounds: int | None = None,
) -> str:
    """An event played to its end, the EO entering each result: the player named earlier
    in `players` wins, with more control points the stronger the winner (so the final
    standings follow the order given)."""
    lists = 2 if format_id == "masters2019" else None
    event = service.registration.create_event(
        EventSpec(name=name, format_id=format_id, lists=lists, fixed_rounds=rounds)
    )
    for player in players:
        service.registration.add_player(event.id, player)
    await play_by_strength(service, event.id, players)
    return event.id


def _qp(service: EventService, season_id: str) -> list[tuple[str, int, bool]]:
    return [(r.name, r.qp, r.confirmed) for r in service.seasons.table(season_id)]


def _keys(service: EventService, season_id: str, name: str) -> list[str]:
    view = service.seasons.view(season_id, keeper=True)
    [group] = [g for g in view["proposals"] if g[0]["name"] == name]
    return [e["key"] for e in group]


async def test_a_season_of_three_igqs_seeds_a_nine_player_world_final__ST4_RP5(
    service: EventService,
) -> None:
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    key = season.keeper_token
    first = await play_event(service, "Spring Masters", ["Alice", "Bob", "Cara", "Dan"])
    second = await play_event(
        service, "Summer Champions", ["Alice", "Bob", "Eve", "Finn"], "champions2019"
    )
    third = await play_event(service, "Autumn Masters", ["Alice", "Cara", "Gus", "Hal"])
    for event_id in (first, second, third):
        service.seasons.hold(season.id, key, event_id, service.book.event(event_id).admin_token)
    [top] = [e for e in service.seasons.view(season.id)["events"] if e["id"] == first]
    assert [(t["rank"], t["name"], t["qp"]) for t in top["top_three"]] == [
        (1, "Alice", 10),
        (2, "Bob", 7),
        (3, "Cara", 4),
    ]
    # Nobody is matched by name: each Alice counts on her own line until the keeper says.
    assert _qp(service, season.id) == [
        ("Alice", 10, False),
        ("Alice", 10, False),
        ("Alice", 10, False),
        ("Bob", 7, False),
        ("Bob", 7, False),
        ("Cara", 7, False),
        ("Cara", 4, False),
        ("Eve", 4, False),
        ("Gus", 4, False),
    ]
    with pytest.raises(RuleError, match="3 names appear in more than one event"):
        service.seasons.create_final(season.id, key, FinalSpec(name="World final"))
    with pytest.raises(Unauthorized):
        service.seasons.settle(season.id, "not the key", _keys(service, season.id, "Alice"), True)
    service.seasons.settle(season.id, key, _keys(service, season.id, "Alice"), same=True)
    service.seasons.settle(season.id, key, _keys(service, season.id, "Bob"), same=True)
    service.seasons.settle(season.id, key, _keys(service, season.id, "Cara"), same=False)
    assert service.seasons.view(season.id, keeper=True)["proposals"] == []
    assert _qp(service, season.id) == [
        ("Alice", 30, True),
        ("Bob", 14, True),
        ("Cara", 7, True),
        ("Cara", 4, True),
        ("Eve", 4, False),
        ("Gus", 4, False),
    ]
    rows = {(r.name, r.qp): r for r in service.seasons.table(season.id)}
    assert rows["Bob", 14].qualified and not rows["Cara", 7].qualified  # 10 or more QPs
    assert [(a.event_name, a.rank, a.qp) for a in rows["Bob", 14].awards] == [
        ("Spring Masters", 2, 7),
        ("Summer Champions", 2, 7),
    ]

    qp_list = "name,QPs\nIvy,25\nJon,20\nKim,18\nOla,16\nLeo,12\nMia,11\nNed,10\n"
    spec = FinalSpec(name="World final", format_id="masters2019", lists=2, qp_list=qp_list)
    final = service.seasons.create_final(season.id, key, spec)
    seeds = {p.name: p.seed_qp for p in service.book.players(final.id)}
    assert seeds == {
        "Alice": 30,
        "Ivy": 25,
        "Jon": 20,
        "Kim": 18,
        "Ola": 16,
        "Bob": 14,
        "Leo": 12,
        "Mia": 11,
        "Ned": 10,
    }
    assert service.seasons.season(season.id).final_event_id == final.id
    # RP5: ranked by QPs, #1 against the last, #2 against the second-last…; an odd
    # field's bye goes to #1.
    names = {p.id: p.name for p in service.book.players(final.id)}
    first_round = pairings_of(service.rounds.pair_next(final.id))
    assert [(names[r.p1], r.p2 and names[r.p2]) for r in first_round] == [
        ("Ivy", "Ned"),
        ("Jon", "Mia"),
        ("Kim", "Leo"),
        ("Ola", "Bob"),
        ("Alice", None),
    ]
    with pytest.raises(RuleError, match="has its final already"):
        service.seasons.create_final(season.id, key, spec)


async def test_the_top_three_are_due_14_days_after_the_event_ends__ST4(
    service: EventService,
) -> None:
    time: FakeTime = service.time  # type: ignore[assignment]
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    event_id = await play_event(service, "City Masters", ["Alice", "Bob", "Cara", "Dan"])
    ended = time.now_ms() - MIN  # the last result went in a minute before play_event returned
    time.advance(3 * DAY_MS)  # the report is asked for later: the due date does not move
    service.seasons.hold(
        season.id, season.keeper_token, event_id, service.book.event(event_id).admin_token
    )
    report = service.season_reports.report(season.id, event_id)
    assert report["finished_ms"] == ended
    assert report["report_due_ms"] == ended + 14 * DAY_MS
    assert [(r["rank"], r["name"]) for r in report["top_three"]] == [
        (1, "Alice"),
        (2, "Bob"),
        (3, "Cara"),
    ]
    assert report["field_note"].startswith("4 players: an officially sanctioned")


async def test_only_masters_or_champions_events_over_both_keys_are_igqs__ST4(
    service: EventService,
) -> None:
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    steamroller = service.registration.create_event(EventSpec(name="Local Steamroller"))
    with pytest.raises(RuleError, match="only Masters or Champions events"):
        service.seasons.hold(
            season.id, season.keeper_token, steamroller.id, steamroller.admin_token
        )
    masters = service.registration.create_event(
        EventSpec(name="Masters", format_id="masters2019", lists=2)
    )
    with pytest.raises(Unauthorized, match="EO's link"):
        service.seasons.hold(season.id, season.keeper_token, masters.id, "guess")
    with pytest.raises(Unauthorized, match="keeper"):
        service.seasons.hold(season.id, masters.admin_token, masters.id, masters.admin_token)
    service.seasons.hold(season.id, season.keeper_token, masters.id, masters.admin_token)
    with pytest.raises(RuleError, match="in this season already"):
        service.seasons.hold(season.id, season.keeper_token, masters.id, masters.admin_token)
    # Not over: no QPs yet, and no report.
    assert service.seasons.table(season.id) == []
    with pytest.raises(RuleError, match="not over yet"):
        service.season_reports.report(season.id, masters.id)


async def test_a_masters_final_needs_32_distinct_players_in_its_qualifiers(
    service: EventService,
) -> None:
    season = service.seasons.create("Convention Masters", kind=MASTERS_QUALIFIERS)
    key = season.keeper_token
    names = [f"Player {n:02d}" for n in range(1, 32)]
    one = await play_event(service, "Qualifier A", names[:16], rounds=1)
    two = await play_event(service, "Qualifier B", [*names[16:], "Player 01"], rounds=1)
    for event_id in (one, two):
        service.seasons.hold(season.id, key, event_id, service.book.event(event_id).admin_token)
    spec = FinalSpec(name="Masters final", per_qualifier=4)
    # Player 01 played both: the keeper settles it before anything is counted.
    with pytest.raises(RuleError, match="1 name appears in more than one event"):
        service.seasons.create_final(season.id, key, spec)
    service.seasons.settle(season.id, key, _keys(service, season.id, "Player 01"), same=True)
    assert service.seasons.field_problem(season.id) == (
        31,
        "a Masters tournament populated through qualifiers needs at least 32 distinct "
        "players in the qualifiers; these qualifiers had 31",
    )
    with pytest.raises(RuleError, match="these qualifiers had 31"):
        service.seasons.create_final(season.id, key, spec)
    # The keeper finds they were two people after all: 32 distinct players.
    service.seasons.settle(season.id, key, _keys_of(service, season.id, "Player 01"), same=False)
    assert service.seasons.field_problem(season.id) == (32, None)
    final = service.seasons.create_final(season.id, key, spec)
    field = service.book.players(final.id)
    assert len(field) == 8  # four from each qualifier
    assert all(p.seed_qp is None for p in field)


def _keys_of(service: EventService, season_id: str, name: str) -> list[str]:
    """Every entry of the season's events under this name (settled or not)."""
    return [
        f"{e['id']}:{p.id}"
        for e in service.seasons.view(season_id)["events"]
        for p in service.book.players(e["id"])
        if p.name == name
    ]


async def test_a_season_is_kept_on_postgresql_too() -> None:
    """The season's tables join the schema a PostgreSQL database is made with (a
    database of the test's own, so that no other test's tables are touched)."""
    if not POSTGRES_URL:
        pytest.skip("DEATHCLOCK_TEST_POSTGRES_URL is not set (a PostgreSQL to test against)")
    server = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    name = f"seasons_{secrets.token_hex(4)}"
    with server.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    url = POSTGRES_URL.rsplit("/", 1)[0] + "/" + name
    try:
        time = FakeTime()
        store = Store(url)
        hub = TableHub(store, time, random.Random(3))
        service = EventService(store, hub, time, random.Random(3))
        season = service.seasons.create("Iron Gauntlet 2019–2020")
        event = service.registration.create_event(
            EventSpec(name="Champions", format_id="champions2019")
        )
        service.seasons.hold(season.id, season.keeper_token, event.id, event.admin_token)
        await service.close()
        await hub.close()
        store.close()
        again = Store(url)
        reread = EventService(again, TableHub(again, time), time)
        assert [e["name"] for e in reread.seasons.view(season.id)["events"]] == ["Champions"]
        await reread.close()
        again.close()
    finally:
        with server.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        server.dispose()


async def test_a_qp_list_pasted_on_a_world_final_seeds_its_players__RP5(
    service: EventService,
) -> None:
    final = service.registration.create_event(
        EventSpec(name="World final", format_id="champions2019")
    )
    assert service.seasons.import_qp_list(final.id, "Ann, 12\nBob,31\n") == 2
    assert {p.name: p.seed_qp for p in service.book.players(final.id)} == {"Ann": 12, "Bob": 31}
    with pytest.raises(RuleError, match="Bob is already registered"):
        service.seasons.import_qp_list(final.id, "Bob,31")
    steamroller = service.registration.create_event(EventSpec(name="Local Steamroller"))
    with pytest.raises(RuleError, match="Masters or Champions"):
        service.seasons.import_qp_list(steamroller.id, "Ann, 12")


async def test_an_event_added_by_mistake_comes_out_until_the_final_is_made__ST4(
    service: EventService,
) -> None:
    """The keeper takes an IGQ out of the season: its players and QPs leave the table,
    the matches the keeper made stay for when it comes back, and nothing moves once the
    final is made from the season's events."""
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    key = season.keeper_token
    spring = await play_event(service, "Spring Masters", ["Alice", "Bob", "Cara", "Dan"])
    wrong = await play_event(service, "Wrong Masters", ["Alice", "Eve", "Finn", "Gus"])
    for event_id in (spring, wrong):
        service.seasons.hold(season.id, key, event_id, service.book.event(event_id).admin_token)
    service.seasons.settle(season.id, key, _keys(service, season.id, "Alice"), same=True)
    assert ("Alice", 20, True) in _qp(service, season.id)

    with pytest.raises(Unauthorized, match="keeper"):
        service.seasons.release(season.id, service.book.event(wrong).admin_token, wrong)
    with pytest.raises(NotFound, match="not one of the season's"):
        service.seasons.release(season.id, key, "no-such-event")
    assert len(service.seasons.held(season.id)) == 2  # a refusal takes nothing out

    service.seasons.release(season.id, key, wrong)
    assert [h.event.id for h in service.seasons.held(season.id)] == [spring]
    assert _qp(service, season.id) == [("Alice", 10, True), ("Bob", 7, False), ("Cara", 4, False)]
    with pytest.raises(NotFound, match="not one of the season's"):
        service.seasons.release(season.id, key, wrong)

    # Back in with its EO's link: Alice is still one player over both events.
    service.seasons.hold(season.id, key, wrong, service.book.event(wrong).admin_token)
    assert ("Alice", 20, True) in _qp(service, season.id)

    service.seasons.create_final(season.id, key, FinalSpec(name="World final"))
    with pytest.raises(RuleError, match="Wrong Masters stays in the season"):
        service.seasons.release(season.id, key, wrong)
    assert len(service.seasons.held(season.id)) == 2


async def test_an_igq_reported_late_or_not_at_all_earns_no_qps__ST4(
    service: EventService,
) -> None:
    """masters-champions-2019.txt: the top three are reported within 14 days of the
    event's end, or the event is no official IGQ and its players receive no QPs from it.
    While the 14 days run, the QPs count; the keeper records when the report was sent."""
    time: FakeTime = service.time  # type: ignore[assignment]
    reports = service.season_reports
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    key = season.keeper_token
    in_play = service.registration.create_event(
        EventSpec(name="Winter Masters", format_id="masters2019", lists=2)
    )
    service.seasons.hold(season.id, key, in_play.id, in_play.admin_token)
    with pytest.raises(RuleError, match="not over yet"):
        reports.sent(season.id, key, in_play.id)
    service.seasons.release(season.id, key, in_play.id)

    on_time = await play_event(service, "Spring Masters", ["Alice", "Bob", "Cara", "Dan"])
    late = await play_event(service, "Summer Masters", ["Eve", "Finn", "Gus", "Hal"])
    unsent = await play_event(service, "Autumn Masters", ["Ivy", "Jon", "Kim", "Leo"])
    for event_id in (on_time, late, unsent):
        service.seasons.hold(season.id, key, event_id, service.book.event(event_id).admin_token)

    def standing() -> dict[str, str]:
        return {e["name"]: e["report"] for e in service.seasons.view(season.id)["events"]}

    assert set(standing().values()) == {"due"}  # within their 14 days: the QPs count
    assert {name for name, _, _ in _qp(service, season.id)} == {
        "Alice", "Bob", "Cara", "Eve", "Finn", "Gus", "Ivy", "Jon", "Kim"
    }  # fmt: skip
    with pytest.raises(Unauthorized, match="keeper"):
        reports.sent(season.id, "guess", on_time)
    time.advance(13 * DAY_MS)
    sent = reports.sent(season.id, key, on_time)
    assert (sent["report"], sent["reported_ms"]) == ("on time", time.now_ms())
    with pytest.raises(RuleError, match="recorded as sent already"):
        reports.sent(season.id, key, on_time)

    time.advance(2 * DAY_MS)  # past every event's 14 days
    assert reports.sent(season.id, key, late)["report"] == "late"
    assert standing() == {
        "Spring Masters": "on time",
        "Summer Masters": "late",
        "Autumn Masters": "missed",
    }
    assert _qp(service, season.id) == [("Alice", 10, False), ("Bob", 7, False), ("Cara", 4, False)]
    assert reports.report(season.id, unsent)["report"] == "missed"

    masters = service.seasons.create("Lock & Load Masters", MASTERS_QUALIFIERS)
    service.seasons.hold(
        masters.id, masters.keeper_token, on_time, service.book.event(on_time).admin_token
    )
    with pytest.raises(RuleError, match="nothing to report"):
        reports.sent(masters.id, masters.keeper_token, on_time)
