"""Read models: the event as its EO and the public see it (players, rounds with their
pairings and results, standings) and the dashboard's snapshot.

A view is built from one query set (the event, its players, rounds and the EO's
results, read in one session, plus the live tables) and kept until the event changes:
the book's "changed" signal, or a table of the event whose status moved (the view
keeps the statuses it was built with). A table's result being confirmed is a change of
the event (the standings move): the hub's listener only marks it, and the signal goes
from the loop's next turn, never under the table's lock.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass
from typing import Any

from app.domain import variants
from app.domain.errors import NotFound
from app.domain.formats import MINUTE_MS, get_format, scenario_name
from app.domain.rankings import get_ranking
from app.domain.standings import PlayerRecord
from app.domain.tournament import eo_pause_plays_on, field_size
from app.domain.variants import names as variant_names
from app.events.base import cut_final, event_clock_ms, event_variants, list_policy, pairings_of
from app.events.book import ChangeListener, EventBook
from app.events.dashboard import Dashboards, summary
from app.events.event_lists import made_public
from app.events.results import (
    complete,
    event_standings,
    over,
    plan_of,
    recorded_results,
    records_of,
)
from app.events.table_result import TableResult
from app.events.tournaments import Tournaments
from app.store.models import EventRecord, PlayerEntry, RoundEntry
from app.tables import round_gate
from app.tables.hub import TableHub
from app.tables.room import TableRoom, table_status
from app.tables.timesource import TimeSource
from app.tables.warmachine import seating

View = dict[str, Any]
#: Each live table of an event with its status, as a view was built with them.
Statuses = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class EventData:
    """One query set: everything a view of the event is made of."""

    event: EventRecord
    players: list[PlayerEntry]
    rounds: list[RoundEntry]
    results: dict[str, TableResult]
    records: list[PlayerRecord]
    #: The EO made the players' lists public (once round 1 started).
    lists_public: bool = False
    #: RP1: the cut is made and its round under way: nobody joins the event now.
    cut_final: bool = False


class ReadModels:
    def __init__(
        self, book: EventBook, hub: TableHub, time: TimeSource, tournaments: Tournaments
    ) -> None:
        self.book = book
        self.hub = hub
        self.time = time
        #: The views of events run by their format's own tournament policy.
        self.tournaments = tournaments
        self.builds = 0  # query sets read so far (one per change of an event that is read)
        self._views: dict[str, tuple[Statuses, dict[bool, View]]] = {}
        self._status: dict[str, str] = {}
        book.listeners.insert(0, self.invalidate)
        hub.listeners.append(self.table_changed)

    # -- keeping the views current --------------------------------------------------

    def invalidate(self, event_id: str) -> None:
        self._views.pop(event_id, None)

    def table_changed(self, room: TableRoom) -> None:
        """A hub listener, under the table's lock: it only marks, nothing is built here."""
        if room.meta is None:
            return
        status = room.engine.status(room.game)
        if self._status.get(room.table_id) == status:
            return
        self._status[room.table_id] = status
        if status == "confirmed":  # the standings moved
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a script): nobody is listening on a socket
                self.book.changed(room.meta.event_id)
            else:
                loop.call_soon(self.book.changed, room.meta.event_id)

    # -- building -----------------------------------------------------------------

    def load(self, event_id: str) -> EventData:
        with self.book.read() as repo:
            event = repo.event(event_id)
            if event is None:
                raise NotFound(f"no event {event_id!r}")
            players = repo.players(event_id)
            rounds = repo.rounds(event_id)
            actions = repo.actions(event_id)
        self.builds += 1
        results = recorded_results(self.hub.event_tables(event_id))
        records = records_of(event, players, rounds, results)
        closed = cut_final(event, rounds, actions)
        return EventData(event, players, rounds, results, records, made_public(actions), closed)

    def _build(self, event_id: str) -> dict[bool, View]:
        data = self.load(event_id)
        statuses: dict[str | None, str] = {}
        firsts: dict[str | None, str | None] = {}
        for entry in data.rounds:
            for row in pairings_of(entry):
                room = self.hub.get(row.table_id or "")
                statuses[row.table_id] = "bye" if room is None else table_status(room.game)
                if room is not None and row.p2 is not None and round_gate.first_known(room):
                    firsts[row.table_id] = seating.first_player(room.game, (row.p1, row.p2))
        # The players: their disqualifications (ST3/ST4) and a Cut to Top (RP1).
        ended = over(data.event, data.rounds, data.records, data.results)
        standing = event_standings(data.event, data.rounds, data.records, data.players, ended)
        ranked = [asdict(s) for s in standing]
        return {
            admin: _event_view(data, (statuses, firsts), ranked, admin) for admin in (False, True)
        }

    def _statuses(self, event_id: str) -> Statuses:
        """Each table's status, and who goes first at it (decided at the table)."""
        rooms = self.hub.event_tables(event_id)
        return tuple(
            sorted(
                (r.table_id, f"{table_status(r.game)}:{seating.first_seat(r.game)}") for r in rooms
            )
        )

    def event_view(self, event_id: str, admin: bool = False) -> View:
        """The event as its EO (`admin`) or the public sees it: the public sees neither
        the players' lists nor a round's scenario and pairings before it starts (RP4)."""
        own = self.tournaments.view(event_id, admin)
        if own is not None:
            return {**own, "server_ms": self.time.now_ms()}
        statuses = self._statuses(event_id)
        cached = self._views.get(event_id)
        if cached is None or cached[0] != statuses:
            cached = self._views[event_id] = (statuses, self._build(event_id))
        return {**cached[1][admin], "server_ms": self.time.now_ms()}

    def round_view(self, event_id: str, number: int, admin: bool = False) -> View:
        rounds: list[View] = self.event_view(event_id, admin)["rounds"]
        return rounds[number - 1]

    def dashboard_snapshot(self, event_id: str, role: str) -> View:
        now = self.time.now_ms()
        view = self.event_view(event_id, admin=role == "eo")
        current = view["rounds"][-1] if view["rounds"] else None
        ids = {p["table_id"] for p in current["pairings"]} if current else set()
        rooms = sorted(
            self.hub.event_tables(event_id),
            key=lambda r: (r.meta.round_number, r.meta.table_no) if r.meta else (0, 0),
        )
        tables = [summary(r, now) for r in rooms if r.table_id in ids]
        return {"t": "dashboard", "role": role, **view, "round": current, "tables": tables}

    def publisher(self, dashboards: Dashboards) -> ChangeListener:
        """A "changed" listener: the event's dashboards get its new views."""

        def publish(event_id: str) -> None:
            dashboard = dashboards.by_event.get(event_id)
            if dashboard is None:
                return
            dashboard.changed()
            if not dashboard.channel.subscribers:
                return
            dashboard.publish_by_role(
                {
                    role: {"t": "event", **self.event_view(event_id, admin=role == "eo")}
                    for role in ("eo", "public")
                },
                fallback="public",
            )

        return publish


