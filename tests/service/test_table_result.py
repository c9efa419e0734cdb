"""A table's result is typed through the service; JSON only at the store and the API."""

from __future__ import annotations

import pytest

from app.domain.clock import Side
from app.domain.errors import BadInput
from app.events.table_result import Correction, TableResult


def test_an_eo_correction_comes_back_from_its_stored_form_as_it_went_in() -> None:
    before = TableResult(Side.P1, (3, 0), (40, 10), ("Vlad", ""), "scenario", by="players")
    result = TableResult(
        Side.P2,
        (0, 3),
        (0, 38),
        correction=Correction("wrong table reported", 1234, before, round_closed=True),
    )
    stored = result.stored_json()
    assert "by" not in stored and stored["correction"]["before"]["by"] == "players"
    assert TableResult.from_json(stored) == result
    assert result.as_json()["winner"] == "p2" and result.as_json()["by"] == "eo"
    assert result.outcome_for(Side.P2) == "win" and before.outcome_for(Side.P2) == "loss"


@pytest.mark.parametrize(
    "body",
    [
        {"winner": "p3", "control_points": [0, 0], "army_points_destroyed": [0, 0]},
        {"winner": None, "control_points": [0], "army_points_destroyed": [0, 0]},
        {"winner": None, "control_points": [0, 0], "army_points_destroyed": [0, -1]},
    ],
)
def test_an_eo_result_is_checked_at_the_edge(body: dict[str, object]) -> None:
    with pytest.raises(BadInput):
        TableResult.from_wire(body)
