"""Each event use case is one unit of work: a failure half way writes nothing, and
the tables a failed pairing or swap opened are discarded again."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import col, select

from app.domain.clock import Side
from app.events.base import EventSpec
from app.events.service import EventService
from app.store.events import EventRepo
from app.store.models import TableRecord

from .test_event_service import _event, _finish, _tables


class Boom(Exception):
    pass


def _fail_on(monkeypatch: pytest.MonkeyPatch, service: EventService, action: str) -> None:
    """The use case's action row (its last write) fails: what it wrote before must go."""
    real = service.book.action

    def failing(event_id: str, name: str, **detail: Any) -> Any:
        if name == action:
            raise Boom(name)
        return real(event_id, name, **detail)

    monkeypatch.setattr(service.book, "action", failing)


def _stored_tables(service: EventService, event_id: str) -> set[str]:
    with service.store.session() as session:
        rows = session.exec(select(TableRecord).where(col(TableRecord.event_id) == event_id))
        return {r.id for r in rows}


async def test_a_failed_pairing_leaves_no_round_no_cut_and_no_tables(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    eid = _event(service, 8, cut_to_top=4, fixed_rounds=3)
    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    for room in _tables(service, eid, 1):
        await _finish(room, Side.P2)
    tables_before = {r.table_id for r in service.tables.rooms(eid)}
    stored_before = _stored_tables(service, eid)
    actions_before = len(service.book.actions(eid))
    _fail_on(monkeypatch, service, "pair_round")  # after the cut and the round are added

    with pytest.raises(Boom):
        service.rounds.pair_next(eid)

    assert len(service.book.rounds(eid)) == 1
    assert not service.book.event(eid).cut_done
    assert not any(p.cut for p in service.book.players(eid))
    assert len(service.book.actions(eid)) == actions_before
    assert {r.table_id for r in service.tables.rooms(eid)} == tables_before
    assert _stored_tables(service, eid) == stored_before

    monkeypatch.undo()
    entry = service.rounds.pair_next(eid)  # and it can be done again, whole
    assert entry.number == 2
    assert service.book.event(eid).cut_done
    assert sum(p.cut for p in service.book.players(eid)) == 4


async def test_a_failed_swap_leaves_the_pairings_and_their_tables(
    service: EventService, monkeypatch: pytest.MonkeyPatch
) -> None:
    eid = _event(service, 4)
    entry = service.rounds.pair_next(eid)
    rows = json.loads(entry.pairings_json)
    a, b = rows[0]["p1"], rows[1]["p1"]
    tables_before = {r.table_id for r in service.tables.rooms(eid)}
    stored_before = _stored_tables(service, eid)
    _fail_on(monkeypatch, service, "swap")

    with pytest.raises(Boom):
        service.rounds.swap(eid, a, b)

    assert service.book.rounds(eid)[-1].pairings_json == entry.pairings_json
    assert {r.table_id for r in service.tables.rooms(eid)} == tables_before
    assert _stored_tables(service, eid) == stored_before
    assert [a.action for a in service.book.actions(eid)][-1] == "pair_round"


async def test_a_unit_of_work_commits_whole_or_not_at_all(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="Unit"))
    player = service.registration.add_player(event.id, "Ann")
    with pytest.raises(Boom), service.book.unit() as repo:
        assert isinstance(repo, EventRepo)
        player.name = "Changed"
        repo.add(player, service.book.action(event.id, "edit_player", player=player.id))
        raise Boom
    assert service.book.player(event.id, player.id).name == "Ann"
    assert [a.action for a in service.book.actions(event.id)] == ["add_player"]
