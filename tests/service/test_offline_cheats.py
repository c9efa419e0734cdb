"""The offline merge's bounds, at the table (fake clock): an offline queue only right after
its phone's return, wherever it is merged; notes of time moved that wait for the EO are
never let go; a queue that contradicts itself is its phone's own refusal, while one that
disagrees with what the other phone did meanwhile still goes to the EO."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.merge import MergeRefused
from app.domain.time_moved import NOTES_KEPT, NoteState, TimeMoved, kept
from app.domain.time_moved_rules import SettleTimeMoved
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.offline import OFFLINE_WINDOW_MS, PHONES_PER_SEAT, Gap
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

SECOND = 1_000
MIN = 60 * SECOND
P1, P2 = Side.P1, Side.P2


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[TableRoom, FakeTime]]:
    store = Store(f"sqlite:///{tmp_path / 'cheats.db'}")
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(
        QuickGame(clock_minutes=60, scenario="bunkers", p1_name="Alice", p2_name="Bob")
    )
    await room.apply(P1, "phone-1", 1, c.StartClock())
    yield room, time
    await hub.close()
    store.close()


def tap(side: Side) -> c.PassTurn:
    return c.PassTurn(expect=side)


def back(room: TableRoom, phone: str) -> Gap:
    gap = room.arrive(phone)
    assert gap is not None
    return gap


def note(i: int, state: NoteState = NoteState.OPEN) -> TimeMoved:
    return TimeMoved(i, P1, P2, 5 * SECOND, i * MIN, (i * MIN, i * MIN + 10 * SECOND), None, state)


# -- an offline queue only right after the phone's return ------------------------------


async def test_a_queue_merged_past_the_window_is_refused_and_changes_nothing__DC3(
    table: tuple[TableRoom, FakeTime],
) -> None:
    """However the queue reaches the table (a worker may forward it), its phone's return
    is the moment the window runs from, by the server's clock."""
    room, time = table
    room.heard("p1:phone-1")
    left = time.now_ms()
    time.advance(4 * SECOND)
    gap = back(room, "p1:phone-1")
    time.advance(OFFLINE_WINDOW_MS + 1)
    version, game = room.version, room.game
    with pytest.raises(BadInput, match="too late for an offline queue"):
        await room.merge_offline(P1, "phone-1", gap, version, [(2, left, tap(P1))])
    assert room.version == version and room.game == game and not room.merge_refused


