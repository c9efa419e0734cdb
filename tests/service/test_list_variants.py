"""SR2019 army list and painting variants and Champions' Active Duty Roster, checked
when the EO registers a player, corrects one, imports a CSV, and when a player writes
their own lists; the EO's note lets refused lists stand."""

from __future__ import annotations

import pytest

from app.domain.errors import BadInput
from app.events.base import EventSpec
from app.events.service import EventService

WHOLE = """Butcher 3 / Jaws of the Wolf (75)
- Beast-09 (C) (19)
Kodiak [jack] (14)

Irusk 2 (75)
- Juggernaut (16)
Man-O-War Shocktroopers (max) (17)"""


def test_army_list_variants_registration_refuses_with_the_reason_and_eo_override(
    service: EventService,
) -> None:
    event = service.registration.create_event(
        EventSpec(name="Night", lists=2, variants=("battlegroup_only", "painting_basic"))
    )
    with pytest.raises(BadInput, match="Basic Painting Required: All models must be primed"):
        service.registration.add_player(event.id, "Ann", "Khador", WHOLE)
    with pytest.raises(BadInput, match=r"list 2 \(Irusk 2 \(75\)\), line 3 .*Battlegroup Only"):
        service.registration.add_player(event.id, "Ann", "Khador", WHOLE, painted=True)
    ann = service.registration.add_player(
        event.id, "Ann", "Khador", WHOLE, "units agreed", painted=True
    )
    assert ann.list_note == "units agreed" and ann.painted
    assert service.book.players(event.id)[0].lists == WHOLE

    fixed = WHOLE.replace("Man-O-War Shocktroopers (max) (17)", "Behemoth [jack] (25)")
    edited = service.registration.edit_player(event.id, ann.id, "Ann", "Khador", fixed)
    assert edited.painted and edited.list_note == ""  # painted kept, no note needed
    with pytest.raises(BadInput, match="Basic Painting Required"):
        service.registration.edit_player(event.id, ann.id, "Ann", "Khador", fixed, painted=False)
    view = service.read_models.event_view(event.id, admin=True)
    assert view["players"][0]["painted"] is True
    assert view["event"]["list_rules"][0].startswith("Battlegroup Only")
    assert view["event"]["active_duty_roster_checked"] is None  # no roster for its lists


def test_army_list_variants_csv_import_checks_each_row(service: EventService) -> None:
    event = service.registration.create_event(
        EventSpec(name="Night", lists=2, variants=("character_restrictions", "painting_advanced"))
    )
    csv = (
        "name,faction,lists,painted\n"
        'Ann,Cygnar,"Haley 3 (75)\nEiryss 1 (C) (6)\n\nStryker 1 (74)\nEiryss 1 (C) (6)",yes\n'
        "Bob,Menoth,Kreoss 1; Severius 2,no\n"
        "Cat,Menoth,Kreoss 1; Severius 2,x\n"
    )
    added, errors = service.registration.import_players(event.id, csv)
    assert [p.name for p in added] == ["Cat"] and added[0].painted
    assert errors[0].startswith("line 2: list 2 (Stryker 1 (74)), line 2 'Eiryss 1 (C) (6)'")
    assert "Character Restrictions" in errors[0]
    assert errors[1].startswith("line 7: this event has Advanced Painting Required")


def test_lists_over_the_length_limit_are_refused(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="Night"))
    with pytest.raises(BadInput, match="4000 at most"):
        service.registration.add_player(event.id, "Ann", "", "Haley 3\n" + "- Squire (0)\n" * 400)


def test_painting_variants_player_page_shows_the_standard_and_takes_the_declaration(
    service: EventService,
) -> None:
    event = service.registration.create_event(
        EventSpec(name="Night", lists=2, variants=("painting_basic",))
    )
    ann = service.registration.add_player(event.id, "Ann")
    token = service.player_pages.link(event.id, ann.id)
    page = service.player_pages.page(
        event.id, service.player_pages.player_by_token(event.id, token), "http://x/"
    )
    assert page["player"]["painting"].startswith("Basic Painting Required — All models")
    assert page["player"]["painted"] is False and page["player"]["lists_most"] == 4000
    with pytest.raises(BadInput, match="Confirm that your army meets it"):
        service.player_pages.set_lists(event.id, ann, WHOLE)
    service.player_pages.set_lists(event.id, ann, WHOLE, painted=True)
    page = service.player_pages.page(
        event.id, service.player_pages.player_by_token(event.id, token), "http://x/"
    )
    assert page["player"]["lists"] == ["Butcher 3 / Jaws of the Wolf (75)", "Irusk 2 (75)"]
    assert page["player"]["painted"] is True


def test_army_list_variants_players_own_lists_are_checked_in_full(service: EventService) -> None:
    event = service.registration.create_event(
        EventSpec(name="Night", lists=2, variants=("specialists",))
    )
    ann = service.registration.add_player(event.id, "Ann")
    over = WHOLE + "\nSpecialists:\nWidowmaker Marksman (4)\nBehemoth (25)"
    with pytest.raises(BadInput, match="specialists total 29 points; a 75-point event allows 20"):
        service.player_pages.set_lists(event.id, ann, over)
    with pytest.raises(BadInput, match="two lists are led by Butcher 3"):
        service.player_pages.set_lists(event.id, ann, "Butcher 3; Butcher 3")


ROSTER = "Leaders:\nButcher 3\nIrusk 2\nTheme forces:\nJaws of the Wolf\nWinter Guard Kommand"


def test_champions_adr_entered_at_creation_and_checked_at_registration(
    service: EventService,
) -> None:
    event = service.registration.create_event(
        EventSpec(name="Champs", format_id="champions2019", roster=ROSTER)
    )
    assert event.roster == ROSTER
    service.registration.add_player(event.id, "Ann", "", "Butcher 3 / Jaws of the Wolf (75)")
    service.registration.add_player(event.id, "Bob", "", "Beast Master Xekaar / Jaws of the Wolf")
    with pytest.raises(BadInput, match="Sorscha 1 is not on this event's Active Duty Roster"):
        service.registration.add_player(event.id, "Cat", "", "Sorscha 1 / Jaws of the Wolf")
    with pytest.raises(BadInput, match="name the list's theme force"):
        service.registration.add_player(event.id, "Cat", "", "Irusk 2 (75)")
    service.registration.add_player(
        event.id, "Cat", "", "Sorscha 1 / Jaws of the Wolf", "old roster, EO ok"
    )
    view = service.read_models.event_view(event.id)["event"]
    assert view["active_duty_roster_checked"] is True
    assert view["list_rules"] == [
        "Active Duty Roster: each list's leaders and theme forces on this event's roster "
        "(the battlegroup box casters always are)"
    ]


def test_champions_adr_left_empty_is_not_checked_and_says_so(service: EventService) -> None:
    event = service.registration.create_event(EventSpec(name="Champs", format_id="champions2019"))
    service.registration.add_player(event.id, "Ann", "", "Sorscha 1")
    view = service.read_models.event_view(event.id)["event"]
    assert "not checked" in view["list_rules"][0] and view["active_duty_roster_checked"] is False
    with pytest.raises(BadInput, match="only Champions lists use an Active Duty Roster"):
        service.registration.create_event(EventSpec(name="Night", roster=ROSTER))
    with pytest.raises(BadInput, match="write the roster's names under"):
        service.registration.create_event(
            EventSpec(name="C", format_id="champions2019", roster="Butcher 3")
        )
