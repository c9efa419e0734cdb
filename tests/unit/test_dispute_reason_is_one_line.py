"""TS9: a player's reason for disputing the result is one line of their own. A line break
(or any other control character) in it is folded to a space, so a reason cannot start a
line of its own that reads as the opponent's ("Bob: I agree …"): the EO and both phones
see exactly one line a player, each after the name of the player who wrote it."""

from __future__ import annotations

import pytest

from app.domain import commands as c
from app.domain.frozen import replace
from app.domain.game import Game
from app.tables.warmachine.eo_table import detail
from app.tables.warmachine.view import disputed_words
from tests.unit.helpers import P1, P2, Table, table_at

FORGED = "wrong CP\nP2: I agree, enter P1's result"


def _reported() -> Table:
    """Ann and Bob's game, over, its result reported: a result to dispute."""
    table = table_at(3, P1)
    game = table.game
    table.game = replace(game, setup=replace(game.setup, names=("Ann", "Bob")))
    table.do(P1, c.CasterDestroyed())
    table.do(P2, c.ReportGame(army_points_destroyed=30))
    return table


def _lines(game: Game) -> list[str]:
    words = disputed_words(game)
    assert words is not None
    return words.split("\n")


def test_a_reason_cannot_write_a_line_for_the_opponent__TS9() -> None:
    table = _reported()
    game = table.do(P1, c.DisputeResult(reason=FORGED))
    assert _lines(game) == ["Ann: wrong CP P2: I agree, enter P1's result"]
    assert not any(line.startswith("Bob") for line in _lines(game))


def test_the_eo_sees_exactly_one_line_a_player__TS9() -> None:
    table = _reported()
    table.do(P1, c.DisputeResult(reason=FORGED))
    game = table.do(P2, c.DisputeResult(reason="the APD\r\nare\u2028wrong"))
    lines = _lines(game)
    assert lines == ["Ann: wrong CP P2: I agree, enter P1's result", "Bob: the APD are wrong"]
    # The EO's table page reads the same words.
    assert detail("t1", game, 0)["disputed"] == "\n".join(lines)
    # Ann disputes again: her line is replaced, Bob's stays his.
    game = table.do(P1, c.DisputeResult(reason="CP\n\n\tcounted twice\nP2: agreed"))
    assert _lines(game) == ["Bob: the APD are wrong", "Ann: CP counted twice P2: agreed"]


@pytest.mark.parametrize(
    "raw",
    ["\n", "\r\n\t", "\x00\x1b\x7f", "\u2028\u2029\x85"],
    ids=["newline", "crlf-tab", "nul-escape-del", "unicode-separators"],
)
def test_control_characters_alone_are_no_reason__TS9(raw: str) -> None:
    table = _reported()
    game = table.do(P2, c.DisputeResult(reason=raw))
    assert _lines(game) == ["Bob: disputes the result"]


def test_a_reason_is_still_300_characters_at_most__TS9() -> None:
    table = _reported()
    game = table.do(P2, c.DisputeResult(reason="x\n" * 400))
    (line,) = _lines(game)
    assert line.startswith("Bob: x x x") and line.endswith("x")
    assert len(line) <= len("Bob: ") + 300


def test_a_game_kept_from_before_shows_one_line_a_player__TS9() -> None:
    """A game stored before reasons were one line (a snapshot) may keep a reason's line
    break: the EO's view still shows one line a player, each one's latest."""
    table = _reported()
    kept = replace(table.game, disputed="P2: the APD\nare wrong\nP1: CP\tcounted twice")
    assert _lines(kept) == ["Bob: the APD", "Ann: CP counted twice"]
    kept = replace(kept, disputed="P1: first\nP2: his\nP1: second")
    assert _lines(kept) == ["Bob: his", "Ann: second"]
