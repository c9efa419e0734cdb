"""A Runewars event's state as stored: the pure `RwEvent` to plain JSON and back, whole
(players with army values, games, the standings' fixed draw and whether the organiser
disqualified them; rounds with their cards, time, pairings and results; the cut)."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

from app.domain.runewars.event import Result, RoundPlay, RwEvent
from app.domain.runewars.pairing import Match
from app.domain.runewars.rules import FIRST_SEASON, Plan, Stage, Structure
from app.domain.runewars.standings import Entrant, Played


def _played(g: Played) -> list[Any]:
    return [g.round, g.stage.value, g.opponent_id, g.won, g.tp, g.mov]


def _entrant(p: Entrant) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "army_value": p.army_value,
        "draw": p.draw,
        "dropped": p.dropped,
        "games": [_played(g) for g in p.games],
        "army_list": p.army_list,
        "disqualified": p.disqualified,
    }


def _round(r: RoundPlay) -> dict[str, Any]:
    return {
        "number": r.number,
        "stage": r.stage.value,
        "deployment": r.deployment,
        "objective": r.objective,
        "minutes": r.minutes,
        "matches": [[m.game, m.a, m.b] for m in r.matches],
        "results": {str(k): [v.winner, list(v.tp), list(v.mov)] for k, v in r.results.items()},
    }


def dump_event(event: RwEvent) -> str:
    return json.dumps(
        {
            "name": event.name,
            "plan": [event.plan.swiss_rounds, event.plan.cut, _structure(event.plan)],
            "players": [_entrant(p) for p in event.players],
            "rounds": [_round(r) for r in event.rounds],
            "cut_to": list(event.cut_to),
            "season": event.season,
            "asks_lists": event.asks_lists,
        }
    )


def _structure(plan: Plan) -> str | None:
    return None if plan.by_attendance is None else plan.by_attendance.value


def _load_plan(raw: list[Any]) -> Plan:
    """A plan, by attendance until the first round (plans stored before: always set)."""
    by = raw[2] if len(raw) > 2 else None
    return Plan(raw[0], raw[1], None if by is None else Structure(by))


def _load_entrant(d: dict[str, Any]) -> Entrant:
    games = tuple(Played(g[0], Stage(g[1]), g[2], g[3], g[4], g[5]) for g in d["games"])
    return Entrant(
        d["id"],
        d["name"],
        d["army_value"],
        d["draw"],
        games,
        d["dropped"],
        d.get("army_list", ""),
        d.get("disqualified", False),  # events stored before disqualifications: nobody
    )


def _load_round(d: dict[str, Any]) -> RoundPlay:
    results = {
        int(k): Result(v[0], (v[1][0], v[1][1]), (v[2][0], v[2][1]))
        for k, v in d["results"].items()
    }
    return RoundPlay(
        d["number"],
        Stage(d["stage"]),
        d["deployment"],
        d["objective"],
        d["minutes"],
        tuple(Match(m[0], m[1], m[2]) for m in d["matches"]),
        MappingProxyType(results),
    )


def load_event(text: str) -> RwEvent:
    d = json.loads(text)
    return RwEvent(
        d["name"],
        _load_plan(d["plan"]),
        tuple(_load_entrant(p) for p in d["players"]),
        tuple(_load_round(r) for r in d["rounds"]),
        tuple(d["cut_to"]),
        d.get("season", FIRST_SEASON),  # events stored before the seasons: July's cards
        d.get("asks_lists", False),
    )


def dump_tables(tables: dict[tuple[int, int], str]) -> str:
    return json.dumps([[n, g, t] for (n, g), t in sorted(tables.items())])


def load_tables(text: str) -> dict[tuple[int, int], str]:
    rows = json.loads(text) or []
    return {(n, g): t for n, g, t in rows}
