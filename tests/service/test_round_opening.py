"""A round's tables open together: the worker's loop waits on the database a fixed number of
times for a round, whatever its size, and a round whose tables cannot be written opens none."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from app.domain.errors import RuleError
from app.events.service import EventService
from app.tables import hub as hub_module
from app.tables.engines import engine_for
from app.tables.quick import QuickGame
from tests.service.field_of import event_of


@contextlib.contextmanager
def _statements(engine: Engine) -> Iterator[list[str]]:
    """Every statement sent to the database meanwhile."""
    seen: list[str] = []

    def note(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_pairing_asks_the_database_as_often_for_128_tables_as_for_8__RP2(
    service: EventService,
) -> None:
    asked = []
    for players in (16, 256):
        event_id = event_of(service, players)
        with _statements(service.store.engine) as seen:
            entry = service.rounds.pair_next(event_id)
        asked.append(len(seen))
        rooms = service.tables.rooms(event_id)
        ids = {r.table_id for r in rooms}
        assert len(ids) == players // 2 and entry.number == 1
        assert sorted(r.meta.table_no for r in rooms if r.meta) == list(range(1, players // 2 + 1))
        assert service.store.taken_ids(sorted(ids)) == ids  # every table is in the store
    assert asked[0] == asked[1]  # 16 times as many tables, not one question more
    assert asked[1] < 20


def test_a_round_whose_tables_cannot_be_written_opens_none__RP2(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = event_of(service, 8)

    def disk_full(records: list[object]) -> None:
        raise OSError("database or disk is full")

    monkeypatch.setattr(service.store, "add_tables", disk_full)
    with pytest.raises(OSError):
        service.rounds.pair_next(event_id)
    assert service.tables.rooms(event_id) == [] and service.book.rounds(event_id) == []
    monkeypatch.undo()
    service.rounds.pair_next(event_id)  # nothing half made stands in the way
    assert len(service.tables.rooms(event_id)) == 4
    with pytest.raises(RuleError):
        service.rounds.pair_next(event_id)  # round 1 is paired, not started yet


def test_an_id_that_a_table_in_the_store_has_is_drawn_again(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = service.hub
    first = hub.create(QuickGame())
    hub.let_go(first.table_id)  # only the store has it now
    fresh = (f"{n:032x}" for n in itertools.count(1))
    drawn = itertools.chain([first.table_id, first.table_id], fresh)
    monkeypatch.setattr(hub_module, "new_id", lambda: next(drawn))
    setup = engine_for(QuickGame().format_id).quick_setup(QuickGame(), hub.rng)
    second, third = hub.open_tables([(setup, None)] * 2)
    assert (second.table_id, third.table_id) == (f"{1:032x}", f"{2:032x}")
    assert hub.open_tables([]) == []
