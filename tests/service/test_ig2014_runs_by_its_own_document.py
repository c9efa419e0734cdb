"""An Iron Gauntlet 2014 qualifier runs by its own document: "All Iron Gauntlet qualifiers
will be run in accordance with the rules in this document". Its round counts and Final
Standings (TP, SoS, CP, APD) stand; Steamroller's round and standings variants are
refused with the reason (RP1, ST1)."""

from __future__ import annotations

import pytest

from app.domain.errors import BadInput
from app.events.base import EventSpec
from app.events.service import EventService

STEAMROLLER_ONLY = (
    {"fixed_rounds": 2},
    {"cut_to_top": 4},
    {"standings": "destruction"},
)


@pytest.mark.parametrize("variant", STEAMROLLER_ONLY)
def test_an_iron_gauntlet_qualifier_takes_no_steamroller_round_or_standings_variant__RP1_ST1(
    service: EventService, variant: dict[str, object]
) -> None:
    spec = EventSpec(name="Gauntlet", format_id="ig2014", points=50, **variant)  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="Iron Gauntlet 2014 events run by its own document"):
        service.registration.create_event(spec)


@pytest.mark.parametrize("variant", STEAMROLLER_ONLY)
def test_a_steamroller_event_takes_them__RP1_ST1(
    service: EventService, variant: dict[str, object]
) -> None:
    spec = EventSpec(name="Steamroller", format_id="sr2019", points=75, **variant)  # type: ignore[arg-type]
    event = service.registration.create_event(spec)
    assert (event.fixed_rounds, event.cut_to_top, event.standings) == (
        variant.get("fixed_rounds"),
        variant.get("cut_to_top"),
        variant.get("standings", "baseline"),
    )


def test_an_iron_gauntlet_qualifier_by_its_own_rules_is_created__RP1_ST1(
    service: EventService,
) -> None:
    event = service.registration.create_event(
        EventSpec(name="Gauntlet", format_id="ig2014", points=50)
    )
    assert event.standings == "baseline" and event.cut_to_top is None
