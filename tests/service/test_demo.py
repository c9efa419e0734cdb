"""`deathclock demo` leaves a running event: round 1 done, round 2 at different turns."""

from __future__ import annotations

from pathlib import Path

from app.demo import build_demo
from app.domain.game import Phase
from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime


async def test_demo_event_is_alive(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    now = 1_800_000_000_000
    demo = await build_demo(url, now_ms=now)

    store = Store(url)
    time = FakeTime(now)
    hub = TableHub(store, time)
    hub.load()
    service = EventService(store, hub, time)
    rounds = service.book.rounds(demo.event_id)
    assert [r.number for r in rounds] == [1, 2]
    assert service.results.round_complete(rounds[0]) and not service.results.round_complete(
        rounds[1]
    )
    assert rounds[1].expected_end_ms == rounds[1].started_ms + 2 * 60 * 60_000  # type: ignore[operator]
    live = [
        r.game for r in service.tables.rooms(demo.event_id) if r.meta and r.meta.round_number == 2
    ]
    assert len(live) == 6
    assert len({(g.phase, g.turn, g.active) for g in live}) >= 4  # tables at different turns
    assert any(g.paused for g in live)
    in_play = (Phase.DEPLOYMENT, Phase.ADVANCE_DEPLOYMENT, Phase.TURN)
    playing = [g for g in live if g.phase in in_play]
    assert len(playing) == 4
    assert any(g.clock.running is not None for g in live)
    # Games in progress look it: control points scored, a kill box called somewhere.
    assert any(sum(g.control_points) > 0 for g in playing)
    logs = [store.log(r.table_id) for r in service.tables.rooms(demo.event_id)]
    assert any('"kill_box":true' in e.command_json for log in logs for e in log)
    # Two are over: one confirmed by both players, one waiting for a confirmation.
    over = [g for g in live if g.phase is Phase.OVER]
    assert sorted(g.confirmed for g in over) == [(True, False), (True, True)]
    assert all(g.result() is not None for g in over)
    assert sum(s.tp for s in service.results.standings(demo.event_id)) == 7
    await hub.close()
    store.close()
