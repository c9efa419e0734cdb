"""The table service against the real stores: SQLite file, and PostgreSQL by URL."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import SQLModel

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.status import LIVE
from app.store.repository import Store
from app.tables import room as room_module
from app.tables.fanout import Subscriber
from app.tables.hub import TableHub
from app.tables.jsontext import loads
from app.tables.quick import QuickGame
from app.tables.room import TableMeta, TableRoom, table_status
from app.tables.timesource import FakeTime

POSTGRES_URL = os.environ.get("DEATHCLOCK_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
    else:
        if not POSTGRES_URL:
            pytest.skip("DEATHCLOCK_TEST_POSTGRES_URL is not set (a PostgreSQL to test against)")
        url = POSTGRES_URL
        SQLModel.metadata.drop_all(Store(url).engine)
    store = Store(url)
    yield store
    if request.param == "postgres":
        SQLModel.metadata.drop_all(store.engine)
    store.close()


async def test_hub_rebuilds_every_table_from_the_log(store: Store) -> None:
    time = FakeTime()
    hub = TableHub(store, time, random.Random(7))
    room = hub.create(QuickGame(clock_minutes=30, scenario="anarchy", p1_name="Ann", p2_name="Bo"))
    other = hub.create(QuickGame(points=50))
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    time.advance(12_345)
    await room.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    time.advance(1_000)
    with pytest.raises(RuleError):
        await room.apply(Side.P1, "d1", 3, c.PassTurn(expect=Side.P1))
    await hub.close()

    time.advance(60_000)
    again = TableHub(store, time)
    assert again.load() == 2
    rebuilt = again.rooms[room.table_id]
    assert rebuilt.version == room.version == 2
    assert rebuilt.game == room.game
    assert rebuilt.game.setup.names == ("Ann", "Bo")
    assert rebuilt.game.remaining(Side.P2, time.now_ms()) == 30 * 60_000 - 61_000
    assert again.rooms[other.table_id].game.setup.player_clock_ms == 42 * 60_000  # DC1
    dup = await rebuilt.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    assert dup.duplicate and dup.version == 2
    await again.close()


async def test_flag_found_after_downtime_is_logged_at_the_exact_moment__DC7(
    store: Store,
) -> None:
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_seconds=30, scenario="bunkers"))
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    started = time.now_ms()
    await hub.close()
    time.advance(45_000)
    again = TableHub(store, time)
    again.load()
    rebuilt = again.rooms[room.table_id]
    await rebuilt.apply(c.Role.SYSTEM, "", 0, c.FlagCheck())
    log = store.log(room.table_id)
    assert [e.command_json for e in log] == ['{"c":"start"}', '{"c":"flag"}']
    assert log[-1].at_ms == started + 30_000
    assert rebuilt.game.flagged is Side.P1
    await again.close()


async def test_the_flag_timer_waits_for_the_lesser_clock_then_flags_exactly__DC7(
    store: Store,
) -> None:
    """The timer is armed at the earliest moment either clock could reach zero; when the
    side with less time is not the one running it fires early, finds no flag and arms
    itself again, and the running clock is still flagged at its exact moment."""
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_seconds=600, scenario="bunkers"))
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    await room.apply(c.Role.EO, "eo", 1, c.AdjustClock(side=Side.P2, remaining_ms=60_000))
    started = time.now_ms()
    for step in range(590):  # P1 runs with 600 s; P2, stopped, has 60 s
        time.advance(1_000)
        await asyncio.sleep(0)
        assert room.game.flagged is None, step
    time.advance(10_000)
    for _ in range(5):
        await asyncio.sleep(0)
    if room.flags._checking is not None:  # its log write may still be on its way (PostgreSQL)
        await room.flags._checking
    assert room.game.flagged is Side.P1
    flag = store.log(room.table_id)[-1]
    assert flag.command_json == '{"c":"flag"}'
    assert flag.at_ms == started + 600_000
    assert [e.command_json for e in store.log(room.table_id)].count('{"c":"flag"}') == 1
    await hub.close()


async def _settle(room: TableRoom) -> None:
    """P1 concedes (TS8), both report and confirm: the result is settled. An event's
    table starts with its round, which the organiser starts."""
    if room.meta is None:
        await room.apply(Side.P1, "d1", 1, c.StartClock())
    else:
        await room.apply(c.Role.EO, "", 0, c.StartClock())
    await room.apply(Side.P1, "d1", 2, c.Concede())
    await room.apply(Side.P1, "d1", 3, c.ReportGame(army_points_destroyed=0))
    await room.apply(Side.P2, "d2", 1, c.ReportGame(army_points_destroyed=75))
    await room.apply(Side.P1, "d1", 4, c.ConfirmResult())
    await room.apply(Side.P2, "d2", 2, c.ConfirmResult())
    assert table_status(room.game) == "confirmed"


async def test_quick_games_that_are_over_leave_memory_and_come_back_from_the_store(
    store: Store,
) -> None:
    time = FakeTime()
    hub = TableHub(store, time)
    settled = hub.create(QuickGame(points=75, scenario="bunkers"))
    await _settle(settled)
    conceded = hub.create(QuickGame(points=75, scenario="bunkers"))  # nobody reported yet
    await conceded.apply(Side.P1, "d1", 1, c.StartClock())
    await conceded.apply(Side.P1, "d1", 2, c.Concede())
    watched = hub.create(QuickGame(points=75, scenario="bunkers"))
    await _settle(watched)
    watcher = Subscriber("watch")
    watched.join(watcher, None)
    running = hub.create(QuickGame(points=75, scenario="bunkers"))
    await running.apply(Side.P1, "d1", 1, c.StartClock())
    fresh = hub.create(QuickGame(points=75, scenario="bunkers"))  # nobody has started it
    for room in (settled, conceded, watched):
        assert table_status(room.game) not in LIVE
    for room in (running, fresh):
        assert table_status(room.game) in LIVE

    assert hub.released == 0
    assert hub.unload_idle() == 2  # the games over that nobody has open
    assert set(hub.rooms) == {watched.table_id, running.table_id, fresh.table_id}
    assert hub.released == 2  # counted for the collector's full walk (app.collector)
    back = hub.get(settled.table_id)
    assert back is not None and back is not settled
    assert back.version == settled.version and back.game == settled.game
    assert loads(back.snapshot("watch"))["game"] == loads(settled.snapshot("watch"))["game"]
    again_conceded = hub.get(conceded.table_id)
    assert again_conceded is not None and again_conceded.game == conceded.game
    dup = await again_conceded.apply(Side.P1, "d1", 2, c.Concede())  # a re-sent command
    assert dup.duplicate and dup.version == conceded.version

    watched.leave(watcher)
    hub.left(running)  # nothing happens for a game in play
    assert running.table_id in hub.rooms
    hub.left(watched)  # the last screen of a game that is over closed: it goes at once
    assert watched.table_id not in hub.rooms
    assert hub.released == 3

    time.advance(60 * 60_000)  # an hour on: the untouched game goes too, the running one stays
    assert hub.unload_idle() == 3
    assert set(hub.rooms) == {running.table_id}
    assert hub.released == 6
    assert hub.get(fresh.table_id) is not None and fresh.table_id in hub.rooms
    assert hub.get("nosuchid") is None
    await hub.close()

    again = TableHub(store, time)  # a restart reads only what is live
    assert again.load() == 2 and set(again.rooms) == {running.table_id, fresh.table_id}
    assert again.get(settled.table_id) is not None
    await again.close()


async def test_event_tables_stay_in_memory_when_over(store: Store) -> None:
    hub = TableHub(store, FakeTime())
    meta = TableMeta("ev1", round_number=1, table_no=1, p1_player="a", p2_player="b")
    room = hub.open_table(QuickGame(points=75, scenario="bunkers").setup(random.Random()), meta)
    await _settle(room)
    assert hub.unload_idle(idle_ms=0) == 0 and hub.event_tables("ev1") == [room]
    await hub.close()


async def test_taps_never_checkpoint_the_sqlite_log_a_thread_of_its_own_does(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'wal.db'}", checkpoint_every_s=3600)
    hub = TableHub(store, FakeTime())
    room = hub.create(QuickGame(clock_minutes=60))
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    for seq in range(2, 1500):
        await room.apply(c.Role.EO, "eo", seq, c.AdjustClock(Side.P1, 60_000 + seq))
    writer = store._writer()
    assert writer.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    checkpoints = store._checkpoints
    assert checkpoints is not None
    busy, frames, copied = checkpoints.run_once()
    assert busy == 0 and frames > 1000 and copied == frames  # all of it was left to us
    assert len(store.log(room.table_id)) == 1499
    await hub.close()
    store.close()
    assert not checkpoints.thread.is_alive()


def test_a_database_of_an_older_version_loses_its_retired_columns(tmp_path: Path) -> None:
    """An older version's round had `finished` (NOT NULL): left in place, it would
    refuse every new round."""
    import sqlite3

    path = tmp_path / "old.db"
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE event_round ADD COLUMN finished BOOLEAN NOT NULL DEFAULT 0")
    store = Store(f"sqlite:///{path}")
    try:
        with sqlite3.connect(path) as conn:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(event_round)")}
        assert "finished" not in columns and "end_calls_json" in columns
    finally:
        store.close()


def test_a_new_yes_no_column_reaches_an_older_database(store: Store) -> None:
    """A boolean column added later (a player's `disqualified`) comes in as false, on
    SQLite and on PostgreSQL (which takes no 0 for a boolean)."""
    from sqlalchemy import text

    from app.store.models import EventRecord, PlayerEntry

    with store.engine.begin() as conn:
        conn.execute(text('ALTER TABLE player DROP COLUMN "disqualified"'))
    url = store.engine.url.render_as_string(hide_password=False)
    again = Store(url)
    try:
        with again.session() as session:
            session.add(
                EventRecord(
                    id="ev",
                    name="Old",
                    format_id="sr2019",
                    points=75,
                    admin_token="t",
                    created_ms=0,
                )
            )
            session.commit()
        with again.engine.begin() as conn:  # a row written without the new column
            conn.execute(
                text(
                    "INSERT INTO player (id, event_id, name, faction, lists, list_note, "
                    "dropped, joined_round, cut) "
                    "VALUES ('p', 'ev', 'Ann', '', '', '', false, 1, false)"
                )
            )
        with again.session() as session:
            player = session.get(PlayerEntry, "p")
            assert player is not None and player.disqualified is False
    finally:
        again.close()


async def test_a_pregame_replays_with_the_servers_rolls_and_the_seats_it_settled(
    store: Store,
) -> None:
    """The starting roll is logged with the server's dice, so a restart rolls nothing
    again; the seat whose player goes first is still P1."""
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_minutes=30, scenario="bunkers", p1_name="Ann", p2_name="Bo"))
    await room.apply(c.Role.SYSTEM, "", 0, c.OpenPregame())
    await room.apply(Side.P1, "a", 1, c.ChooseList("Haley"))
    await room.apply(Side.P2, "b", 1, c.ChooseList("Kreoss"))
    await room.apply(Side.P1, "a", 2, c.ChooseObjective("Armory"))
    await room.apply(Side.P2, "b", 2, c.ChooseObjective("Dugout"))
    room.dice = random.Random(11)
    seq = 3
    while room.game.pregame is not None and room.game.pregame.winner is None:
        for side in (Side.P1, Side.P2):
            await room.apply(side, "ab"[side], seq, c.StartingRoll())
        seq += 1
    pregame = room.game.pregame
    assert pregame is not None and pregame.winner is not None
    winner = room.actor_for(("p1", "p2")[pregame.winner])
    await room.apply(winner, "w", 1, c.ChooseOrder(first=False))
    await room.apply(room.actor_for(("p1", "p2")[pregame.winner]), "w", 2, c.ChooseEdge(swap=True))
    assert room.game.pregame is not None and room.game.pregame.done
    first_seat = "p2" if room.game.pregame.swapped else "p1"
    assert room.actor_for(first_seat) is Side.P1
    await hub.close()

    again = TableHub(store, time)
    again.load()
    rebuilt = again.rooms[room.table_id]
    assert rebuilt.game == room.game
    assert rebuilt.actor_for(first_seat) is Side.P1
    rolls = [loads(e.command_json) for e in store.log(room.table_id)]
    rolls = [r["value"] for r in rolls if r["c"] == "roll"]
    assert len(rolls) >= 2 and all(1 <= v <= 6 for v in rolls)  # the server's dice, logged
    await again.close()


async def test_sockets_reaching_a_table_not_in_memory_read_it_once_off_the_loop(
    store: Store,
) -> None:
    time = FakeTime()
    hub = TableHub(store, time, random.Random(3))
    room = hub.create(QuickGame(clock_minutes=30))
    await room.apply(Side.P1, "d1", 1, c.StartClock())
    await room.apply(Side.P1, "d1", 2, c.PassTurn(expect=Side.P1))
    await hub.close()

    other = TableHub(store, time)  # another process: the table is only in the store
    first, second = await asyncio.gather(other.open(room.table_id), other.open(room.table_id))
    assert first is second is other.rooms[room.table_id]
    assert first is not None and first.version == 2 and first.game == room.game
    assert await other.open("no-such-table") is None
    await other.close()


async def test_a_crowd_of_sockets_for_tables_not_in_memory_reads_them_in_one_go(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hall's Wi-Fi came back: phones reach a worker that has not read their tables
    (one of them past its snapshot); the tables come in one read, each as it was."""
    time = FakeTime()
    hub = TableHub(store, time, random.Random(5))
    rooms = [hub.create(QuickGame(clock_minutes=30)) for _ in range(6)]
    for room in rooms:
        await room.apply(Side.P1, "d1", 1, c.StartClock())
    monkeypatch.setattr(room_module, "SNAPSHOT_EVERY", 2)  # a snapshot within deployment
    long = rooms[0]
    for seq in range(2, 5):
        side = long.game.clock.running
        assert side is not None
        await long.apply(side, f"d-{side.value}", seq, c.PassTurn(expect=side))
    await hub.close()
    assert store.snapshot(long.table_id) is not None

    other = TableHub(store, time)  # another worker: the tables are only in the store
    ids = [room.table_id for room in rooms]
    opened = await asyncio.gather(*(other.open(t) for t in [*ids, "no-such-table", ids[2]]))
    assert opened[-2] is None and opened[-1] is opened[2]
    for room, again in zip(rooms, opened, strict=False):
        assert again is other.rooms[room.table_id]
        assert (again.version, again.game) == (room.version, room.game)
    assert other._tails.reads <= 2  # the first socket's read, then everyone else's
    await other.close()


async def test_the_log_keeps_no_key_on_its_table_and_an_older_database_loses_it(
    store: Store,
) -> None:
    """The log's foreign key on its table locked the table's row at every tap on
    PostgreSQL; an older database loses it there (SQLite keeps an older file's key, which
    only costs a lookup), and a deleted table still goes with its log, key or none."""
    from sqlalchemy import inspect, text

    def log_keys(of: Store) -> list[str]:
        return [key["referred_table"] for key in inspect(of.engine).get_foreign_keys("table_log")]

    assert log_keys(store) == []
    sqlite = store.url.startswith("sqlite")
    with store.engine.begin() as conn:  # the log as an older version made it
        if sqlite:
            made = conn.execute(text("SELECT sql FROM sqlite_master WHERE name = 'table_log'"))
            keyed = made.scalar_one().replace(
                "PRIMARY KEY (id)",
                "PRIMARY KEY (id), FOREIGN KEY(table_id) REFERENCES game_table (id)",
            )
            conn.execute(text("DROP TABLE table_log"))
            conn.execute(text(keyed))
        else:
            conn.execute(
                text(
                    "ALTER TABLE table_log ADD CONSTRAINT table_log_table_id_fkey "
                    "FOREIGN KEY (table_id) REFERENCES game_table (id)"
                )
            )
    assert log_keys(store) == ["game_table"]
    again = Store(store.engine.url.render_as_string(hide_password=False))
    try:
        assert log_keys(again) == (["game_table"] if sqlite else [])
        hub = TableHub(again, FakeTime(), random.Random(3))
        room = hub.create(QuickGame())
        await room.apply(Side.P1, "d1", 1, c.StartClock())
        await hub.close()
        again.delete_table(room.table_id)
        assert again.table(room.table_id) is None and again.log(room.table_id) == []
    finally:
        again.close()


def test_the_tables_in_play_are_found_by_an_index_an_older_database_gets_too(
    store: Store,
) -> None:
    """Every worker's sweep looks for the tables still in play: `game_table.status` is
    indexed, so a season of finished games is not walked through each time; a database
    made before the index gets it at start."""
    from sqlalchemy import inspect, text

    def indexed(of: Store) -> bool:
        return any(
            index["column_names"] == ["status"]
            for index in inspect(of.engine).get_indexes("game_table")
        )

    assert indexed(store)
    with store.engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_game_table_status"))
    assert not indexed(store)
    again = Store(store.engine.url.render_as_string(hide_password=False))
    try:
        assert indexed(again)
    finally:
        again.close()
