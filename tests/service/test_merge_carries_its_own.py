"""An offline merge carries its own commands and replays only from where they apply:
a phone that sends its queue one command at a time, at its seat's rate, does not make
each merge replay, log and send the whole table's history since it left (fake clock)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.domain import commands as c
from app.domain import merge as merging
from app.domain.clock import Side
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.offline import Gap
from app.tables.quick import QuickGame
from app.tables.room import TableRoom
from app.tables.timesource import FakeTime

SECOND = 1_000
P1, P2 = Side.P1, Side.P2
MERGES = 60  # one-command offline messages, 5 a second (the seat's rate)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[TableRoom, FakeTime]]:
    store = Store(f"sqlite:///{tmp_path / 'merges.db'}")
    time = FakeTime()
    hub = TableHub(store, time)
    room = hub.create(QuickGame(clock_minutes=60, scenario="bunkers"))
    await room.apply(P1, "phone-1", 1, c.StartClock())
    yield room, time
    await hub.close()
    store.close()


@pytest.fixture
def replayed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many commands each merge plays (the rules' `apply`, called by the merge)."""
    calls = [0]
    apply = merging.apply

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return apply(*args, **kwargs)

    monkeypatch.setattr(merging, "apply", counted)
    return calls


def tap(side: Side) -> c.PassTurn:
    return c.PassTurn(expect=side)


def _last_merge(room: TableRoom) -> tuple[dict[str, Any], int, int]:
    """The last log row's command, the row's size and the size of its event."""
    (entry,) = room.store.log(room.table_id, after=room.version - 1)
    events = room.history.since(room.version - 1, room.version)
    assert events is not None and len(events) == 1
    return json.loads(entry.command_json), len(entry.command_json), len(events[0])


async def _away_and_back(room: TableRoom, time: FakeTime) -> tuple[Gap, int, int]:
    """P1's phone goes quiet for 30 s and comes back: its time away, the version it
    last had and the moment it left."""
    room.heard("p1:phone-1")
    left, base = time.now_ms(), room.version
    time.advance(30 * SECOND)
    gap = room.arrive("p1:phone-1")
    assert gap is not None
    return gap, base, left


async def test_one_command_merges_each_carry_one_command_and_replay_one(
    table: tuple[TableRoom, FakeTime], replayed: list[int]
) -> None:
    room, time = table
    gap, base, left = await _away_and_back(room, time)
    # The phone's tap at +10 s passed the clock to P2...
    await room.merge_offline(P1, "phone-1", gap, base, [(2, left + 10 * SECOND, tap(P1))])
    assert room.game.clock.running is P2
    _first, first_row, first_event = _last_merge(room)
    # ...then it sends one queued command a message, 5 a second: each a press on a clock
    # that no longer ran (it does nothing), each dated after the one before.
    for seq in range(3, 3 + MERGES):
        time.advance(SECOND // 5)
        replayed[0] = 0
        dated = left + 10 * SECOND + seq * 100
        await room.merge_offline(P1, "phone-1", gap, base, [(seq, dated, tap(P1))])
        assert replayed[0] <= 1, f"merge {seq} played {replayed[0]} commands again"
    wire, row, event = _last_merge(room)
    assert len(wire["entries"]) + len(wire["dropped"]) == 1  # its own command, nothing more
    assert [sub["seq"] for sub in wire["dropped"]] == [2 + MERGES]
    assert row <= first_row + 64 and event <= first_event + 64
    assert room.game.clock.running is P2

    # The log still rebuilds the same table.
    again = TableHub(room.store, time)
    again.load()
    assert again.rooms[room.table_id].game == room.game
    await again.close()


def answered(room: TableRoom, side: Side) -> c.PassTurn:
    """A tap that answers the turn's questions as the table asks them (no kill box, no
    scoring)."""
    game = room.game
    if not (game.kill_box_due or game.scoring_due):
        return tap(side)
    kill_box = False if game.kill_box_due else None
    return c.PassTurn(side, c.TurnEnd(kill_box, c.Scoring() if game.scoring_due else None))


async def test_merges_between_the_opponents_online_taps_stay_small(
    table: tuple[TableRoom, FakeTime], replayed: list[int]
) -> None:
    """The other phone keeps playing online while this one sends its queue a command at
    a time, late: each merge plays only its own command, after what the table took
    online since the phone came back."""
    room, time = table
    gap, base, left = await _away_and_back(room, time)
    await room.merge_offline(P1, "phone-1", gap, base, [(2, left + 10 * SECOND, tap(P1))])
    for seq in range(3, 9):
        time.advance(SECOND // 5)
        assert room.game.clock.running is P2
        await room.apply(P2, "phone-2", 100 + seq, answered(room, P2))
        time.advance(SECOND // 5)
        replayed[0] = 0
        queued = [(seq, left + 20 * SECOND, answered(room, P1))]
        await room.merge_offline(P1, "phone-1", gap, base, queued)
        assert replayed[0] <= 1, f"merge {seq} played {replayed[0]} commands again"
        wire, row, _event = _last_merge(room)
        assert [sub["seq"] for sub in wire["entries"]] == [seq] and not wire["dropped"]
        assert row < 1024
    assert room.game.turn == 5

    again = TableHub(room.store, time)
    again.load()
    assert again.rooms[room.table_id].game == room.game
    await again.close()
