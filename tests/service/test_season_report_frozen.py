"""ST4: what counts for an Iron Gauntlet season is what was reported. The EO reports
"the names and final standings of the top three players within 14 days of completion
of the event" (masters-champions-2019.txt); once the keeper records the report as sent,
the season counts that report, whatever the event's standings say later. When they
move (a result corrected), the keeper is told how, and may send a corrected report,
with the reason, which the event's log keeps."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from app.domain.errors import BadInput, RuleError, Unauthorized
from app.domain.qualifiers import DAY_MS
from app.events.base import EventSpec, pairings_of
from app.events.service import EventService
from app.events.table_result import TableResult
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime
from tests.service.by_strength import play_by_strength

NAMES = ("Alice", "Bob", "Cara", "Dan")
POSTGRES_URL = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL")


async def _played(service: EventService, name: str, names: Sequence[str] = NAMES) -> str:
    """A Masters event of two rounds played to its end: the player named earlier wins."""
    event = service.registration.create_event(
        EventSpec(name=name, format_id="masters2019", lists=2, fixed_rounds=2)
    )
    for player in names:
        service.registration.add_player(event.id, player)
    await play_by_strength(service, event.id, names)
    return event.id


async def _alice_loses_her_last_game(service: EventService, event_id: str) -> str:
    """The EO corrects the last round's result at Alice's table: her opponent won.
    Returns the opponent's name."""
    names = {p.id: p.name for p in service.book.players(event_id)}
    last = service.book.rounds(event_id)[-1]
    [row] = [r for r in pairings_of(last) if "Alice" in (names[r.p1], names.get(r.p2 or ""))]
    assert row.table_id is not None and row.p2 is not None
    alice_first = names[row.p1] == "Alice"
    result = {
        "winner": "p2" if alice_first else "p1",
        "control_points": [0, 15] if alice_first else [15, 0],
        "army_points_destroyed": [10, 40] if alice_first else [40, 10],
    }
    entry = TableResult.from_wire(result)
    assert await service.results.enter(event_id, row.table_id, entry, "Scores swapped")
    return names[row.p2] if alice_first else names[row.p1]


def _table(service: EventService, season_id: str) -> list[tuple[str, int]]:
    return [(r.name, r.qp) for r in service.seasons.table(season_id)]


def _event(service: EventService, season_id: str, event_id: str) -> dict[str, Any]:
    [found] = [e for e in service.seasons.view(season_id)["events"] if e["id"] == event_id]
    return found


async def test_the_season_counts_the_report_as_sent_and_flags_a_change__ST4(
    service: EventService,
) -> None:
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    key = season.keeper_token
    spring = await _played(service, "Spring Masters")
    service.seasons.hold(season.id, key, spring, service.book.event(spring).admin_token)
    before = [(s.rank, s.name) for s in service.results.standings(spring)][:3]
    assert before[0] == (1, "Alice")
    sent_table = [(before[0][1], 10), (before[1][1], 7), (before[2][1], 4)]
    assert _table(service, season.id) == sent_table

    service.season_reports.sent(season.id, key, spring)
    winner = await _alice_loses_her_last_game(service, spring)
    after = {s.name: s.rank for s in service.results.standings(spring)}
    assert after[winner] == 1 and after["Alice"] > 1  # the event's standings moved
    was = dict(sent_table).get(winner, 0)
    alice_now = {1: 10, 2: 7, 3: 4}.get(after["Alice"], 0)

    # The season still counts the report as sent, and tells the keeper how it differs.
    assert _table(service, season.id) == sent_table
    shown = _event(service, season.id, spring)
    assert [(t["rank"], t["name"], t["qp"]) for t in shown["top_three"]] == [
        (rank, name, qp) for (rank, name), (_, qp) in zip(before, sent_table, strict=True)
    ]
    changed = shown["changed"]
    assert isinstance(changed, str)
    assert changed.startswith("The event's standings changed after the report was sent: ")
    assert f"Alice 10 → {alice_now} QPs" in changed and f"{winner} {was} → 10 QPs" in changed
    changes = {c["name"]: (c["sent_qp"], c["qp"]) for c in shown["changes"]}
    assert changes["Alice"] == (10, alice_now) and changes[winner] == (was, 10)
    assert shown["report"] == "on time"

    # A corrected report: the keeper's key and a reason, or nothing moves.
    reports = service.season_reports
    with pytest.raises(Unauthorized):
        reports.corrected(season.id, "guess", spring, "Scores swapped at table 1")
    with pytest.raises(BadInput, match="say why"):
        reports.corrected(season.id, key, spring, "  ")
    assert _table(service, season.id) == sent_table

    time: FakeTime = service.time  # type: ignore[assignment]
    time.advance(20 * DAY_MS)  # past its 14 days
    corrected = reports.corrected(season.id, key, spring, "Scores swapped at table 1")
    now = {s.name: s.rank for s in service.results.standings(spring)}
    assert corrected["changed"] is None and corrected["changes"] == []
    assert corrected["report"] == "on time"  # its first sending decided that
    assert corrected["corrected_reason"] == "Scores swapped at table 1"
    assert corrected["corrected_ms"] == service.time.now_ms()
    qp = {1: 10, 2: 7, 3: 4}
    top = sorted((rank, name) for name, rank in now.items() if rank in qp)
    assert [(t["name"], t["qp"]) for t in corrected["top_three"]] == [
        (name, qp[rank]) for rank, name in top
    ]
    assert _table(service, season.id)[0] == (winner, 10)
    assert ("Alice", 10) not in _table(service, season.id)
    with pytest.raises(RuleError, match="nothing to correct"):
        reports.corrected(season.id, key, spring, "Again")

    # The event's log keeps both reports, the correction with its reason.
    logged = {a.action: json.loads(a.detail_json) for a in service.book.actions(spring)}
    assert logged["season_report_sent"]["top_three"][0]["name"] == "Alice"
    fixed = logged["season_report_corrected"]
    assert fixed["reason"] == "Scores swapped at table 1"
    assert {c["name"]: (c["from"], c["to"]) for c in fixed["changes"]}[winner] == (was, 10)
    assert "Why: Scores swapped at table 1" in fixed["words"]


