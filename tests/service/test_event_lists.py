"""The players' lists as the event handles them: checked by the format's document at
every way in (registration, CSV, the player's page, the EO's edit), locked when round 1
starts (the EO still fixes one, with a reason in the EO's log), printed by the EO, and
public on the event's page once round 1 starts (undoably)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.domain.errors import BadInput, RuleError
from app.events.base import EventSpec
from app.events.service import EventService

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_lists"
WAR_ROOM = (FIXTURES / "warroom2_khador.txt").read_text()
WRITTEN = (FIXTURES / "written_whole.txt").read_text()


def _log(service: EventService, eid: str, action: str) -> list[dict[str, object]]:
    return [json.loads(a.detail_json) for a in service.book.actions(eid) if a.action == action]


def test_iron_gauntlet_asks_every_player_to_declare_the_army_fully_painted(
    service: EventService,
) -> None:
    event = service.registration.create_event(EventSpec(name="IG", format_id="ig2014", points=50))
    with pytest.raises(BadInput, match="Fully Painted"):
        service.registration.add_player(event.id, "Ann", "Cygnar", "Caine\nStryker")
    added, errors = service.registration.import_players(
        event.id, "name,lists,painted\nBob,Caine;Stryker,no\nCid,Caine;Stryker,yes\n"
    )
    assert [p.name for p in added] == ["Cid"]
    assert len(errors) == 1 and errors[0].startswith("line 2:") and "Fully Painted" in errors[0]
    ann = service.registration.add_player(event.id, "Ann", "Cygnar", "Caine\nStryker", painted=True)
    assert ann.painted


def test_a_refusal_names_the_list_the_line_and_the_rule(service: EventService) -> None:
    event = service.registration.create_event(
        EventSpec(name="BG", points=75, variants=("battlegroup_only",))
    )
    with pytest.raises(BadInput) as refused:
        service.registration.add_player(event.id, "Ann", "Khador", WRITTEN)
    words = refused.value.message
    assert "list 1 (Butcher 3 / Jaws of the Wolf (75))" in words
    assert "line 6 'Man-O-War Shocktroopers (max) (17)'" in words and "Battlegroup Only" in words


async def test_lists_lock_at_round_one_and_the_eo_fixes_one_with_a_reason(
    service: EventService,
) -> None:
    event = service.registration.create_event(EventSpec(name="Night", points=75, lists=1))
    eid = event.id
    ann = service.registration.add_player(eid, "Ann", "Khador", WAR_ROOM)
    bob = service.registration.add_player(eid, "Bob", "Khador", "Irusk 2 (75)")
    service.registration.edit_player(eid, bob.id, "Bob", "Khador", "Irusk 2 (74)")
    assert not _log(service, eid, "fix_lists")  # before the event starts: no reason asked
    with pytest.raises(RuleError, match="once round 1 starts"):
        service.lists.set_public(eid, True)

    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    token = service.player_pages.link(eid, ann.id)
    me = service.player_pages.player_by_token(eid, token)
    with pytest.raises(RuleError, match="lists are locked"):
        service.player_pages.set_lists(eid, me, "Butcher 3 (75)")
    with pytest.raises(BadInput, match="Bob's lists are locked; give the reason"):
        service.registration.edit_player(eid, bob.id, "Bob", "Khador", "Irusk 2 (75)")
    service.registration.edit_player(
        eid, bob.id, "Bob S.", "Khador", "Irusk 2 (74)"
    )  # not the lists
    service.registration.edit_player(
        eid, bob.id, "Bob", "Khador", "Irusk 2 (75)", reason="the list sheet said 75"
    )
    assert service.book.player(eid, bob.id).lists == "Irusk 2 (75)"
    assert _log(service, eid, "fix_lists") == [
        {"player": bob.id, "name": "Bob", "reason": "the list sheet said 75"}
    ]


async def test_the_eo_prints_every_players_lists_and_makes_them_public_undoably(
    service: EventService,
) -> None:
    eid = service.registration.create_event(EventSpec(name="Night", points=75, lists=1)).id
    service.registration.add_player(eid, "Ann", "Khador", WAR_ROOM)
    service.registration.add_player(eid, "Bob", "Khador", WRITTEN, list_note="checked by hand")
    sheets = service.lists.sheets(eid)
    assert [p["name"] for p in sheets["players"]] == ["Ann", "Bob"]
    ann_lists = sheets["players"][0]["lists"]
    assert len(ann_lists) == 1 and "Beast-09 - PC: 19" in ann_lists[0]["text"]
    assert sheets["players"][1]["list_note"] == "checked by hand"
    assert service.lists.shown(eid) == {"public": False, "players": []}

    service.rounds.pair_next(eid)
    await service.rounds.start(eid)
    assert service.lists.set_public(eid, True)
    shown = service.lists.shown(eid)
    assert shown["public"] and "Kommander Sorscha" in shown["players"][0]["lists"][0]["text"]
    assert "list_note" not in shown["players"][1]  # the EO's note stays the EO's
    assert not service.lists.set_public(eid, False)
    assert service.lists.shown(eid)["players"] == []
    assert [d["public"] for d in _log(service, eid, "lists_public")] == [True, False]
