"""A season: a circuit that holds events. An Iron Gauntlet season's events are its
qualifiers (IGQs): once one is over, its top three's QPs (ST4 2019) go to the season
table, the EO's report of them is due 14 days later, and the players with 10 or more
QPs seed the world final it creates. A Masters tournament's qualifiers are a season of
their own kind: the final they seed needs 32 distinct players among them.

Players are matched across events only as the season's keeper confirms: the page
proposes matches by name; an entry nobody confirmed counts on its own."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.domain import qualifiers as q
from app.domain.errors import BadInput, NotFound, RuleError, Unauthorized
from app.domain.formats import get_format
from app.domain.prize_ties import places_given
from app.domain.standings import Standing
from app.events.base import EventSpec
from app.events.book import EventBook
from app.events.prize_ties import decisions_of, event_prizes, tie_choices
from app.events.registration import Registration
from app.events.results import Results, disqualified_ids
from app.events.season_events import HeldEvent, held_over, row_view, sent_report
from app.events.season_events import event_view as event_view  # season_reports reads it here
from app.store.models import EventRecord
from app.store.models_season import SeasonEvent, SeasonRecord, SeasonReportLine, SeasonStore
from app.store.repository import Store
from app.tables.hub import new_id, new_token
from app.tables.timesource import TimeSource


@dataclass(frozen=True, slots=True)
class FinalSpec:
    """The final the season seeds: its name, format and size, and a QP list pasted in."""

    name: str
    format_id: str = "masters2019"
    points: int = 75
    lists: int | None = 2
    #: A Masters tournament's final: how many of each qualifier's top places it takes.
    per_qualifier: int = 4
    qp_list: str = ""


class Seasons:
    """The seasons' use cases, over the event service's book, results and registration."""

    def __init__(
        self,
        store: Store,
        book: EventBook,
        time: TimeSource,
        results: Results,
        registration: Registration,
    ) -> None:
        self.db = SeasonStore(store.session)
        self.book = book
        self.time = time
        self.results = results
        self.registration = registration

    # -- the season and its keeper ----------------------------------------------

    def create(self, name: str, kind: str = q.IRON_GAUNTLET) -> SeasonRecord:
        name = " ".join(name.split())
        if not name or len(name) > 120:
            raise BadInput("the season needs a name (120 characters at most)")
        if kind not in q.KINDS:
            raise BadInput(
                "a season is an Iron Gauntlet season or a Masters tournament's qualifiers"
            )
        season = SeasonRecord(
            id=new_id(),
            name=name,
            kind=kind,
            keeper_token=new_token(),
            created_ms=self.time.now_ms(),
        )
        with self.db.unit() as repo:
            repo.add(season)
        return season

    def season(self, season_id: str) -> SeasonRecord:
        with self.db.read() as repo:
            season = repo.season(season_id)
        if season is None:
            raise NotFound(f"no season {season_id!r}")
        return season

    def authorize(self, season_id: str, token: str | None) -> SeasonRecord:
        """The season, if `token` is its keeper's."""
        season = self.season(season_id)
        if not token or not secrets.compare_digest(token.encode(), season.keeper_token.encode()):
            raise Unauthorized("this needs the season keeper's link, made with the season")
        return season

    # -- its events ---------------------------------------------------------------

    def hold(self, season_id: str, token: str | None, event_id: str, event_token: str) -> None:
        """The keeper adds an event with its EO's key too: both agree it counts."""
        season = self.authorize(season_id, token)
        event = self.book.event(event_id.strip())
        if not event_token or not secrets.compare_digest(
            event_token.strip().encode(), event.admin_token.encode()
        ):
            raise Unauthorized("adding an event needs its EO's link as well")
        if season.kind not in get_format(event.format_id).seasons:
            fmt = get_format(event.format_id).name
            what = (
                "Masters or Champions events can be Iron Gauntlet qualifiers"
                if season.kind == q.IRON_GAUNTLET
                else "Masters events can be a Masters tournament's qualifiers"
            )
            raise RuleError(f"{event.name} is a {fmt} event: only {what}")
        if event.id == season.final_event_id:
            raise RuleError(f"{event.name} is this season's final")
        with self.db.unit() as repo:
            if any(e.event_id == event.id for e in repo.events(season_id)):
                raise RuleError(f"{event.name} is in this season already")
            repo.add(
                SeasonEvent(season_id=season_id, event_id=event.id, added_ms=self.time.now_ms())
            )

    def release(self, season_id: str, token: str | None, event_id: str) -> None:
        """The keeper takes an event out of the season (added by mistake): its QPs and its
        players leave the season's table; it can be added again with its EO's link.
        Not once the final is made: the final's field came from the season's events."""
        season = self.authorize(season_id, token)
        with self.db.unit() as repo:
            row = next((e for e in repo.events(season_id) if e.event_id == event_id), None)
            if row is None:
                raise NotFound("this event is not one of the season's")
            if season.final_event_id is not None:
                name = self.book.event(event_id).name
                raise RuleError(
                    f"the final is made from this season's events: {name} stays in the season"
                )
            repo.remove_event(row)

    def held(self, season_id: str) -> list[HeldEvent]:
        with self.db.read() as repo:
            rows = repo.events(season_id)
            lines = repo.report_lines(season_id)
        return [self.held_event(row, lines) for row in rows]

    def held_event(self, row: SeasonEvent, lines: Sequence[SeasonReportLine]) -> HeldEvent:
        """The event as the season reads it; `lines`: the season's reports as sent."""
        event_id = row.event_id
        event, players = self.book.event(event_id), self.book.players(event_id)
        sent = sent_report(row, lines, {p.id: p.name for p in players})
        if not self.results.event_over(event_id):
            return HeldEvent(event, False, None, (), row.reported_ms, sent=sent)
        standings = self.results.standings(event_id)
        out = disqualified_ids(players)  # ST3: their places pass down
        finished = self._finished_ms(event_id)
        ties = self._tie_places(event, standings, out)
        return held_over(event, finished, standings, out, row.reported_ms, sent, ties)

    def _tie_places(
        self, event: EventRecord, standings: Sequence[Standing], out: frozenset[str]
    ) -> dict[str, int]:
        """The places the prizes page gives (the EO's choice among players the standings
        tie on every total), so that the season and the prizes say one thing."""
        choices = tie_choices(decisions_of(self.book, event.id))
        return places_given(event_prizes(event), standings, out, choices)

    def awards(self, held: Sequence[HeldEvent]) -> list[q.Award]:
        """The QPs of the events that earn them: reported on time, or still within their
        14 days (ST4: an IGQ whose top three were not reported in time does not count).
        A report sent counts as it was sent, whatever the event's standings say since."""
        now = self.time.now_ms()
        return [a for h in held if h.earns_qp(now) for a in h.awards()]

    def _finished_ms(self, event_id: str) -> int:
        """When the event's last round ended: its last game's end (else the round's)."""
        last = self.book.rounds(event_id)[-1]
        ends = [
            room.game.ending.at_ms
            for room in self.results.hub.event_tables(event_id)
            if room.meta is not None and room.meta.round_number == last.number and room.game.ending
        ]
        return max(ends, default=last.expected_end_ms or last.started_ms or 0)

    # -- who is who ---------------------------------------------------------------

    def identities(self, season_id: str) -> dict[str, str]:
        with self.db.read() as repo:
            return {f"{r.event_id}:{r.player_id}": r.identity for r in repo.identities(season_id)}

    def entries(self, season: SeasonRecord, held: Sequence[HeldEvent]) -> list[q.Entry]:
        """The players the season matches: an IGQ's QP earners, a Masters qualifier's field."""
        if season.kind == q.IRON_GAUNTLET:
            return [line.entry for h in held for line in h.counted()]
        return [e for h in held for _, e in h.ranked]

    def settle(self, season_id: str, token: str | None, keys: Sequence[str], same: bool) -> None:
        """The keeper confirms these entries are one person (`same`), or splits them."""
        season = self.authorize(season_id, token)
        known = {e.ref: e for e in self.entries(season, self.held(season_id))}
        chosen = list(dict.fromkeys(keys))
        if len(chosen) < (2 if same else 1) or any(k not in known for k in chosen):
            raise BadInput("choose players of the season's events to match or split")
        current = self.identities(season_id)
        if same:
            merged = {current[k] for k in chosen if k in current}
            identity = next((current[k] for k in chosen if k in current), new_id())
            keys_now = set(chosen) | {k for k, i in current.items() if i in merged}
            changes = {tuple(k.split(":", 1)): identity for k in keys_now}
        else:
            changes = {tuple(k.split(":", 1)): new_id() for k in chosen}
        with self.db.unit() as repo:
            repo.settle(season_id, {(e, p): i for (e, p), i in changes.items()})

    # -- what the season shows ----------------------------------------------------

    def table(self, season_id: str) -> list[q.SeasonRow]:
        """The season table: each player's QPs over the IGQs that are over."""
        return q.season_table(self.awards(self.held(season_id)), self.identities(season_id))

    def field_problem(self, season_id: str) -> tuple[int, str | None]:
        """A Masters tournament's qualifiers: their distinct players, and why the final
        may not be seeded from them yet."""
        season = self.season(season_id)
        entries = self.entries(season, self.held(season_id))
        identities = self.identities(season_id)
        distinct = q.distinct_players(entries, identities)
        pending = len(q.proposals(entries, identities))
        return distinct, q.qualifier_field_problem(distinct, pending)

    def view(self, season_id: str, keeper: bool = False) -> dict[str, Any]:
        season = self.season(season_id)
        held = self.held(season_id)
        identities = self.identities(season_id)
        entries = self.entries(season, held)
        igq = season.kind == q.IRON_GAUNTLET
        rows = q.season_table(self.awards(held), identities) if igq else []
        pending = q.proposals(entries, identities)
        distinct = q.distinct_players(entries, identities)
        view: dict[str, Any] = {
            "id": season.id,
            "name": season.name,
            "kind": season.kind,
            "qualifying_qp": q.QUALIFYING_QP,
            "final_event_id": season.final_event_id,
            "events": [event_view(h, self.time.now_ms(), igq) for h in held],
            "players": [row_view(r) for r in rows],
            "qualified": sum(1 for r in rows if r.qualified),
            "distinct_players": distinct,
            "minimum_distinct": q.MASTERS_QUALIFIER_MINIMUM,
            "field_problem": q.qualifier_field_problem(distinct, len(pending))
            if season.kind == q.MASTERS_QUALIFIERS
            else q.pending_problem(len(pending)),
        }
        if keeper:
            names = {h.event.id: h.event.name for h in held}
            view["proposals"] = [
                [{"key": e.ref, "name": e.name, "event": names[e.event_id]} for e in group]
                for group in pending
            ]
        return view

    # -- the final ----------------------------------------------------------------

    def create_final(self, season_id: str, token: str | None, spec: FinalSpec) -> EventRecord:
        """The season's final: an Iron Gauntlet season's qualified players, each seeded by
        their QPs (RP5), with any QP list pasted in; a Masters tournament's qualifiers'
        top places, once the qualifiers had their 32 distinct players."""
        season = self.authorize(season_id, token)
        if season.final_event_id is not None:
            raise RuleError("this season has its final already")
        seeded = self._final_field(season, spec)
        event = self.registration.create_event(
            EventSpec(
                name=spec.name, format_id=spec.format_id, points=spec.points, lists=spec.lists
            )
        )
        self.seed_players(event.id, seeded)
        with self.db.unit() as repo:
            season.final_event_id = event.id
            repo.add(season)
        return event

    def _final_field(self, season: SeasonRecord, spec: FinalSpec) -> list[tuple[str, int | None]]:
        if q.IRON_GAUNTLET not in get_format(spec.format_id).seasons:
            raise BadInput("a final is a Masters or Champions event")
        if season.kind == q.MASTERS_QUALIFIERS:
            _, problem = self.field_problem(season.id)
            if problem is not None:
                raise RuleError(problem)
            if not 1 <= spec.per_qualifier <= 64:
                raise BadInput("a final takes from 1 to 64 players from each qualifier")
            return self._qualifiers_top(season, spec.per_qualifier)
        held = self.held(season.id)
        identities = self.identities(season.id)
        pending = q.pending_problem(len(q.proposals(self.entries(season, held), identities)))
        if pending is not None:
            raise RuleError(pending)
        field: list[tuple[str, int | None]] = [
            (r.name, r.qp) for r in self.table(season.id) if r.qualified
        ]
        if spec.qp_list.strip():
            field += list(q.parse_qp_list(spec.qp_list))
        if not field:
            raise RuleError("no player has qualified yet, and no QP list was given")
        return field

    def _qualifiers_top(self, season: SeasonRecord, places: int) -> list[tuple[str, int | None]]:
        """Each qualifier's top places, by place, each person once."""
        held = self.held(season.id)
        if not held or not all(h.over for h in held):
            raise RuleError("every qualifier must be over before the final is seeded")
        identities = self.identities(season.id)
        taken: set[str] = set()
        field: list[tuple[str, int | None]] = []
        for place in range(1, places + 1):
            for h in held:
                for at, entry in h.placed:  # a disqualified player has no place
                    who = q.identity_of(entry, identities)[0]
                    if at == place and who not in taken:
                        taken.add(who)
                        field.append((entry.name, None))
        return field

    def seed_players(self, event_id: str, field: Sequence[tuple[str, int | None]]) -> None:
        """Register each player, seeded by their QPs (None: not seeded)."""
        names = {p.name.casefold() for p in self.book.players(event_id)}
        for name, _ in field:
            if name.casefold() in names:
                raise BadInput(f"{name} is already registered")
            names.add(name.casefold())
        for name, qp in field:
            player = self.registration.add_player(event_id, name)
            if qp is not None:
                with self.book.unit() as repo:
                    player.seed_qp = qp
                    repo.add(player)

    def import_qp_list(self, event_id: str, text: str) -> int:
        """A QP list pasted on an event: its players registered, seeded by their QPs."""
        event = self.book.event(event_id)
        if q.IRON_GAUNTLET not in get_format(event.format_id).seasons:
            raise BadInput("QP seeding is for a Masters or Champions world final")
        field = q.parse_qp_list(text)
        self.seed_players(event_id, list(field))
        return len(field)