async def test_an_unsent_report_follows_the_event_and_matches_stay_by_entry__ST4(
    service: EventService,
) -> None:
    """Not sent yet, the season reads the event as it stands (its QPs count while the
    report is due); sent, its players keep the keeper's matches across events."""
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    key = season.keeper_token
    spring = await _played(service, "Spring Masters")
    summer = await _played(service, "Summer Masters", ("Alice", "Eve", "Finn", "Gus"))
    for event_id in (spring, summer):
        service.seasons.hold(season.id, key, event_id, service.book.event(event_id).admin_token)
    service.season_reports.sent(season.id, key, summer)  # Spring's stays due
    view = service.seasons.view(season.id, keeper=True)
    [alices] = [g for g in view["proposals"] if g[0]["name"] == "Alice"]
    service.seasons.settle(season.id, key, [e["key"] for e in alices], same=True)
    assert _table(service, season.id)[0] == ("Alice", 20)

    winner = await _alice_loses_her_last_game(service, spring)
    spring_view = _event(service, season.id, spring)
    assert spring_view["report"] == "due" and spring_view["changed"] is None
    assert (winner, 10) in _table(service, season.id)  # Spring follows its standings
    place = {s.name: s.rank for s in service.results.standings(spring)}["Alice"]
    alice = {r.name: r for r in service.seasons.table(season.id)}["Alice"]
    assert alice.confirmed and alice.qp == 10 + {1: 10, 2: 7, 3: 4}.get(place, 0) < 20
    with pytest.raises(RuleError, match="has not been sent"):
        service.season_reports.corrected(season.id, key, spring, "Scores swapped")


async def test_a_report_sent_before_reports_were_kept_reads_the_event__ST4(
    tmp_path: Path,
) -> None:
    """A database an older version made: its season rows get the new columns and the
    report lines their table; a report sent then has no lines kept, so the season reads
    the event, until the keeper sends a corrected report, which is kept from then on."""
    await _kept_from_an_older_database(f"sqlite:///{tmp_path / 'old.db'}")


async def test_reports_are_kept_on_a_postgresql_database_made_by_an_older_version__ST4() -> None:
    """The same on PostgreSQL (a database of the test's own)."""
    if not POSTGRES_URL:
        pytest.skip("DEATHCLOCK_TEST_POSTGRES_URL is not set (a PostgreSQL to test against)")
    server = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    name = f"reports_{secrets.token_hex(4)}"
    with server.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    try:
        await _kept_from_an_older_database(POSTGRES_URL.rsplit("/", 1)[0] + "/" + name)
    finally:
        with server.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        server.dispose()


async def _kept_from_an_older_database(url: str) -> None:
    time = FakeTime()
    store = Store(url)
    hub = TableHub(store, time)
    service = EventService(store, hub, time)
    season = service.seasons.create("Iron Gauntlet 2019–2020")
    spring = await _played(service, "Spring Masters")
    service.seasons.hold(
        season.id, season.keeper_token, spring, service.book.event(spring).admin_token
    )
    await service.close()
    await hub.close()
    store.close()
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # as the older version left it, its report sent
        conn.execute(sa.text("DROP TABLE season_report_line"))
        for column in ("ended_ms", "corrected_ms", "corrected_reason"):
            conn.execute(sa.text(f"ALTER TABLE season_event DROP COLUMN {column}"))
        conn.execute(sa.text("UPDATE season_event SET reported_ms = :at"), {"at": time.now_ms()})
    engine.dispose()

    store = Store(url)
    hub = TableHub(store, time)
    hub.load()
    service = EventService(store, hub, time)
    try:
        shown = _event(service, season.id, spring)
        assert (shown["report"], shown["sent"], shown["changed"]) == ("on time", False, None)
        winner = await _alice_loses_her_last_game(service, spring)
        assert _table(service, season.id)[0] == (winner, 10)  # read from the event
        service.season_reports.corrected(season.id, season.keeper_token, spring, "Kept now")
        assert _event(service, season.id, spring)["sent"] is True
        assert _table(service, season.id)[0] == (winner, 10)
    finally:
        await service.close()
        await hub.close()
        store.close()
