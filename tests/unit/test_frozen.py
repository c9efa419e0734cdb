"""app.domain.frozen.replace: what `dataclasses.replace` gives, for every record it copies."""

from __future__ import annotations

import dataclasses

import pytest

from app.domain.clock import Clock
from app.domain.frozen import replace
from app.domain.game import Game, Phase, Setup
from tests.unit.helpers import P1, P2, Table


def _played() -> Game:
    table = Table.new()
    table.start()
    return table.play_to(3, P2)


def test_a_copy_is_what_dataclasses_replace_makes_and_the_original_is_untouched() -> None:
    game = _played()
    before = dataclasses.replace(game)
    changes = {"turn": 9, "active": P1, "control_points": (2, 1), "undo": None}
    copied = replace(game, **changes)
    assert copied == dataclasses.replace(game, **changes)
    assert type(copied) is Game and copied is not game
    assert game == before  # nothing of the original moved
    assert replace(game) == game and replace(game) is not game


def test_a_copy_stays_frozen() -> None:
    copied = replace(_played(), turn=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        copied.turn = 5  # type: ignore[misc]


def test_every_field_of_a_game_is_carried_over() -> None:
    game = _played()
    for field in dataclasses.fields(Game):
        assert getattr(replace(game), field.name) is getattr(game, field.name), field.name


def test_a_field_the_class_lacks_raises_as_dataclasses_replace_does() -> None:
    with pytest.raises(TypeError):
        replace(_played(), turns=4)
    with pytest.raises(TypeError):
        replace(Clock.start_with(60_000, 0), phase=Phase.TURN)


def test_a_setup_keeps_none_of_its_cached_lookups_when_its_format_changes() -> None:
    setup = Setup("sr2019", "king-of-the-hill", 60_000, 75)
    assert setup.format.name  # the lookup is now cached in the setup
    other = replace(setup, format_id="ig2014")
    assert other.format_id == "ig2014"
    assert other.format is not setup.format


def test_a_class_with_its_own_init_or_post_init_is_copied_through_them() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked:
        turn: int
        doubled: int = 0

        def __post_init__(self) -> None:
            object.__setattr__(self, "doubled", self.turn * 2)

    @dataclasses.dataclass(frozen=True, init=False)
    class Own:
        turn: int

        def __init__(self, turn: int) -> None:
            object.__setattr__(self, "turn", turn + 100)

    assert replace(Checked(1), turn=4).doubled == 8
    assert replace(Own(1), turn=4).turn == 104


def test_a_slotted_record_on_a_base_of_its_own_is_copied_as_well() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Child(Base):
        b: int = 0

    child = replace(Child(1, 2), b=3)
    assert child == Child(1, 3) and type(child) is Child
    with pytest.raises(dataclasses.FrozenInstanceError):
        child.b = 4  # type: ignore[misc]