async def test_a_queue_within_the_window_still_merges__DC3(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    room.heard("p1:phone-1")
    left = time.now_ms()
    time.advance(4 * SECOND)
    gap = back(room, "p1:phone-1")
    time.advance(OFFLINE_WINDOW_MS)
    await room.merge_offline(P1, "phone-1", gap, room.version, [(2, left + SECOND, tap(P1))])
    assert room.game.clock.running is P2 and room.game.clock.since_ms == left + SECOND


# -- a seat's phones, and only a seat's, have a time away ------------------------------


async def test_watch_and_eo_screens_never_push_out_a_seats_phone(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    room.heard("p1:phone-1")
    room.heard("p2:phone-2")
    for i in range(4 * PHONES_PER_SEAT):
        time.advance(SECOND)
        room.arrive(f"watch:w{i}")
        room.arrive(f"eo:e{i}")
    assert set(room.presences.by_key) == {"p1:phone-1", "p2:phone-2"}


async def test_a_seats_many_devices_push_out_only_its_own_oldest(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    room.heard("p2:phone-2")
    for i in range(2 * PHONES_PER_SEAT):
        time.advance(SECOND)
        room.arrive(f"p1:device-{i}")
    kept_p1 = [k for k in room.presences.by_key if k.startswith("p1:")]
    assert len(kept_p1) == PHONES_PER_SEAT and "p2:phone-2" in room.presences.by_key
    # The seat's last-heard phone stays: a device it forgot is away since then at most.
    time.advance(MIN)
    gap = back(room, "p1:phone-1")
    assert gap.since_ms == time.now_ms() - MIN


# -- notes of time moved that wait for the EO ------------------------------------------


def test_an_unsettled_note_is_never_let_go() -> None:
    """Seventeen notes, none settled: all stay (the EO can still give the time back)."""
    notes = tuple(note(i) for i in range(NOTES_KEPT + 1))
    assert kept(notes) == notes
    disputed = (note(0, NoteState.DISPUTED), *notes[1:])
    assert kept(disputed) == disputed


def test_the_oldest_settled_note_goes_first() -> None:
    notes = (note(0), note(1, NoteState.LET_STAND), *(note(i) for i in range(2, NOTES_KEPT + 1)))
    assert kept(notes) == (note(0), *notes[2:])


async def _to_p1s_turn(room: TableRoom, time: FakeTime) -> None:
    for seq, side in enumerate((P1, P2, P1, P2), start=2):  # deployment (DC3)
        time.advance(MIN)
        await room.apply(side, f"phone-{side.value + 1}", seq, tap(side))


async def _moved_by_a_switch(room: TableRoom, time: FakeTime, seq: int) -> int:
    """Bob's phone online, Alice's away 10 s; her offline interrupt switch (DC6), dated
    back, moves 9.5 s onto Bob; Bob switches back online. The merge's version."""
    room.heard("p1:phone-1")
    room.heard("p2:phone-2")
    left = time.now_ms()
    for _ in range(5):
        time.advance(2 * SECOND)
        room.heard("p2:phone-2")
    gap = back(room, "p1:phone-1")
    queued: list[tuple[int, int, c.Command]] = [(seq, left + 500, c.SwitchClock(to=P2))]
    await room.merge_offline(P1, "phone-1", gap, room.version, queued)
    merged = room.version
    await room.apply(P2, "phone-2", 1000 + seq, c.SwitchClock(to=P1))
    return merged


async def test_notes_full_of_unsettled_ones_refuse_a_further_merge__DC6(
    table: tuple[TableRoom, FakeTime],
) -> None:
    room, time = table
    await _to_p1s_turn(room, time)
    first = await _moved_by_a_switch(room, time, 100)
    for seq in range(101, 100 + NOTES_KEPT):
        await _moved_by_a_switch(room, time, seq)
    notes = room.game.time_moved
    assert len(notes) == NOTES_KEPT and notes[0].id == first
    assert all(n.state is NoteState.OPEN and n.moved_ms == 9_500 for n in notes)

    # One more would push a note the EO has not settled out: refused, nothing changes.
    version, game = room.version, room.game
    with pytest.raises(RuleError, match="notes of time moved") as refused:
        await _moved_by_a_switch(room, time, 200)
    assert not isinstance(refused.value, MergeRefused)
    assert "Bob" in refused.value.message and "P2" not in refused.value.message
    assert room.version == version and room.game == game and not room.merge_refused

    # The EO settles the first note: the time is given back, and merges go on.
    await room.apply(c.Role.EO, "eo", 1, SettleTimeMoved(first, give_back=True))
    await _moved_by_a_switch(room, time, 201)
    notes = room.game.time_moved
    assert len(notes) == NOTES_KEPT and all(n.state is NoteState.OPEN for n in notes)
    assert first not in [n.id for n in notes]  # the settled one went first


# -- a queue that contradicts itself, or the other phone -------------------------------


async def test_two_concessions_still_go_to_the_eo(table: tuple[TableRoom, FakeTime]) -> None:
    """Each phone's queue fits the table as it had it; together they disagree (both
    conceded): the EO decides, and the dashboard says so."""
    room, time = table
    base, t0 = room.version, time.now_ms()
    room.heard("p1:phone-1")
    room.heard("p2:phone-2")
    time.advance(MIN)
    p1_gap, p2_gap = back(room, "p1:phone-1"), back(room, "p2:phone-2")
    await room.merge_offline(P1, "phone-1", p1_gap, base, [(2, t0 + 10_000, c.Concede())])
    with pytest.raises(MergeRefused, match="EO decides"):
        await room.merge_offline(P2, "phone-2", p2_gap, base, [(1, t0 + 20_000, c.Concede())])
    assert room.merge_refused


async def test_a_queue_that_fits_the_table_its_phone_began_from_still_goes_to_the_eo(
    table: tuple[TableRoom, FakeTime],
) -> None:
    """Bob's phone said hello after Alice's concession was merged, lost that socket at
    once and sends its queue on the next: the server last heard it with the game over,
    but the queue began on the table before (its base), where Bob's concession fits.
    The phones disagree: the EO decides."""
    room, time = table
    base, t0 = room.version, time.now_ms()
    room.heard("p1:phone-1")
    room.heard("p2:phone-2")
    time.advance(MIN)
    p1_gap = back(room, "p1:phone-1")
    await room.merge_offline(P1, "phone-1", p1_gap, base, [(2, t0 + 10_000, c.Concede())])
    back(room, "p2:phone-2")  # a socket that died before it sent anything
    time.advance(SECOND)
    p2_gap = back(room, "p2:phone-2")
    assert p2_gap.version == room.version
    with pytest.raises(MergeRefused, match="EO decides"):
        await room.merge_offline(P2, "phone-2", p2_gap, base, [(1, t0 + 20_000, c.Concede())])
    assert room.merge_refused
