"""Running an event: players, rounds, pairings, tables, results and standings.

The rules come from the domain (pairing, standings, tournament). Each use case is an
object of its own, given what it works with: the event's book (its records, read and
written in units of work, the EO's log and the "changed" signal), the live tables, the
placement their commands go to (here, or at the worker that owns a table), the time, the
dice, and the other use cases it calls. `EventService` makes them once and is what the
API, the demo, the benches and the tests call:
`service.rounds.start(...)`, `service.results.enter(...)`.
"""

from __future__ import annotations

import random
import secrets

from app.domain.errors import Unauthorized
from app.events.book import EventBook
from app.events.control import Control
from app.events.discipline import Discipline
from app.events.eligibility import Eligibility
from app.events.event_lists import EventLists
from app.events.event_tables import EventTables
from app.events.player_page import PlayerPages
from app.events.pregame import Pregame
from app.events.prizes import Prizes
from app.events.read_models import ReadModels
from app.events.registration import Registration
from app.events.results import Results
from app.events.round_clock import RoundClock
from app.events.round_end import RoundEnds
from app.events.rounds import Rounds
from app.events.season_reports import SeasonReports
from app.events.seasons import Seasons
from app.events.tournaments import Tournaments
from app.store.models import EventRecord
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.timesource import TimeSource


class EventService:
    """The event's use cases, composed, and the read models they keep current."""

    def __init__(
        self,
        store: Store,
        hub: TableHub,
        time: TimeSource,
        rng: random.Random | None = None,
        players_per_event: int = 1024,
        placement: Placement | None = None,
    ) -> None:
        rng = rng or random.Random()
        self.store, self.hub, self.time, self.rng = store, hub, time, rng
        #: Where the use cases send table commands: the hub's own placement unless given.
        placement = placement or hub.placement
        self.book = book = EventBook(store, time)
        self.tables = tables = EventTables(book, hub, placement, time)
        self.results = results = Results(book, hub, placement, tables)
        self.round_ends = ends = RoundEnds(book, hub, placement, time)
        self.round_clock = clock = RoundClock(book, hub, time, ends)
        self.pregame = pregame = Pregame(book, results)
        self.rounds = rounds = Rounds(book, hub, placement, time, rng, results, pregame, clock)
        self.control = control = Control(book, hub, time, rounds)
        results.draft_follows = control.follow_draft
        #: The policies of formats whose events run by rules of their own (Runewars).
        self.tournaments = tournaments = Tournaments(book, hub, placement, time, rng)
        self.registration = Registration(book, hub, time, control, tournaments, players_per_event)
        self.seasons = Seasons(store, book, time, results, self.registration)
        self.season_reports = SeasonReports(self.seasons)
        self.prizes = Prizes(book, hub, time, results)
        self.eligibility = Eligibility(book, results)
        self.discipline = Discipline(book, hub, results, self.eligibility, control)
        self.player_pages = PlayerPages(book, hub, results)
        self.lists = EventLists(book)
        self.read_models = ReadModels(book, hub, time, tournaments)

    def authorize(self, event_id: str, token: str | None) -> EventRecord:
        """The event, if `token` is its EO's: every use case of the EO's is behind it."""
        event = self.book.event(event_id)
        if not token or not secrets.compare_digest(token.encode(), event.admin_token.encode()):
            raise Unauthorized("this needs the EO's link, the admin link made with the event")
        return event

    async def close(self) -> None:
        """The round ends' timers stop."""
        await self.round_ends.close()
