"""Undo by agreement that both phones see: a player asks within 10 s of the tap (the
server's times); the opponent's 10 s start when their phone shows the request; what became
of every request (accepted, declined, lapsed, never shown, overtaken) is recorded."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.domain import commands as c
from app.domain.errors import NotYourSeat, RuleError, StaleCommand
from app.domain.game import (
    UNDO_UNSEEN_MS,
    UNDO_WINDOW_MS,
    Game,
    Phase,
    UndoEnd,
    UndoOutcome,
    time_due_at,
)
from app.tables.warmachine.engine import WARMACHINE
from app.tables.warmachine.view import game_view

from .helpers import EO, MINUTE, P1, P2, SYSTEM, Table, scoring, table_at

WATCHER = c.Role.WATCHER


def asked(by: c.Actor = P1, *, after_tap: int = 2_000, clock_ms: int = 60 * MINUTE) -> Table:
    """P1 ended turn 3 (P2's clock runs); `by` asked to undo it `after_tap` ms later."""
    table = table_at(3, P1, player_clock_ms=clock_ms)
    table.tap(kill_box=False, score=scoring())
    table.do(by, c.ProposeUndo(), after=after_tap)
    return table


def test_undo_answer_window_starts_when_the_opponents_phone_shows_the_request() -> None:
    table = asked(after_tap=2_000)
    table.wait(30_000)  # Bob's phone was in his pocket, its screen off
    shown = table.do(P2, c.UndoSeen())
    assert shown.undo is not None and shown.undo.seen_at_ms == table.now
    assert time_due_at(shown) == table.now + UNDO_WINDOW_MS
    game = table.do(P2, c.AnswerUndo(accept=True), after=UNDO_WINDOW_MS - 1)
    assert (game.turn, game.active, game.clock.running) == (3, P1, P1)
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.ACCEPTED, table.now)


def test_undo_asking_window_counts_from_the_tap_and_a_slow_confirm_costs_no_answer_time() -> None:
    """Ann's confirm dialog took 9.9 s: she asked in time, and Bob still has his 10 s."""
    table = asked(after_tap=UNDO_WINDOW_MS - 100)
    table.do(P2, c.UndoSeen(), after=500)
    game = table.do(P2, c.AnswerUndo(accept=True), after=9_000)
    assert game.undo_outcome is not None and game.undo_outcome.end is UndoEnd.ACCEPTED
    late = table_at(3, P1)
    late.tap(kill_box=False, score=scoring())
    with pytest.raises(RuleError, match="within 10 seconds"):
        late.try_do(P1, c.ProposeUndo(), after=UNDO_WINDOW_MS + 1)


def test_undo_shown_is_reported_by_the_opponents_phone_only_and_only_once() -> None:
    table = asked()
    for sender in (P1, EO, WATCHER, SYSTEM):
        with pytest.raises(NotYourSeat):
            table.try_do(sender, c.UndoSeen())
    table.do(P2, c.UndoSeen(), after=3_000)
    seen_at = table.now
    # A second phone of Bob's (or a resend) cannot move the window, back or forward.
    with pytest.raises(StaleCommand):
        table.try_do(P2, c.UndoSeen(), after=5_000)
    assert table.game.undo is not None and table.game.undo.seen_at_ms == seen_at
    assert time_due_at(table.game) == seen_at + UNDO_WINDOW_MS


def test_undo_shown_without_a_request_is_refused() -> None:
    table = table_at(3, P1)
    table.tap(kill_box=False, score=scoring())
    with pytest.raises(RuleError, match="no undo"):
        table.try_do(P2, c.UndoSeen())


def test_undo_declined_is_recorded_by_who_asked_and_the_tap_stands() -> None:
    table = asked()
    tapped = table.game
    table.do(P2, c.UndoSeen())
    game = table.do(P2, c.AnswerUndo(accept=False), after=4_000)
    assert game.undo is None
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.DECLINED, table.now)
    assert (game.turn, game.active, game.clock) == (tapped.turn, tapped.active, tapped.clock)
    # The outcome stays until the next tap.
    assert table.do(EO, c.AdjustClock(P1, 30 * MINUTE)).undo_outcome == game.undo_outcome
    assert table.tap(score=scoring()).undo_outcome is None