def _result_json(result: TableResult | None) -> View | None:
    return None if result is None else result.as_json()


#: Each table's status, and the player who goes first at it (None: not decided yet).
Tables = tuple[dict[str | None, str], dict[str | None, str | None]]


def _round_view(data: EventData, entry: RoundEntry, tables: Tables, admin: bool) -> View:
    statuses, firsts = tables
    if entry.started_ms is None and not admin:
        # RP4: the scenario (and the draft pairings) are announced when the round starts.
        return {
            "number": entry.number,
            "scenario": None,
            "started_ms": None,
            "expected_end_ms": None,
            "end_calls": None,
            "complete": False,
            "pairings": [],
            "announced": False,
            "notes": [],
        }
    names = {p.id: p.name for p in data.players}
    pairings = [
        {
            "table": row.table,
            "p1": {"id": row.p1, "name": names.get(row.p1, "?")},
            "p2": None if row.p2 is None else {"id": row.p2, "name": names.get(row.p2, "?")},
            "paired_down": row.paired_down,
            "first": firsts.get(row.table_id),
            "table_id": row.table_id,
            "status": statuses.get(row.table_id, "bye"),
            "result": _result_json(data.results.get(row.table_id or "")),
        }
        for row in pairings_of(entry)
    ]
    return {
        "number": entry.number,
        "scenario": {
            "id": entry.scenario_id,
            "name": scenario_name(data.event.format_id, entry.scenario_id),
        },
        "started_ms": entry.started_ms,
        "expected_end_ms": entry.expected_end_ms,
        "end_calls": None if entry.end_calls_json is None else json.loads(entry.end_calls_json),
        "complete": complete(entry, data.results),
        "pairings": pairings,
        "announced": entry.started_ms is not None,
        # Why the pairing chose as it did, for the EO only.
        "notes": json.loads(entry.notes_json) if admin else [],
    }


