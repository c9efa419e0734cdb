"""A Runewars event as the EO, the public and the dashboard see it: players with army
values, rounds with their stage, cards, time and pairings (each with its live table and
result), the cut, the standings (ST5) and the winner once known."""

from __future__ import annotations

from typing import Any

from app.domain.errors import RuleError
from app.domain.runewars.event import RoundPlay
from app.domain.runewars.judge import why_needed
from app.domain.runewars.rules import plan_for, season
from app.domain.runewars.ruleset import RW2017
from app.domain.runewars.standings import Entrant
from app.domain.runewars.state import RwGame
from app.events.runewars.live import RunewarsEvent
from app.store.models import EventRecord
from app.tables.runewars.table import reports

MINUTE_MS = 60_000


def _player(p: Entrant | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "id": p.id,
        "name": p.name,
        "army_value": p.army_value,
        "dropped": p.dropped,
        "disqualified": p.disqualified,
    }


def _season(season_id: str) -> dict[str, Any]:
    """Legal Deployments and Objectives: the season whose cards the rounds draw."""
    cards = season(season_id)
    return {
        "id": cards.id,
        "name": cards.name,
        "deployments": list(cards.deployments),
        "objectives": list(cards.objectives),
    }


def _judging(game: object) -> dict[str, Any] | None:
    """What the organiser's result form starts from: where the table is, the players'
    reports (their scores and hits, confirmations and reasons for a dispute), whether a
    result is worked out or stands, and the reason of the organiser's last entry."""
    if not isinstance(game, RwGame):
        return None
    return {
        "open": True,  # the organiser enters a table's result in any state
        "phase": game.phase.value,
        "time_called": game.time_called,
        "decided": game.outcome is not None,
        "settled": game.settled,
        "disputed": game.in_dispute,
        "needs_reason": why_needed(game) is not None,
        "entries": [list(e) if e is not None else None for e in game.entries],
        "reports": reports(game),
        "conceded": None if game.conceded is None else game.conceded.label.lower(),
        "judged": game.judged,
        "judged_reason": game.judged_reason,
        "correction": None if game.correction is None else game.correction.reason,
    }


def _extension(game: object) -> dict[str, Any]:
    """Lost and Damaged Components: the table's own time extension and when its
    round timer ends (None: not started)."""
    if not isinstance(game, RwGame):
        return {"extension_minutes": 0, "extension_reason": "", "ends_ms": None}
    return {
        "extension_minutes": game.extension_ms // MINUTE_MS,
        "extension_reason": game.extension_reason,
        "ends_ms": game.ends_ms(),
    }


def _round(live: RunewarsEvent, play: RoundPlay, admin: bool) -> dict[str, Any]:
    state = live.state
    pairings = []
    started: list[int] = []
    called = False
    for m in play.matches:
        room = live._room(play.number, m.game)
        game = None if room is None else room.game
        if isinstance(game, RwGame) and game.started_ms is not None:
            started.append(game.started_ms)
            called = called or game.time_called
        result = play.results.get(m.game)
        pairings.append(
            {
                "table": m.game,
                "p1": _player(state.player(m.a)),
                "p2": None if m.b is None else _player(state.player(m.b)),
                "table_id": None if room is None else room.table_id,
                "status": "bye"
                if m.b is None
                else (
                    "confirmed"
                    if result is not None or room is None
                    else room.engine.status(room.game)
                ),
                "result": None
                if result is None
                else {"winner": result.winner, "tp": list(result.tp), "mov": list(result.mov)},
                "judging": _judging(game),
                **_extension(game),
            }
        )
    start = min(started) if started else None
    if start is None and not admin:
        # RP4: the round's cards and pairings are announced when the organiser starts it.
        return {
            "number": play.number,
            "stage": play.stage.value,
            "deployment": None,
            "objective": None,
            "minutes": play.minutes,
            "scenario": None,
            "started_ms": None,
            "expected_end_ms": None,
            "complete": False,
            "pairings": [],
            "announced": False,
        }
    return {
        "number": play.number,
        "stage": play.stage.value,
        "deployment": play.deployment,
        "objective": play.objective,
        "minutes": play.minutes,
        "scenario": {"id": None, "name": f"{play.deployment} / {play.objective}"},
        "started_ms": start,
        "expected_end_ms": None if start is None else start + play.minutes * MINUTE_MS,
        "time_called": called,
        "complete": play.complete,
        "pairings": pairings,
    }


def event_view(
    event: EventRecord, live: RunewarsEvent, tournament: str, admin: bool = True
) -> dict[str, Any]:
    """The event as its organiser (`admin`) or the public sees it: the public sees a
    round's cards and pairings once the round has started."""
    state = live.state
    names = {p.id: p.name for p in state.players}
    by = state.plan.by_attendance
    return {
        "event": {
            "id": event.id,
            "name": event.name,
            "format": event.format_id,
            "format_name": RW2017.name,
            "points": event.points,
            "planned_rounds": state.plan.swiss_rounds + state.plan.elimination_rounds,
            "tournament": tournament,
        },
        "id": event.id,
        "name": event.name,
        "format": event.format_id,
        "plan": {
            "swiss_rounds": state.plan.swiss_rounds,
            "cut": state.plan.cut,
            "by_attendance": None if by is None else by.value,
        },
        "attendance_plan": _attendance_plan(live) if admin else None,
        "season": _season(state.season),
        "asks_lists": state.asks_lists,
        "players": [_player(p) for p in state.players],
        "rounds": [_round(live, play, admin) for play in state.rounds],
        "cut_to": [names.get(i, i) for i in state.cut_to],
        "standings": [s.row() for s in live.standings()],
        "over": state.over,
        "winner": names.get(state.winner) if state.winner else None,
    }


def _attendance_plan(live: RunewarsEvent) -> dict[str, Any] | None:
    """RP6: before round 1 is paired, the Swiss rounds and cut its structure gives the
    players still in, for the organiser to see before they apply."""
    state = live.state
    by = state.plan.by_attendance
    if by is None or state.rounds:
        return None
    playing = sum(not p.dropped for p in state.players)
    try:
        plan = plan_for(by, playing)
    except RuleError as refused:
        return {"players": playing, "refused": str(refused)}
    return {"players": playing, "swiss_rounds": plan.swiss_rounds, "cut": plan.cut}
