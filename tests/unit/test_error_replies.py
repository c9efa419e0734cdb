"""A rule error becomes an HTTP status by its class, in one place."""

from __future__ import annotations

import pytest

from app.api.errors import http_status
from app.domain.errors import (
    BadInput,
    NotFound,
    NotYourSeat,
    RuleError,
    StaleCommand,
    Unauthorized,
)
from app.domain.merge import MergeRefused


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (Unauthorized("this needs the EO's token"), 401),
        (NotYourSeat("only the EO can do that"), 403),
        (NotFound("no table 'x'"), 404),
        (BadInput("winner must be 'p1', 'p2' or null"), 400),
        (StaleCommand("P2's clock is already running"), 400),
        (MergeRefused("the phones disagree"), 400),
        (RuleError("the game is over"), 400),
    ],
)
def test_each_error_class_has_its_status(error: RuleError, status: int) -> None:
    assert http_status(error) == status


def test_the_status_does_not_depend_on_the_words() -> None:
    assert http_status(NotYourSeat("a token of another table")) == 403