def _list_rules(event: EventRecord) -> dict[str, Any]:
    """What the event checks in the players' lists; whether its Active Duty Roster is
    checked (None: its lists use none; False: the EO entered none)."""
    checks = list_policy(event)[1]
    checked = (checks.roster is not None) if checks.roster_offered else None
    return {
        "list_rules": checks.words(event.points),
        "active_duty_roster": event.roster,
        "active_duty_roster_checked": checked,
    }


def _minutes(ms: int) -> int | float:
    return ms // MINUTE_MS if ms % MINUTE_MS == 0 else ms / MINUTE_MS


def _timing(event: EventRecord) -> dict[str, Any]:
    """How the event's tables are timed, as the tables start: "clock" (each player's
    chess clock: the EO's minutes or the format's, DC4), "classic" (DC10: a round timer,
    no player clock) or "untimed" (No Time Limits); and the round's length from the
    last table's deployment (both player clocks, or the round time; None: no end)."""
    fmt = get_format(event.format_id)
    chosen = variants.parse(event_variants(event), fmt.variants, fmt.name)
    player_ms = event_clock_ms(event)
    round_ms = variants.round_end_ms(0, event.points, chosen, player_ms)
    untimed = "untimed" if round_ms is None else "classic"
    timing = "clock" if chosen.timing is None else untimed
    return {
        "timing": timing,
        "player_clock_minutes": _minutes(player_ms) if timing == "clock" else None,
        "round_minutes": None if round_ms is None else _minutes(round_ms),
    }


def _event_view(data: EventData, tables: Tables, ranked: list[View], admin: bool) -> View:
    event, players, rounds = data.event, data.players, data.rounds
    field = max(field_size(data.records), 2)
    planned = plan_of(event).round_limit(field) if players or rounds else None
    return {
        "event": {
            "id": event.id,
            "name": event.name,
            "format": event.format_id,
            "format_name": get_format(event.format_id).name,
            "tie_word": get_format(event.format_id).tie_word,  # IG2014: "Draw"
            # DC8: a table the EO pauses in a round plays on at its end, not a tie.
            "eo_pause_plays_on": eo_pause_plays_on(get_format(event.format_id)),
            "points": event.points,
            "clock_minutes": event.clock_minutes,
            # The clocks the tables really start with (one source for every page).
            **_timing(event),
            "lists": event.lists,
            "fixed_rounds": event.fixed_rounds,
            "cut_to_top": event.cut_to_top,
            "cut_final": data.cut_final,
            "variants": variant_names(v for v in event.variants.split(",") if v),
            "pregame": event.pregame,
            "fresh_tables": event.fresh_tables,
            "planned_rounds": planned,
            "over": over(event, rounds, data.records, data.results),
            "standings": event.standings,
            "standings_name": get_ranking(event.standings).name,
            "standings_order": get_ranking(event.standings).order_words,
            "painting_category": event.painting_category,
            "lists_locked": any(r.started_ms is not None for r in rounds),
            "lists_public": data.lists_public,
            **_list_rules(event),
        },
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "faction": p.faction,
                "lists": p.lists if admin else "",
                "list_note": p.list_note if admin else "",
                "painted": p.painted,
                "club": p.club,
                "seed_qp": p.seed_qp,
                "dropped": p.dropped,
                "cut": p.cut,
                "disqualified": p.disqualified,
                "joined_round": p.joined_round,
            }
            for p in players
        ],
        "rounds": [_round_view(data, r, tables, admin) for r in rounds],
        "standings": ranked,
    }
