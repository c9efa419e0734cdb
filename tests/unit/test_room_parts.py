"""The table room's parts on their own: dedupe, history, the flag timer's bound."""

from __future__ import annotations

from app.domain import commands as c
from app.tables.dedupe import SEEN_PER_DEVICE, Dedupe
from app.tables.flag_timer import flag_bound
from app.tables.history import History

from .helpers import P1, P2, table_at


def test_dedupe_is_per_phone_and_knows_old_numbers() -> None:
    dedupe = Dedupe()
    dedupe.remember("p1:phone", 7, version=3)
    assert dedupe.applied("p1:phone", 7, current=9) == 3
    assert dedupe.applied("p2:phone", 7, current=9) is None  # another seat, same device id
    dedupe.remember("p1:phone", 7 + 2 * SEEN_PER_DEVICE, version=4)
    assert dedupe.applied("p1:phone", 8, current=9) == 9  # far below the highest: old
    assert dedupe.applied("", 7, current=9) is None  # the server's own commands


def test_dedupe_restored_from_a_snapshot_takes_what_came_before_as_seen() -> None:
    dedupe = Dedupe()
    dedupe.restore({"p1:phone": 40})
    assert dedupe.applied("p1:phone", 40, current=300) == 300
    assert dedupe.applied("p1:phone", 41, current=300) is None


def test_history_serves_a_gap_it_still_has_and_asks_for_a_snapshot_otherwise() -> None:
    history = History(size=3)
    for version in range(1, 6):
        history.add(version, f"e{version}")
    assert history.since(5, current=5) == []
    assert history.since(3, current=5) == ["e4", "e5"]
    assert history.since(1, current=5) is None  # e2 is gone
    assert history.since(None, current=5) is None and history.since(6, current=5) is None
    history.clear()
    assert history.since(4, current=5) is None


def test_the_flag_timer_is_armed_at_the_lesser_remaining_time__DC7() -> None:
    table = table_at(2, P1)
    game = table.do(P1, c.SwitchClock(to=P2))
    bound = flag_bound(game)
    assert bound == game.clock.since_ms + min(game.clock.remaining_ms)
    assert flag_bound(table.do(P2, c.Concede())) is None  # over: nothing to flag


def test_a_broadcast_hands_out_one_channel_a_name_and_forgets_it() -> None:
    from app.tables.fanout import MemoryBroadcast, Subscriber

    broadcast = MemoryBroadcast()
    table = broadcast.channel("table:abc")
    assert broadcast.channel("table:abc") is table
    assert broadcast.channel("table:xyz") is not table
    screen = Subscriber("watch")
    table.join(screen)
    table.publish("hello")
    assert screen.queue.get_nowait() == "hello"
    broadcast.forget("table:abc")
    assert broadcast.channel("table:abc") is not table


def test_by_side_values_change_one_side_at_a_time() -> None:
    from app.domain.clock import each, put, update

    cp = (3, 1)
    assert put(cp, P2, 4) == (3, 4) and cp == (3, 1)
    assert update(cp, P1, lambda points: points + 2) == (5, 1)
    assert each(cp, str) == ("3", "1")