def test_undo_shown_and_unanswered_lapses_ten_seconds_later_and_is_recorded() -> None:
    table = asked()
    table.do(P2, c.UndoSeen(), after=1_000)
    seen_at = table.now
    still = table.do(SYSTEM, c.FlagCheck(), after=UNDO_WINDOW_MS - 1)
    assert still.undo is not None and still.undo_outcome is None
    lapsed = table.do(SYSTEM, c.FlagCheck(), after=1)
    assert lapsed.undo is None
    assert lapsed.undo_outcome == UndoOutcome(P1, UndoEnd.LAPSED, seen_at + UNDO_WINDOW_MS)
    with pytest.raises(RuleError, match="lapsed"):
        table.try_do(P2, c.AnswerUndo(accept=True))
    with pytest.raises(RuleError, match="no tap"):
        table.try_do(P1, c.ProposeUndo())


def test_undo_never_shown_lapses_sixty_seconds_after_it_was_asked() -> None:
    table = asked()
    asked_at = table.now
    assert time_due_at(table.game) == asked_at + UNDO_UNSEEN_MS
    table.wait(UNDO_UNSEEN_MS)
    with pytest.raises(RuleError, match="before it was shown"):
        table.try_do(P2, c.UndoSeen(), after=0)
    game = table.do(SYSTEM, c.FlagCheck(), after=0)
    assert game.undo is None
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.UNSEEN, asked_at + UNDO_UNSEEN_MS)


def _overtakers() -> dict[str, Callable[[Game], tuple[c.Actor, c.Command]]]:
    return {
        "the running player's tap": lambda g: (g.active, c.PassTurn(expect=g.active)),
        "an interrupt": lambda g: (g.active, c.SwitchClock(to=g.active.other)),
        "the EO's pause": lambda _g: (EO, c.PauseClock()),
        "the EO's clock adjustment": lambda _g: (EO, c.AdjustClock(P2, 5 * MINUTE)),
        "a concession": lambda _g: (P2, c.Concede()),
        "a caster destroyed": lambda _g: (P2, c.CasterDestroyed()),
        "a tie at the round's end": lambda _g: (SYSTEM, c.CallTie()),
    }


@pytest.mark.parametrize("how", sorted(_overtakers()))
def test_undo_request_overtaken_by_the_game_is_recorded_never_lost(how: str) -> None:
    table = asked()
    table.do(P2, c.UndoSeen())
    actor, command = _overtakers()[how](table.game)
    if isinstance(command, c.PassTurn):
        command = c.PassTurn(expect=command.expect, turn_end=c.TurnEnd(False, scoring()))
    game = table.do(actor, command, after=2_000)
    assert game.undo is None or game.undo.proposed_by is None
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.SUPERSEDED, table.now)


def test_undo_request_overtaken_by_a_clock_running_out_is_recorded_at_the_flag() -> None:
    """Bob has 5 s left when Ann asks: his clock runs out before he answers."""
    table = table_at(3, P1, player_clock_ms=30 * MINUTE)
    table.do(EO, c.AdjustClock(P2, 5_000))
    table.tap(kill_box=False, score=scoring())
    table.do(P1, c.ProposeUndo())
    flag_at = table.game.clock.flag_at()
    assert flag_at is not None and time_due_at(table.game) == flag_at
    game = table.do(SYSTEM, c.FlagCheck(), after=10_000)
    assert game.flagged is P2
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.SUPERSEDED, flag_at)


def test_undo_accepted_late_in_its_window_gives_the_time_since_the_tap_to_the_tapper() -> None:
    """As before: an accepted undo is the game as if the tap never happened, so the time
    since the tap ran on Ann's clock, however long the request took to show."""
    table = table_at(3, P1)
    pre = table.game
    table.tap(kill_box=False, score=scoring())
    tapped_at = table.now
    table.do(P1, c.ProposeUndo(), after=3_000)
    table.do(P2, c.UndoSeen(), after=40_000)
    game = table.do(P2, c.AnswerUndo(accept=True), after=5_000)
    assert game.remaining(P1, table.now) == pre.remaining(P1, tapped_at) - (table.now - tapped_at)
    assert game.remaining(P2, table.now) == pre.remaining(P2, tapped_at)


