"""RP2/RP3 through the event service: the EO corrects an earlier round's result while the
next round is paired and not started. The draft was paired on the old standings; it is
paired again on the new ones (its old tables removed), as a change of the field does,
and a draft that can no longer be paired (the event is over, RP1) is discarded."""

from __future__ import annotations

from app.events.base import EventSpec, pairings_of
from app.events.service import EventService
from app.events.table_result import TableResult
from app.tables.timesource import FakeTime

MIN = 60_000


def _win(first_wins: bool) -> TableResult:
    return TableResult.from_wire(
        {
            "winner": "p1" if first_wins else "p2",
            "control_points": [3, 0] if first_wins else [0, 3],
            "army_points_destroyed": [20, 10] if first_wins else [10, 20],
        }
    )


async def _round_one(
    service: EventService, rounds: int | None = None
) -> tuple[str, dict[str, str]]:
    """Four players; round 1 played, the first-listed player of each table winning."""
    time = service.time
    assert isinstance(time, FakeTime)
    event = service.registration.create_event(
        EventSpec(name="Correction night", format_id="sr2019", fixed_rounds=rounds)
    )
    for name in ("Ann", "Bob", "Cara", "Dan"):
        service.registration.add_player(event.id, name)
    service.rounds.pair_next(event.id)
    await service.rounds.start(event.id)
    time.advance(90 * MIN)
    for row in pairings_of(service.book.rounds(event.id)[0]):
        assert row.table_id is not None
        await service.results.enter(event.id, row.table_id, _win(True))
    names = {p.id: p.name for p in service.book.players(event.id)}
    return event.id, names


def _pairs(service: EventService, event_id: str, number: int) -> set[frozenset[str]]:
    names = {p.id: p.name for p in service.book.players(event_id)}
    rows = pairings_of(service.book.rounds(event_id)[number - 1])
    return {frozenset(names[p] for p in (row.p1, row.p2) if p is not None) for row in rows}


async def test_a_correction_pairs_the_draft_again_on_the_new_standings__RP2_RP3(
    service: EventService,
) -> None:
    eid, _ = await _round_one(service, rounds=3)
    service.rounds.pair_next(eid)  # round 2, a draft: the two winners meet
    first_round = pairings_of(service.book.rounds(eid)[0])
    winners = {row.p1 for row in first_round}
    draft = service.book.rounds(eid)[1]
    old_tables = {row.table_id for row in pairings_of(draft)}
    names = {p.id: p.name for p in service.book.players(eid)}
    assert frozenset(names[w] for w in winners) in _pairs(service, eid, 2)

    corrected = first_round[0]
    assert corrected.table_id is not None and corrected.p2 is not None
    await service.results.enter(eid, corrected.table_id, _win(False), "the slip was misread")

    now_winners = {corrected.p2, first_round[1].p1}
    assert frozenset(names[w] for w in now_winners) in _pairs(service, eid, 2)
    draft = service.book.rounds(eid)[1]
    assert draft.started_ms is None
    assert not old_tables & {row.table_id for row in pairings_of(draft)}
    assert all(service.hub.get(t or "") is None for t in old_tables)


async def test_a_correction_that_leaves_the_winner_keeps_the_draft__RP2(
    service: EventService,
) -> None:
    eid, _ = await _round_one(service, rounds=3)
    service.rounds.pair_next(eid)
    before = [(row.p1, row.p2, row.table_id) for row in pairings_of(service.book.rounds(eid)[1])]
    row = pairings_of(service.book.rounds(eid)[0])[0]
    assert row.table_id is not None
    more_cp = TableResult.from_wire(
        {"winner": "p1", "control_points": [5, 1], "army_points_destroyed": [20, 10]}
    )
    await service.results.enter(eid, row.table_id, more_cp, "CP were 5 to 1")
    after = [(r.p1, r.p2, r.table_id) for r in pairings_of(service.book.rounds(eid)[1])]
    assert after == before  # the cards handed out stay good
