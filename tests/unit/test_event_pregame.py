"""The lists a player may choose at an event table's pre-game."""

from __future__ import annotations

from app.domain.standings import Outcome, PlayerRecord, RoundRecord
from app.events.base import PairingRow
from app.events.pregame import list_choices, open_command
from app.store.models import EventRecord, PlayerEntry


def _event(format_id: str = "ig2014", lists: int = 2) -> EventRecord:
    return EventRecord(
        id="e",
        name="E",
        format_id=format_id,
        points=50,
        lists=lists,
        admin_token="t",
        created_ms=0,
        pregame=True,
    )


def _played(*lists: str) -> PlayerRecord:
    rounds = tuple(
        RoundRecord(n + 1, "x", Outcome.WIN, 0, 0, list_played=name) for n, name in enumerate(lists)
    )
    return PlayerRecord(id="a", name="Ann", faction="", dropped=False, rounds=rounds)


def test_each_list_played_once_narrows_the_last_rounds_choices() -> None:
    """IG2014: each list is played at least once, so with as many rounds left as lists
    not yet played, only those may be chosen."""
    ann = PlayerEntry(id="a", event_id="e", name="Ann", lists="Haley; Stryker")
    assert list_choices(_event(), ann, _played("Haley"), rounds_left=2) == ("Haley", "Stryker")
    assert list_choices(_event(), ann, _played("Haley", "Haley"), rounds_left=1) == ("Stryker",)


def test_steamroller_choices_stay_whole() -> None:
    ann = PlayerEntry(id="a", event_id="e", name="Ann", lists="Haley; Stryker")
    event = _event("sr2019")
    assert list_choices(event, ann, _played("Haley"), rounds_left=1) == ("Haley", "Stryker")


def test_the_opening_command_is_by_seat() -> None:
    ann = PlayerEntry(id="a", event_id="e", name="Ann", lists="Haley; Stryker")
    bob = PlayerEntry(id="b", event_id="e", name="Bob", lists="")
    row = PairingRow(1, "b", "a", None, "t")
    command = open_command(_event(), row, {"a": ann, "b": bob}, [], rounds_left=3)
    assert command.choices == ((), ("Haley", "Stryker"))