def test_undo_accepted_after_the_tappers_time_ran_out_meanwhile_flags_them() -> None:
    table = table_at(4, P1, player_clock_ms=30 * MINUTE)
    left = table.game.remaining(P1, table.now)
    table.tap(score=scoring(), after=left - 3_000)
    table.do(P1, c.ProposeUndo(), after=1_000)
    table.do(P2, c.UndoSeen(), after=20_000)
    game = table.do(P2, c.AnswerUndo(accept=True), after=1_000)
    assert (game.flagged, game.phase) == (P1, Phase.CLOCK_OUT)
    assert game.undo_outcome is not None and game.undo_outcome.end is UndoEnd.ACCEPTED


def test_undo_asked_twice_is_refused_and_the_first_request_stands() -> None:
    table = asked()
    first = table.game.undo
    with pytest.raises(StaleCommand):
        table.try_do(P1, c.ProposeUndo())
    with pytest.raises(RuleError, match="answer their request"):
        table.try_do(P2, c.ProposeUndo())
    assert table.game.undo is first


def test_undo_view_shows_the_request_its_showing_and_its_outcome_to_every_screen() -> None:
    table = asked()
    asked_at = table.now
    view = game_view(table.game, table.now)
    (prompt,) = [d for d in view["due"] if d["kind"] == "answer_undo"]
    assert prompt == {
        "kind": "answer_undo",
        "by": "p2",
        "asked_by": "p1",
        "seen": False,
        "until_ms": asked_at + UNDO_UNSEEN_MS,
    }
    assert view["undo"]["ask_until_ms"] == asked_at - 2_000 + UNDO_WINDOW_MS
    table.do(P2, c.UndoSeen(), after=1_500)
    view = game_view(table.game, table.now)
    (prompt,) = [d for d in view["due"] if d["kind"] == "answer_undo"]
    assert (prompt["seen"], prompt["until_ms"]) == (True, table.now + UNDO_WINDOW_MS)
    assert view["undo"]["seen_at_ms"] == table.now
    table.do(SYSTEM, c.FlagCheck(), after=UNDO_WINDOW_MS)
    view = game_view(table.game, table.now)
    assert [d for d in view["due"] if "undo" in d["kind"]] == [
        {
            "kind": "undo_outcome",
            "by": "p2",
            "asked_by": "p1",
            "end": "lapsed",
            "at_ms": table.now,
        }
    ]


def test_undo_lapse_is_the_servers_tick_at_its_moment_and_no_merge_barrier() -> None:
    """The room's timer looks at the lapse's moment, logs it there, and an offline merge may
    still place a tap before it (time alone decides the lapse again)."""
    table = asked()
    table.do(P2, c.UndoSeen())
    lapse_at = table.now + UNDO_WINDOW_MS
    assert WARMACHINE.due(table.game) == lapse_at
    assert WARMACHINE.tick(table.game, lapse_at - 1) is None
    ticked = WARMACHINE.tick(table.game, lapse_at + 5_000)
    assert ticked is not None
    game, wire, at_ms = ticked
    assert (wire, at_ms) == ({"c": "flag", "undo": "lapsed"}, lapse_at)
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.LAPSED, lapse_at)
    assert not WARMACHINE.decides("system", game)
    assert WARMACHINE.decides("eo", game)


def test_undo_request_and_its_outcome_come_back_from_a_snapshot() -> None:
    from app.tables import snapshot

    table = asked()
    shown = table.do(P2, c.UndoSeen())
    assert snapshot.read(snapshot.write(shown)) == shown
    declined = table.do(P2, c.AnswerUndo(accept=False))
    assert snapshot.read(snapshot.write(declined)) == declined


def test_undo_shown_report_a_merge_finds_after_the_request_does_nothing() -> None:
    """A merge that places the opponent's offline tap before their phone's report that it
    showed the request: the tap overtook the request, and the report does nothing (the
    merge is not refused for it)."""
    from app.domain.merge import Timed, merge

    table = asked()
    base, at = table.game, table.now
    tap = c.PassTurn(expect=P2, turn_end=c.TurnEnd(False, scoring()))
    game, applied, dropped = merge(
        base,
        [Timed(at + 2_000, P2, c.UndoSeen()), Timed(at + 1_000, P2, tap, offline=True)],
        at + 3_000,
    )
    assert [type(t.command) for t in applied] == [c.PassTurn]
    assert [type(t.command) for t in dropped] == [c.UndoSeen]
    assert game.undo_outcome == UndoOutcome(P1, UndoEnd.SUPERSEDED, at + 1_000)
