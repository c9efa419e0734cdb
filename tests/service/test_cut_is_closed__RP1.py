"""Cut to Top [X] (RP1): "the remaining tournament rounds are only played by the top X
players". Once the cut is made, nobody joins those rounds: a late arrival is refused
(RP7's late entry joins the next round, and every next round is the top X's), and so is
a player the cut left out who asks to rejoin; a kept player who drops may rejoin. Before
the cut, a late arrival joins as on any day. A draft taken back undoes its cut, and the
door opens again."""

from __future__ import annotations

import pytest

from app.domain.errors import RuleError
from app.events.service import EventService
from tests.service.first_seats import cut_day_after_round_one, first_seats_win, round_tables


async def _cut_made(service: EventService) -> str:
    event = service.book.event(await cut_day_after_round_one(service))
    late = service.registration.add_player(event.id, "Early Bird", "Khador")  # before the cut
    assert late.joined_round == 2
    service.registration.drop_player(event.id, late.id)  # leaves again: not in the cut
    service.rounds.pair_next(event.id)  # 4 undefeated: the cut is made
    return event.id


async def test_nobody_joins_the_rounds_after_the_cut__RP1_RP7(service: EventService) -> None:
    event_id = await _cut_made(service)
    await service.rounds.start(event_id)  # the cut stands: its round is under way
    players = service.book.players(event_id)
    kept = [p for p in players if not p.cut and not p.dropped]
    left_out = [p for p in players if p.cut and not p.dropped]
    assert len(kept) == 4 and len(left_out) == 4
    with pytest.raises(RuleError, match="the cut to the top 4 is made"):
        service.registration.add_player(event_id, "Late Larry", "Cygnar")
    with pytest.raises(RuleError, match="the cut to the top 4 is made"):
        service.registration.import_players(event_id, "name\nLate Lena\n")
    bird = next(p for p in players if p.name == "Early Bird")
    with pytest.raises(RuleError, match="Early Bird is not in the cut"):
        service.registration.drop_player(event_id, bird.id, dropped=False)
    assert {p.name for p in service.book.players(event_id)} == {p.name for p in players}
    named = {
        pid for room in round_tables(service, event_id, 2) if room.meta
        for pid in (room.meta.p1_player, room.meta.p2_player)
    }  # fmt: skip
    assert named == {p.id for p in kept}
    # A kept player who drops between rounds may come back: the top X's rounds are theirs.
    await first_seats_win(service, event_id, 2)
    service.registration.drop_player(event_id, kept[0].id)
    back = service.registration.drop_player(event_id, kept[0].id, dropped=False)
    assert not back.dropped and not back.cut


async def test_while_the_cut_is_a_draft_the_eo_may_still_change_the_field__RP1(
    service: EventService,
) -> None:
    # The draft that made the cut is paired again with every change, its cut made again:
    # a kept player dropped by mistake and let back in is kept again.
    event_id = await _cut_made(service)
    kept = [p for p in service.book.players(event_id) if not p.cut and not p.dropped]
    service.registration.drop_player(event_id, kept[0].id)
    service.registration.drop_player(event_id, kept[0].id, dropped=False)
    again = {p.id for p in service.book.players(event_id) if not p.cut and not p.dropped}
    assert again == {p.id for p in kept}


async def test_a_draft_taken_back_undoes_its_cut_and_the_door_opens__RP1(
    service: EventService,
) -> None:
    event_id = await _cut_made(service)
    service.control.discard_draft(event_id)
    added = service.registration.add_player(event_id, "Late Larry", "Cygnar")
    assert added.joined_round == 2
